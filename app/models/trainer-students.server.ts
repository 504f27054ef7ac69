import { sql } from "kysely";
import type { DB } from "#db/connection";
import { dialectSql, likePattern } from "#db/dialect";
import { CURRENT_ENROLLMENT_STATUSES, type AssessmentStatus, type EnrollmentStatus, type Tier, type UserRow } from "#db/schema";
import { latestAssessmentOrder } from "./assessment.server";
import { countUpTo } from "./batches.server";
import { STUDENT_COUNT_LIMIT } from "./student.server";
import { usiStatus, type UsiStatus } from "./usi.server";

/** The trainer's queries: current enrolments ("My Students"), the enrolments to assess, one enrolment's record. */

export interface TrainerEnrollmentItem {
  id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  course: { id: string; name: string; unit_code: string; tier: Tier };
  last_assessment: { status: AssessmentStatus; assessment_type: string } | null;
}

export type TrainerStudentRow = Pick<UserRow, "id" | "full_name" | "email"> & { enrollments: TrainerEnrollmentItem[] };

export interface TrainerStudentPage {
  students: TrainerStudentRow[];
  /** the students matching, or TRAINER_SEARCH_COUNT_LIMIT when more match a search (see totalCapped) */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * "My Students". There is no trainer-to-student assignment in this organisation's records: every
 * trainer works with every learner (trainers may read the admin student list too). So a
 * trainer's students are the active students with at least one current enrolment (enrolled or
 * in progress); the overview card counts exactly these rows.
 */
export function myStudentsQuery(db: DB, search?: string | null) {
  const term = search?.trim() ?? "";
  // An indexed search leads (see DialectSql.isIndexedUserSearch); otherwise the role and name index does.
  const dialect = dialectSql(db);
  const byIndex = dialect.isIndexedUserSearch(term);
  let query = db
    .selectFrom("users")
    .where(dialect.unindexed("users.role", byIndex), "=", "student")
    .where(dialect.unindexed("users.is_active", byIndex), "=", 1)
    // kept equal to the number of enrolled or in-progress enrolments by triggers
    // (migration 2026-11-22T1800), so the count is an index range on users alone
    .where(dialect.unindexed("users.current_enrollments", byIndex), ">", 0);
  if (term) {
    const pattern = likePattern(term);
    // Either the name or e-mail matches, or a current enrolment's course does. Both sides are
    // id sets SQLite can look users up by, so neither walks every student.
    query = query.where((eb) =>
      eb.or([
        dialect.userTextMatches(term, "users"),
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
/** How far a search of the trainers' students counts its matches, as the office's students list does. */
export const TRAINER_SEARCH_COUNT_LIMIT = STUDENT_COUNT_LIMIT;

/**
 * How many active students have a current enrolment: the row triggers keep (migration
 * 2026-12-05T1200), equal to counting myStudentsQuery unsearched, which read 400,000 index
 * entries at a national provider's volume.
 */
export async function countStudying(db: DB): Promise<number> {
  const row = await db.selectFrom("studying_count").select("n").where("id", "=", 1).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function listTrainerStudents(db: DB, options: { search?: string | null; page?: number; pageSize?: number } = {}): Promise<TrainerStudentPage> {
  const pageSize = Math.max(1, Math.min(100, Math.floor(options.pageSize ?? 10)));
  // unsearched, the count triggers keep (studying_count); a search counts its matches up to a limit
  const { total, totalCapped } = options.search?.trim()
    ? await countUpTo(db, myStudentsQuery(db, options.search).select("users.id"), TRAINER_SEARCH_COUNT_LIMIT)
    : { total: await countStudying(db), totalCapped: false };
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
    totalCapped,
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
    const [status, type] = r.last_assessment
      ? [r.last_assessment.slice(0, r.last_assessment.indexOf("|")), r.last_assessment.slice(r.last_assessment.indexOf("|") + 1)]
      : [];
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

/**
 * How many choices the record-assessment form lists at once: a select of every current enrolment
 * in a large organisation is too long to use and too heavy for a phone; a search narrows it.
 */
export const ENROLLMENT_OPTION_LIMIT = 100;

/**
 * Current enrolments of active students, by student then course (the form's select): the first
 * `limit`, or those of the students "My Students" finds for `search` (name, e-mail or course).
 *
 * The students are chosen first, by name on the role and name index (at most `limit` of them,
 * each with a current enrolment, so they hold the first `limit` rows), and only their enrolments
 * are read: sorting every current enrolment of 20,000 students took over half a second.
 */
export async function listCurrentEnrollmentOptions(
  db: DB,
  { search = "", limit = ENROLLMENT_OPTION_LIMIT }: { search?: string; limit?: number } = {},
): Promise<EnrollmentOption[]> {
  const students = myStudentsQuery(db, search)
    .select(["users.id", "users.full_name", sql<string>`lower(users.full_name)`.as("sort_name")])
    .orderBy(sql`lower(users.full_name)`)
    .orderBy("users.id")
    .limit(limit);
  return (
    db
      .selectFrom(students.as("s"))
      // CROSS JOIN: SQLite starts from the chosen students, not from every current enrolment.
      .crossJoin("enrollments")
      .whereRef("enrollments.student_id", "=", "s.id")
      .innerJoin("courses", "courses.id", "enrollments.course_id")
      .select(["enrollments.id", "s.full_name as student_name", "courses.name as course_name", "enrollments.status"])
      .where("enrollments.status", "in", CURRENT_ENROLLMENT_STATUSES)
      .orderBy("s.sort_name")
      .orderBy("s.id")
      .orderBy("courses.name")
      .limit(limit)
      .execute()
  );
}

/** One enrolment as the trainer's update page shows it, with its certificate if issued. */
export interface TrainerEnrollmentDetail {
  id: string;
  status: EnrollmentStatus;
  progress_percentage: number;
  enrollment_date: string;
  completion_date: string | null;
  /** the activity dates NAT00120 reports (YYYY-MM-DD) */
  planned_start_date: string | null;
  planned_end_date: string | null;
  student: { id: string; full_name: string; email: string; is_active: boolean; usi_status: UsiStatus };
  course: { id: string; name: string; unit_code: string; tier: Tier };
  certificate: { id: string; certificate_number: string; issue_date: string } | null;
}

export async function getEnrollmentForTrainer(db: DB, id: string): Promise<TrainerEnrollmentDetail | null> {
  const r = await db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    // the enrolment's current certificate: a replaced one has its successor
    .leftJoin("certificates", (join) => join.onRef("certificates.enrollment_id", "=", "enrollments.id").on("certificates.replaced_at", "is", null))
    .select([
      "enrollments.id",
      "enrollments.status",
      "enrollments.progress_percentage",
      "enrollments.enrollment_date",
      "enrollments.completion_date",
      "enrollments.planned_start_date",
      "enrollments.planned_end_date",
      "users.id as student_id",
      "users.full_name",
      "users.email",
      "users.is_active",
      "users.usi",
      "users.usi_verified_at",
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
    planned_start_date: r.planned_start_date,
    planned_end_date: r.planned_end_date,
    student: { id: r.student_id, full_name: r.full_name, email: r.email, is_active: r.is_active === 1, usi_status: usiStatus(r) },
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, tier: r.tier },
    certificate:
      r.certificate_id && r.certificate_number && r.issue_date
        ? { id: r.certificate_id, certificate_number: r.certificate_number, issue_date: r.issue_date }
        : null,
  };
}
