import type { DB } from "#db/connection";
import type { EnrollmentStatus, Tier } from "#db/schema";

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
export async function listEnrollmentsForStudent(
  db: DB,
  studentId: string,
  options: { limit?: number } = {},
): Promise<StudentEnrollment[]> {
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
