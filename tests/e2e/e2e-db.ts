import crypto from "node:crypto";
import path from "node:path";
import SQLite from "better-sqlite3";

/**
 * Direct access to the e2e server's database file (tests/e2e/server.mjs), for arranging data
 * no screen creates (a course of our own, an inactive one) and for counting rows a screen
 * cannot show. WAL mode lets this process and the server share the file.
 */
const port = process.env.E2E_PORT ?? "3100";
let handle: SQLite.Database | undefined;

export function e2eDb(): SQLite.Database {
  if (!handle) {
    handle = new SQLite(path.resolve(`tests/.tmp/e2e-${port}.db`));
    handle.pragma("busy_timeout = 5000");
  }
  return handle;
}

export interface E2ECourse {
  id: string;
  name: string;
  unit_code: string;
  tier: "tier_1" | "tier_2" | "tier_3";
  duration_hours: number;
  price: number;
  description: string;
  prerequisites: string[];
  learning_outcomes: string[];
  assessment_criteria: string[];
  is_active: boolean;
}

/** Inserts a course with a unique name, so tests never depend on (or disturb) the demo catalogue. */
export function insertCourse(overrides: Partial<E2ECourse> = {}): E2ECourse {
  const suffix = crypto.randomUUID().slice(0, 8);
  const course: E2ECourse = {
    id: crypto.randomUUID(),
    name: `Gantry crane operations ${suffix}`,
    unit_code: `E2E${suffix.toUpperCase()}`,
    tier: "tier_2",
    duration_hours: 60,
    price: 1850.5,
    description: `Operate overhead gantry cranes in workshops and yards (${suffix}).`,
    prerequisites: ["Licence to perform dogging (DG)", "White Card"],
    learning_outcomes: ["Plan the lift", "Inspect the crane", "Operate the pendant", "Park and isolate", "Record the lift"],
    assessment_criteria: ["Written test on load charts", "Practical lift of a test load"],
    is_active: true,
    ...overrides,
  };
  const now = new Date().toISOString();
  e2eDb()
    .prepare(
      `insert into courses (id, unit_code, name, description, tier, duration_hours, price_cents, is_active,
        prerequisites, learning_outcomes, assessment_criteria, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      course.id,
      course.unit_code,
      course.name,
      course.description,
      course.tier,
      course.duration_hours,
      Math.round(course.price * 100),
      course.is_active ? 1 : 0,
      JSON.stringify(course.prerequisites),
      JSON.stringify(course.learning_outcomes),
      JSON.stringify(course.assessment_criteria),
      now,
      now,
    );
  return course;
}

export function countEnrollments(email: string, courseId: string): number {
  const row = e2eDb()
    .prepare(
      `select count(*) as n from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?`,
    )
    .get(email.toLowerCase(), courseId) as { n: number };
  return row.n;
}

export function enrollmentOf(email: string, courseId: string): { status: string; progress_percentage: number } | undefined {
  return e2eDb()
    .prepare(
      `select e.status, e.progress_percentage from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?`,
    )
    .get(email.toLowerCase(), courseId) as { status: string; progress_percentage: number } | undefined;
}
