import type { DB } from "#db/connection";
import type { EnrollmentStatus, Tier } from "#db/schema";
import { organisationInstant } from "~/utils/class-time";
import { locationLabel } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";

/** What a student sees of their own enrolments: every query here is scoped to the student. */

/** An enrollment with its course, as the student side shows it. */
export interface StudentEnrollment {
  id: string;
  course_id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  completion_date: string | null;
  course: {
    id: string;
    name: string;
    unit_code: string;
    tier: Tier;
    duration_hours: number;
    price: number;
    description: string;
  };
}

/** A student's enrollments, newest first; `limit` for dashboards. Scoped to the student. */
export async function listEnrollmentsForStudent(db: DB, studentId: string, options: { limit?: number } = {}): Promise<StudentEnrollment[]> {
  let query = db
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([
      "enrollments.id",
      "enrollments.course_id",
      "enrollments.status",
      "enrollments.progress_percentage",
      "enrollments.enrollment_date",
      "enrollments.completion_date",
      "courses.name",
      "courses.unit_code",
      "courses.tier",
      "courses.duration_hours",
      "courses.price_cents",
      "courses.description",
    ])
    .where("enrollments.student_id", "=", studentId)
    .orderBy("enrollments.enrollment_date", "desc")
    .orderBy("enrollments.id");
  if (options.limit) query = query.limit(options.limit);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    course_id: r.course_id,
    status: r.status,
    progress_percentage: r.progress_percentage,
    enrollment_date: r.enrollment_date,
    completion_date: r.completion_date,
    course: {
      id: r.course_id,
      name: r.name,
      unit_code: r.unit_code,
      tier: r.tier,
      duration_hours: Number(r.duration_hours),
      price: r.price_cents / 100,
      description: r.description,
    },
  }));
}

export interface StudentEnrollmentCounts {
  total: number;
  completed: number;
  in_progress: number;
}

/** The student dashboard's enrollment counters, in one aggregate query. */
export async function getStudentEnrollmentCounts(db: DB, studentId: string): Promise<StudentEnrollmentCounts> {
  const row = await db
    .selectFrom("enrollments")
    .select((eb) => [
      eb.fn.countAll().as("total"),
      eb.fn.sum(eb.case().when("status", "=", "completed").then(1).else(0).end()).as("completed"),
      eb.fn.sum(eb.case().when("status", "=", "in_progress").then(1).else(0).end()).as("in_progress"),
    ])
    .where("student_id", "=", studentId)
    .executeTakeFirstOrThrow();
  // SUM over no rows is NULL; PostgreSQL returns counts as strings.
  return { total: Number(row.total), completed: Number(row.completed ?? 0), in_progress: Number(row.in_progress ?? 0) };
}

/** The learner's next class session: when, where, which course (their dashboard leads with it). */
export interface NextSession {
  course_name: string;
  unit_code: string;
  date: string;
  starts_at: string;
  ends_at: string;
  location: string | null;
}

/**
 * The first session still to end (the organisation's clock) of a class the learner holds a seat
 * in (enrolled or in progress, the class not cancelled), or null when none is coming.
 */
export async function nextSessionForStudent(db: DB, studentId: string, now = new Date()): Promise<NextSession | null> {
  const rows = await db
    .selectFrom("class_sessions as s")
    .innerJoin("classes as c", "c.id", "s.class_id")
    .innerJoin("enrollments as e", "e.class_id", "c.id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .select([
      "courses.name as course_name",
      "courses.unit_code",
      "s.session_date as date",
      "s.starts_at",
      "s.ends_at",
      "l.name as location_name",
      "l.suburb as location_suburb",
    ])
    .where("e.student_id", "=", studentId)
    .where("e.status", "in", ["enrolled", "in_progress"])
    .where("c.cancelled_at", "is", null)
    .where("s.session_date", ">=", organisationToday(now))
    .orderBy("s.session_date")
    .orderBy("s.starts_at")
    // today's sessions may have ended already: a few to look past them
    .limit(5)
    .execute();
  const next = rows.find((r) => organisationInstant(r.date, r.ends_at) > now);
  if (!next) return null;
  return {
    course_name: next.course_name,
    unit_code: next.unit_code,
    date: next.date,
    starts_at: next.starts_at,
    ends_at: next.ends_at,
    location: next.location_name ? locationLabel(next.location_name, next.location_suburb) : null,
  };
}
