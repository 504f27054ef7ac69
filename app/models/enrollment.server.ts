import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import { sql } from "kysely";
import type { AssessmentStatus, EnrollmentStatus, Tier } from "#db/schema";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { issueCertificate } from "./certificate.server";
import { likePattern } from "./course.server";
import { recordEvent } from "./event.server";
import { isIndexedUserSearch, unindexed, userTextMatches } from "./user.server";
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

// ---------------------------------------------------------------------------------------------
// The trainer's side: current enrolments ("My Students") and the progress/status workflow.
// ---------------------------------------------------------------------------------------------

/** Enrolments a trainer is working on: started or about to start. */
export const CURRENT_ENROLLMENT_STATUSES = ["enrolled", "in_progress"] as const satisfies readonly EnrollmentStatus[];

/**
 * The latest assessment of an enrollment orders by the assessment's calendar day, then by when
 * it was recorded (assessment_date holds ISO instants; the day is its first ten characters).
 */
export const latestAssessmentOrder = [sql`substr(assessment_date, 1, 10) desc`, sql`created_at desc`] as const;

export interface TrainerEnrollmentItem {
  id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  course: { id: string; name: string; unit_code: string; tier: Tier };
  last_assessment: { status: AssessmentStatus; assessment_type: string } | null;
}

export interface TrainerStudentRow {
  id: string;
  full_name: string;
  email: string;
  enrollments: TrainerEnrollmentItem[];
}

export interface TrainerStudentPage {
  students: TrainerStudentRow[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * "My Students". There is no trainer-to-student assignment in this organisation's records: every
 * trainer works with every learner (the contract gives trainers the admin student list). So a
 * trainer's students are the active students with at least one current enrolment (enrolled or
 * in progress); the overview card counts exactly these rows.
 */
export function myStudentsQuery(db: DB, search?: string | null) {
  const term = search?.trim() ?? "";
  // An indexed search leads (see isIndexedUserSearch); otherwise the role and name index does.
  const byIndex = isIndexedUserSearch(term);
  let query = db
    .selectFrom("users")
    .where(unindexed("users.role", byIndex), "=", "student")
    .where(unindexed("users.is_active", byIndex), "=", 1)
    // kept equal to the number of enrolled or in-progress enrolments by triggers
    // (migration 2026-11-22T1800), so the count is an index range on users alone
    .where(unindexed("users.current_enrollments", byIndex), ">", 0);
  if (term) {
    const pattern = likePattern(term);
    // Either the name or e-mail matches, or a current enrolment's course does. Both sides are
    // id sets SQLite can look users up by, so neither walks every student.
    query = query.where((eb) =>
      eb.or([
        userTextMatches(term),
        eb(
          "users.id",
          "in",
          // CROSS JOIN: SQLite starts from the few matching courses, then their enrolments.
          eb
            .selectFrom("courses as sc")
            .crossJoin("enrollments as se")
            .select("se.student_id")
            .whereRef("se.course_id", "=", "sc.id")
            .where("se.status", "in", CURRENT_ENROLLMENT_STATUSES)
            // ESCAPE makes the backslashes likePattern puts before % and _ literal.
            .where(sql<boolean>`(lower(sc.name) like ${pattern} escape '\\' or lower(sc.unit_code) like ${pattern} escape '\\')`),
        ),
      ]),
    );
  }
  return query;
}

/**
 * A page of "My Students" (by name), each with their current enrolments, real progress and
 * the status of each enrolment's latest assessment. Three queries whatever the page size.
 */
export async function listTrainerStudents(
  db: DB,
  options: { search?: string | null; page?: number; pageSize?: number } = {},
): Promise<TrainerStudentPage> {
  const pageSize = Math.max(1, Math.min(100, Math.floor(options.pageSize ?? 10)));
  const countRow = await myStudentsQuery(db, options.search)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(countRow.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1) || 1), pageCount);
  const students = await myStudentsQuery(db, options.search)
    .select(["users.id", "users.full_name", "users.email"])
    .orderBy(sql`lower(users.full_name)`)
    .orderBy("users.id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const byStudent = await currentEnrollmentsFor(
    db,
    students.map((s) => s.id),
  );
  return {
    students: students.map((s) => ({ ...s, enrollments: byStudent.get(s.id) ?? [] })),
    total,
    page,
    pageSize,
    pageCount,
  };
}

async function currentEnrollmentsFor(db: DB, studentIds: string[]): Promise<Map<string, TrainerEnrollmentItem[]>> {
  const out = new Map<string, TrainerEnrollmentItem[]>();
  if (studentIds.length === 0) return out;
  const rows = await db
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select((eb) => [
      "enrollments.id",
      "enrollments.student_id",
      "enrollments.status",
      "enrollments.progress_percentage",
      "enrollments.enrollment_date",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.tier",
      eb
        .selectFrom("assessments")
        .select(sql<string>`status || '|' || assessment_type`.as("v"))
        .whereRef("assessments.enrollment_id", "=", "enrollments.id")
        .orderBy(latestAssessmentOrder[0])
        .orderBy(latestAssessmentOrder[1])
        .limit(1)
        .as("last_assessment"),
    ])
    .where("enrollments.student_id", "in", studentIds)
    .where("enrollments.status", "in", CURRENT_ENROLLMENT_STATUSES)
    .orderBy("courses.name")
    .orderBy("enrollments.id")
    .execute();
  for (const r of rows) {
    const [status, type] = r.last_assessment ? [r.last_assessment.slice(0, r.last_assessment.indexOf("|")), r.last_assessment.slice(r.last_assessment.indexOf("|") + 1)] : [];
    const item: TrainerEnrollmentItem = {
      id: r.id,
      status: r.status,
      progress_percentage: r.progress_percentage,
      enrollment_date: r.enrollment_date,
      course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, tier: r.tier },
      last_assessment: status ? { status: status as AssessmentStatus, assessment_type: type ?? "" } : null,
    };
    const list = out.get(r.student_id);
    if (list) list.push(item);
    else out.set(r.student_id, [item]);
  }
  return out;
}

/** A current enrolment as a choice in the record-assessment form. */
export interface EnrollmentOption {
  id: string;
  student_name: string;
  course_name: string;
  status: EnrollmentStatus;
}

/** Every current enrolment of an active student, by student then course (the form's select). */
export async function listCurrentEnrollmentOptions(db: DB, limit = 1000): Promise<EnrollmentOption[]> {
  return db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select(["enrollments.id", "users.full_name as student_name", "courses.name as course_name", "enrollments.status"])
    .where("users.role", "=", "student")
    .where("users.is_active", "=", 1)
    .where("enrollments.status", "in", CURRENT_ENROLLMENT_STATUSES)
    .orderBy(sql`lower(users.full_name)`)
    .orderBy("courses.name")
    .limit(limit)
    .execute();
}

/** One enrolment as the trainer's update page shows it, with its certificate if issued. */
export interface TrainerEnrollmentDetail {
  id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  completion_date: string | null;
  student: { id: string; full_name: string; email: string; is_active: boolean };
  course: { id: string; name: string; unit_code: string; tier: Tier };
  certificate: { id: string; certificate_number: string; issue_date: string } | null;
}

export async function getEnrollmentForTrainer(db: DB, id: string): Promise<TrainerEnrollmentDetail | null> {
  const r = await db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .leftJoin("certificates", "certificates.enrollment_id", "enrollments.id")
    .select([
      "enrollments.id",
      "enrollments.status",
      "enrollments.progress_percentage",
      "enrollments.enrollment_date",
      "enrollments.completion_date",
      "users.id as student_id",
      "users.full_name",
      "users.email",
      "users.is_active",
      "courses.id as course_id",
      "courses.name as course_name",
      "courses.unit_code",
      "courses.tier",
      "certificates.id as certificate_id",
      "certificates.certificate_number",
      "certificates.issue_date",
    ])
    .where("enrollments.id", "=", id)
    .where("users.role", "=", "student")
    .executeTakeFirst();
  if (!r) return null;
  return {
    id: r.id,
    status: r.status,
    progress_percentage: r.progress_percentage,
    enrollment_date: r.enrollment_date,
    completion_date: r.completion_date,
    student: { id: r.student_id, full_name: r.full_name, email: r.email, is_active: r.is_active === 1 },
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, tier: r.tier },
    certificate:
      r.certificate_id && r.certificate_number && r.issue_date
        ? { id: r.certificate_id, certificate_number: r.certificate_number, issue_date: r.issue_date }
        : null,
  };
}

export const ENROLLMENT_COMPLETED_LOCKED = "This enrollment is completed and cannot be reopened: its certificate stands.";
export const ENROLLMENT_WITHDRAWN_LOCKED =
  "This enrollment is withdrawn. To reinstate it, tick \u201cReopen this withdrawn enrollment\u201d and save again.";
export const ENROLLMENT_WITHDRAWN_PROGRESS = "A withdrawn enrollment keeps the progress it had; reopen it to change progress.";
export const COMPLETION_NEEDS_PASS =
  "Record a passed assessment before completing this enrollment: a certificate needs evidence of competency.";

export interface EnrollmentUpdateResult {
  enrollment: TrainerEnrollmentDetail;
  changed: boolean;
  /** the certificate issued by this update (completing), or null */
  issuedCertificate: { id: string; certificate_number: string } | null;
}

const STATUS_WORDS: Record<EnrollmentStatus, string> = {
  enrolled: "enrolled",
  in_progress: "in progress",
  completed: "completed",
  withdrawn: "withdrawn",
};

/**
 * A trainer's change to an enrollment's progress and status, with the transition rules:
 * - a completed enrollment is never reopened or changed (its certificate stands);
 * - a withdrawn enrollment is only reinstated with `reopen` (never silently), and its progress
 *   stays as it was while it is withdrawn;
 * - "enrolled" means not started, so it needs progress 0;
 * - completing needs the enrollment's latest assessment to be passed; it sets progress to 100
 *   and the completion date, and issues the certificate, all in one transaction, so a double
 *   submit completes once and certifies once;
 * - leaving completed is impossible, so completion_date is only ever set here.
 * Every change is recorded as an event about the student, with the actor and time.
 */
export async function updateEnrollmentProgress(
  db: DB,
  input: { enrollmentId: string; progress: number; status: EnrollmentStatus; reopen?: boolean; actorId: string; now?: Date },
): Promise<EnrollmentUpdateResult> {
  const nowDate = input.now ?? new Date();
  const now = nowDate.toISOString();
  if (!Number.isInteger(input.progress) || input.progress < 0 || input.progress > 100) {
    throw invalid("Progress must be a whole number between 0 and 100", { progress: "Progress must be a whole number between 0 and 100" });
  }
  return writeTransaction(db, async (trx) => {
    const current = await getEnrollmentForTrainer(trx, input.enrollmentId);
    if (!current) throw notFound("Enrollment");
    const target = input.status;
    const progress = target === "completed" ? 100 : input.progress;

    if (current.status === "completed") {
      if (target === "completed") return { enrollment: current, changed: false, issuedCertificate: null };
      throw conflict409(ENROLLMENT_COMPLETED_LOCKED, { status: ENROLLMENT_COMPLETED_LOCKED });
    }
    if (current.status === "withdrawn") {
      if (target !== "withdrawn" && !input.reopen) {
        throw conflict409(ENROLLMENT_WITHDRAWN_LOCKED, { reopen: ENROLLMENT_WITHDRAWN_LOCKED });
      }
      if (target === "withdrawn" && progress !== current.progress_percentage) {
        throw invalid(ENROLLMENT_WITHDRAWN_PROGRESS, { progress: ENROLLMENT_WITHDRAWN_PROGRESS });
      }
    }
    if (target === "enrolled" && progress > 0) {
      const message = "Progress above 0% means the course has started: choose In progress, or set progress to 0";
      throw invalid(message, { status: message });
    }
    if (target === current.status && progress === current.progress_percentage) {
      return { enrollment: current, changed: false, issuedCertificate: null };
    }

    if (target === "completed") {
      const latest = await trx
        .selectFrom("assessments")
        .select("status")
        .where("enrollment_id", "=", current.id)
        .orderBy(latestAssessmentOrder[0])
        .orderBy(latestAssessmentOrder[1])
        .limit(1)
        .executeTakeFirst();
      if (latest?.status !== "passed") throw invalid(COMPLETION_NEEDS_PASS, { status: COMPLETION_NEEDS_PASS });
    }

    // The status guard makes the write conditional on what was read, so a racing writer on
    // another server can never have this reopen a row it completed meanwhile.
    const result = await trx
      .updateTable("enrollments")
      .set({
        status: target,
        progress_percentage: progress,
        completion_date: target === "completed" ? now : null,
        updated_at: now,
      })
      .where("id", "=", current.id)
      .where("status", "=", current.status)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw conflict409("This enrollment was changed by someone else; please reload and try again.", {});

    const parts: string[] = [];
    if (target !== current.status) parts.push(`status ${STATUS_WORDS[current.status]} \u2192 ${STATUS_WORDS[target]}`);
    if (progress !== current.progress_percentage) parts.push(`progress ${current.progress_percentage}% \u2192 ${progress}%`);
    const reopened = current.status === "withdrawn" && target !== "withdrawn";
    await recordEvent(trx, {
      actorId: input.actorId,
      subjectUserId: current.student.id,
      type: target === "completed" ? "enrollment.completed" : reopened ? "enrollment.reopened" : target !== current.status ? "enrollment.status" : "enrollment.progress",
      entityType: "enrollment",
      entityId: current.id,
      message: `${current.course.name}: ${parts.join(", ")}`,
      now,
    });

    let issuedCertificate: EnrollmentUpdateResult["issuedCertificate"] = null;
    if (target === "completed") {
      const issued = await issueCertificate(trx, { enrollmentId: current.id, actorId: input.actorId, now: nowDate });
      issuedCertificate = issued.created ? { id: issued.certificate.id, certificate_number: issued.certificate.certificate_number } : null;
    }
    const enrollment = (await getEnrollmentForTrainer(trx, current.id))!;
    return { enrollment, changed: true, issuedCertificate };
  });
}

function conflict409(message: string, fieldErrors: Record<string, string>) {
  return new DomainError(409, message, fieldErrors);
}
