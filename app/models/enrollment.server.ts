import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { EnrollmentStatus, Tier } from "#db/schema";
import { conflict, notFound } from "~/utils/errors";
import { recordEvent } from "./event.server";
import { ALREADY_ENROLLED } from "~/schemas/enrollment";

/** An enrollment with its course, as the student side shows it (spec section 3). */
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

export { ALREADY_ENROLLED };

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505";
}

/** Whether a user already holds an enrollment in a course (any status). */
export async function isEnrolled(db: DB, studentId: string, courseId: string): Promise<boolean> {
  const row = await db
    .selectFrom("enrollments")
    .select("id")
    .where("student_id", "=", studentId)
    .where("course_id", "=", courseId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Enrols a user in an active course: status enrolled, progress 0. An unknown or inactive
 * course is a 404 'Course not found'; a second enrollment in the same course is a 409 and
 * creates nothing. The UNIQUE(student_id, course_id) constraint is the last word, so two
 * submissions racing each other still make one row.
 */
export async function createEnrollment(
  db: DB,
  input: { studentId: string; courseId: string; actorId?: string | null; now?: Date },
): Promise<{ id: string; course_id: string; status: EnrollmentStatus; progress_percentage: number; enrollment_date: string }> {
  const now = (input.now ?? new Date()).toISOString();
  const id = crypto.randomUUID();
  try {
    return await writeTransaction(db, async (trx) => {
      const course = await trx
        .selectFrom("courses")
        .select(["id", "name"])
        .where("id", "=", input.courseId)
        .where("is_active", "=", 1)
        .executeTakeFirst();
      if (!course) throw notFound("Course");
      if (await isEnrolled(trx, input.studentId, course.id)) throw conflict(ALREADY_ENROLLED);
      await trx
        .insertInto("enrollments")
        .values({
          id,
          student_id: input.studentId,
          course_id: course.id,
          status: "enrolled",
          progress_percentage: 0,
          enrollment_date: now,
          completion_date: null,
          updated_at: now,
        })
        .execute();
      await recordEvent(trx, {
        actorId: input.actorId ?? input.studentId,
        subjectUserId: input.studentId,
        type: "enrollment.created",
        entityType: "enrollment",
        entityId: id,
        message: `Enrolled in ${course.name}`,
        now,
      });
      return { id, course_id: course.id, status: "enrolled" as const, progress_percentage: 0, enrollment_date: now };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(ALREADY_ENROLLED);
    throw error;
  }
}
