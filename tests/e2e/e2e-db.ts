import crypto from "node:crypto";
import path from "node:path";
import { test } from "@playwright/test";
import pg from "pg";
import SQLite from "../../db/sqlite-driver";

/**
 * Direct access to the database of the e2e server the running test's project talks to
 * (tests/e2e/server.mjs): the SQLite file of the js and no-js projects, or the PostgreSQL
 * database of the postgres project. For arranging data no screen creates (a course of our
 * own, an inactive one) and for counting rows a screen cannot show.
 *
 * Statements are written once with `?` placeholders in SQL both dialects read the same way
 * (the schema keeps flags as 0/1 integers on both); counts come back as numbers on both.
 */
export interface E2EServer {
  port: number;
  /** postgres://… for the postgres project; unset for SQLite. */
  databaseUrl?: string;
}

export interface E2EDb {
  get<T = Record<string, unknown>>(statement: string, ...params: unknown[]): Promise<T | undefined>;
  all<T = Record<string, unknown>>(statement: string, ...params: unknown[]): Promise<T[]>;
  run(statement: string, ...params: unknown[]): Promise<void>;
}

/** The server the current test's project runs against (the project's metadata, see playwright.config.ts). */
export function e2eServer(): E2EServer {
  const metadata = test.info().project.metadata as Partial<E2EServer>;
  return { port: Number(metadata.port ?? process.env.E2E_PORT ?? 3100), databaseUrl: metadata.databaseUrl };
}

/** Where the e2e server writes its mail (OUTBOX_DIR in server.mjs). */
export function outboxDir(): string {
  return path.resolve(`tests/.tmp/outbox-${e2eServer().port}`);
}

const open = new Map<string, E2EDb>();

export function e2eDb(): E2EDb {
  return e2eDbOf(e2eServer());
}

/** The database of a given e2e server (one a spec starts for itself, tests/e2e/server.mjs on its own port). */
export function e2eDbOf(server: E2EServer): E2EDb {
  const key = server.databaseUrl ?? `sqlite:${server.port}`;
  let db = open.get(key);
  if (!db) {
    db = server.databaseUrl ? postgresDb(server.databaseUrl) : sqliteDb(server.port);
    open.set(key, db);
  }
  return db;
}

function sqliteDb(port: number): E2EDb {
  // WAL mode lets this process and the server share the file
  const handle = new SQLite(path.resolve(`tests/.tmp/e2e-${port}.db`));
  handle.pragma("busy_timeout = 5000");
  return {
    get: async <T>(statement: string, ...params: unknown[]) => handle.prepare(statement).get(...params) as T | undefined,
    all: async <T>(statement: string, ...params: unknown[]) => handle.prepare(statement).all(...params) as T[],
    run: async (statement, ...params) => {
      handle.prepare(statement).run(...params);
    },
  };
}

/** Counts (bigint) and sums (numeric) read as numbers, as SQLite gives them. */
const PG_TYPES = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as "text");
  },
};

function postgresDb(url: string): E2EDb {
  const pool = new pg.Pool({ connectionString: url, max: 2, types: PG_TYPES });
  pool.on("error", () => {});
  const query = async (statement: string, params: unknown[]) => {
    let n = 0;
    // the statements here hold no `?` inside string literals
    const text = statement.replace(/\?/g, () => `$${++n}`);
    return (await pool.query(text, params)).rows;
  };
  return {
    get: async <T>(statement: string, ...params: unknown[]) => (await query(statement, params))[0] as T | undefined,
    all: async <T>(statement: string, ...params: unknown[]) => (await query(statement, params)) as T[],
    run: async (statement, ...params) => {
      await query(statement, params);
    },
  };
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

/**
 * Inserts a course with a unique name, so tests never depend on (or disturb) the demo catalogue.
 * Every trainer holding a training credential (the demo's) is given its unit, as the office
 * would record before assigning them, unless `creditTrainers` is false.
 */
/** Every trainer holding a training credential gets the unit, as a course made in the portal would need of its assessors. */
export async function creditUnit(unitCode: string, now = new Date().toISOString()): Promise<void> {
  for (const t of await e2eDb().all<{ trainer_id: string }>("select distinct trainer_id from trainer_credentials")) {
    await e2eDb().run(
      "insert into trainer_units (id, trainer_id, unit_code, basis, evidence, expires_on, recorded_by, recorded_at) values (?, ?, ?, 'held', null, null, ?, ?)",
      crypto.randomUUID(),
      t.trainer_id,
      unitCode,
      t.trainer_id,
      now,
    );
  }
}

export async function insertCourse(overrides: Partial<E2ECourse> = {}, { creditTrainers = true }: { creditTrainers?: boolean } = {}): Promise<E2ECourse> {
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
  await e2eDb().run(
    `insert into courses (id, unit_code, name, description, tier, duration_hours, price_cents, is_active,
        prerequisites, learning_outcomes, assessment_criteria, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  if (creditTrainers) await creditUnit(course.unit_code, now);
  return course;
}

export async function countEnrollments(email: string, courseId: string): Promise<number> {
  const row = await e2eDb().get<{ n: number }>(
    `select count(*) as n from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?`,
    email.toLowerCase(),
    courseId,
  );
  return row!.n;
}

export function enrollmentOf(email: string, courseId: string): Promise<{ status: string; progress_percentage: number } | undefined> {
  return e2eDb().get(
    `select e.status, e.progress_percentage from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?`,
    email.toLowerCase(),
    courseId,
  );
}

/** A completed enrolment, three days old, in the first active course, for a student by email. */
export async function completedEnrollmentFor(
  email: string,
): Promise<{ enrollmentId: string; courseName: string; unitCode: string; officialTitle: string | null }> {
  const student = (await e2eDb().get<{ id: string }>("select id from users where email = ?", email))!;
  // a unit whose official title (what its certificate prints) is on record and differs from its
  // display name, when there is one, so a page showing the wrong one of the two is caught
  const course = (await e2eDb().get<{ id: string; name: string; unit_code: string; official_title: string | null }>(
    "select id, name, unit_code, official_title from courses where is_active = 1 order by official_title is null, official_title = name, name limit 1",
  ))!;
  const enrollmentId = crypto.randomUUID();
  const at = new Date(Date.now() - 3 * 864e5).toISOString();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, updated_at) values (?, ?, ?, 'completed', 100, ?, ?, ?)",
    enrollmentId,
    student.id,
    course.id,
    at,
    at,
    at,
  );
  return { enrollmentId, courseName: course.name, unitCode: course.unit_code, officialTitle: course.official_title };
}

export async function userId(email: string): Promise<string> {
  return (await e2eDb().get<{ id: string }>("select id from users where email = ?", email.toLowerCase()))!.id;
}

/** A class of `courseId` from `start` to `end` with one session on its first day, at the first delivery location. */
export async function insertClass(
  courseId: string,
  start: string,
  end: string,
  seats: number,
  trainerEmail: string,
): Promise<{ id: string; sessionId: string }> {
  const id = crypto.randomUUID();
  const sessionId = crypto.randomUUID();
  const now = new Date().toISOString();
  const location = await e2eDb().get<{ id: string }>("select id from delivery_locations order by created_at, id limit 1");
  await e2eDb().run(
    "insert into classes (id, course_id, start_date, end_date, location_id, trainer_id, seats, cancelled_at, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, null, ?, ?)",
    id,
    courseId,
    start,
    end,
    location?.id ?? null,
    await userId(trainerEmail),
    seats,
    now,
    now,
  );
  await e2eDb().run("insert into class_sessions (id, class_id, session_date, starts_at, ends_at) values (?, ?, ?, '07:30', '15:30')", sessionId, id, start);
  return { id, sessionId };
}

/** A learner holding a seat in the class (an enrolment made outside the screens). */
export async function seatHolder(courseId: string, classId: string, email: string): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, updated_at, class_id) values (?, ?, ?, 'enrolled', 0, ?, null, ?, ?)",
    id,
    await userId(email),
    courseId,
    now,
    now,
    classId,
  );
  return id;
}

/**
 * An enrolment of the student in the course and a passed practical assessment of it recorded by
 * the trainer on `on`: what the trainer's own forms make (trainer.spec.ts walks them), for the
 * evidence specs to attach files to. Returns the assessment's id.
 */
export async function insertAssessment(
  studentId: string,
  courseId: string,
  trainerId: string,
  on: string,
  status: "passed" | "failed" = "passed",
): Promise<string> {
  const enrollmentId = crypto.randomUUID();
  const assessmentId = crypto.randomUUID();
  const now = new Date().toISOString();
  await e2eDb().run(
    "insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, updated_at) values (?, ?, ?, 'enrolled', 0, ?, ?)",
    enrollmentId,
    studentId,
    courseId,
    now,
    now,
  );
  await e2eDb().run(
    "insert into assessments (id, enrollment_id, student_id, course_id, assessment_type, status, score, max_score, assessment_date, feedback, assessed_by, created_at) values (?, ?, ?, ?, 'Practical', ?, 9, 10, ?, null, ?, ?)",
    assessmentId,
    enrollmentId,
    studentId,
    courseId,
    status,
    on,
    trainerId,
    now,
  );
  return assessmentId;
}

/** The pre-enrolment review's form with every question answered right (a spec that enrols in a review-required course takes it first). */
export async function rightReviewAnswers(): Promise<Record<string, string>> {
  const questions = await e2eDb().all<{ id: string; answer: string }>("select id, answer from review_questions where is_active = 1");
  return Object.fromEntries(questions.map((q) => [`q_${q.id}`, q.answer]));
}

/**
 * The learner's enrolment in the course completed three days ago with a statement of attainment
 * issued, as the trainer's result and the office's issue would leave it (certificates.spec.ts
 * walks those screens). Returns the certificate's id.
 */
export async function completeWithStatement(email: string, courseId: string): Promise<string> {
  const student = await userId(email);
  const enrollment = (await e2eDb().get<{ id: string }>("select id from enrollments where student_id = ? and course_id = ?", student, courseId))!;
  const at = new Date(Date.now() - 3 * 864e5).toISOString();
  await e2eDb().run(
    "update enrollments set status = 'completed', progress_percentage = 100, completion_date = ?, updated_at = ? where id = ?",
    at,
    at,
    enrollment.id,
  );
  const id = crypto.randomUUID();
  await e2eDb().run(
    "insert into certificates (id, certificate_number, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at, verification_code) values (?, ?, ?, ?, ?, 'tier_2', ?, null, ?, ?)",
    id,
    `SOA-E2E-${id.slice(0, 8).toUpperCase()}`,
    student,
    courseId,
    enrollment.id,
    at.slice(0, 10),
    at,
    crypto.randomBytes(8).toString("hex").toUpperCase(),
  );
  return id;
}

/**
 * An approved, active trainer made outside the screens (signing in is not needed: the admin
 * works on their record). With `units`, they hold TAE40122 since 2000 and each unit; without,
 * no credential at all, as a new starter arrives.
 */
export async function insertTrainer(fullName: string, units?: string[]): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await e2eDb().run(
    `insert into users (id, email, full_name, password_hash, role, is_active, approval_status, created_at, updated_at)
     values (?, ?, ?, 'x', 'trainer', 1, 'approved', ?, ?)`,
    id,
    `trainer-${id.slice(0, 8)}@test.example`,
    fullName,
    now,
    now,
  );
  if (units) {
    await e2eDb().run(
      "insert into trainer_credentials (id, trainer_id, credential, supervisor_id, issued_on, expires_on, note, recorded_by, recorded_at) values (?, ?, 'TAE40122', null, '2000-01-01', null, null, ?, ?)",
      crypto.randomUUID(),
      id,
      id,
      now,
    );
    for (const unit of units) {
      await e2eDb().run(
        "insert into trainer_units (id, trainer_id, unit_code, basis, evidence, expires_on, recorded_by, recorded_at) values (?, ?, ?, 'held', null, null, ?, ?)",
        crypto.randomUUID(),
        id,
        unit,
        id,
        now,
      );
    }
  }
  return id;
}

/** An approved account with the demo password (a second trainer, or a learner of a spec's own), made outside the screens; returns the email. */
export async function insertStaff(role: "trainer" | "admin" | "student", fullName: string): Promise<string> {
  const email = `${role === "student" ? "learner" : "staff"}-${crypto.randomUUID().slice(0, 8)}@test.example`;
  const now = new Date().toISOString();
  await e2eDb().run(
    `insert into users (id, email, full_name, password_hash, role, is_active, approval_status, created_at, updated_at)
     select ?, ?, ?, password_hash, ?, 1, 'approved', ?, ? from users where email = 'trainer@example.com'`,
    crypto.randomUUID(),
    email,
    fullName,
    role,
    now,
    now,
  );
  return email;
}
