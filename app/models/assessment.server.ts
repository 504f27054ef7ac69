import crypto from "node:crypto";
import { sql, type SqlBool } from "kysely";
import { sendWritesAtCommit, takeWritesTurn, writeLater, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import { CURRENT_ENROLLMENT_STATUSES, type AssessmentStatus, type EnrollmentStatus, type Tier } from "#db/schema";
import type { AssessmentInput } from "~/schemas/assessment";
import { organisationToday } from "~/utils/organisation-calendar";
import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { DomainError, invalid, notFound } from "~/utils/errors";
import { dialectSql, likePattern } from "#db/dialect";
import { recordAudit } from "./audit.server";
import { stampKeepUntil } from "./retention.server";
import { assertCredentialed } from "./standards/trainer-credential.server";
import { recordEvent } from "./event.server";
import { queueWebhookEvent, readWebhookEndpoints } from "./webhook-events.server";
import { changeEnrollmentLater } from "./enrollment-change.server";
import { learnerScope } from "./write-scopes.server";
import { countUpTo, SEARCH_COUNT_LIMIT, type CappedCount } from "./batches.server";

/**
 * The latest assessment of an enrollment orders by the assessment's calendar day, then by when
 * it was recorded (assessment_date holds ISO instants; the day is its first ten characters).
 */
export const latestAssessmentOrder = [sql`substr(assessment_date, 1, 10) desc`, sql`created_at desc`] as const;

/** An assessment as the trainer's list shows it (with student, course and assessor). */
export interface AssessmentListItem {
  id: string;
  enrollment_id: string;
  assessment_type: string;
  status: AssessmentStatus;
  score: number | null;
  max_score: number | null;
  assessment_date: string;
  feedback: string | null;
  created_at: string;
  student: { id: string; full_name: string };
  course: { id: string; name: string; tier: Tier };
  assessor: { id: string; full_name: string } | null;
}

export interface AssessmentFilter {
  status?: AssessmentStatus | null;
  /** student name or email, or course name or unit code */
  search?: string | null;
  enrollmentId?: string | null;
  page?: number;
  pageSize?: number;
}

export interface AssessmentPage {
  items: AssessmentListItem[];
  /** the assessments the filters keep, or ASSESSMENT_COUNT_LIMIT when more do (totalCapped) */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
  pageCount: number;
}

/**
 * The assessments a filter keeps, on their own (no joins). A search finds the students (name or
 * e-mail, on the users' search index) and the courses (name or unit code) it names and keeps
 * their assessments by id: matching the joined rows read every assessment (250 ms at 50,000).
 */
function narrowed(db: DB, filter: AssessmentFilter) {
  let query = db.selectFrom("assessments");
  if (filter.status) query = query.where("assessments.status", "=", filter.status);
  if (filter.enrollmentId) query = query.where("assessments.enrollment_id", "=", filter.enrollmentId);
  const term = filter.search?.trim();
  if (term) {
    const p = likePattern(term);
    query = query.where((eb) =>
      eb.or([
        eb("assessments.student_id", "in", db.selectFrom("users").select("users.id").where(dialectSql(db).userTextMatches(term, "users"))),
        eb(
          "assessments.course_id",
          "in",
          // ESCAPE makes the backslashes likePattern puts before % and _ mean "this character".
          db
            .selectFrom("courses")
            .select("courses.id")
            .where(sql<boolean>`(lower(courses.name) like ${p} escape '\\' or lower(courses.unit_code) like ${p} escape '\\')`),
        ),
      ]),
    );
  }
  return query;
}

/** The kept assessments with their student, course and assessor. */
function filtered(db: DB, filter: AssessmentFilter) {
  return narrowed(db, filter)
    .innerJoin("users as student", "student.id", "assessments.student_id")
    .innerJoin("courses", "courses.id", "assessments.course_id")
    .leftJoin("users as assessor", "assessor.id", "assessments.assessed_by");
}

/**
 * How many assessments a filter keeps. Unsearched, the kept counts answer exactly
 * (assessment_counts, the same figures as the status cards); a search or an enrolment counts up
 * to ASSESSMENT_COUNT_LIMIT. Every assessment has its student and course (not-null foreign keys),
 * so the count needs no join: an index range, or the search's ids.
 */
async function countFiltered(db: DB, filter: AssessmentFilter): Promise<CappedCount> {
  if (filter.search?.trim() || filter.enrollmentId) return countUpTo(db, narrowed(db, filter).select("assessments.id"), ASSESSMENT_COUNT_LIMIT);
  let kept = db.selectFrom("assessment_counts").select((eb) => eb.fn.coalesce(eb.fn.sum<number>("n"), eb.lit(0)).as("n"));
  if (filter.status) kept = kept.where("status", "=", filter.status);
  const row = await kept.executeTakeFirstOrThrow();
  return { total: Number(row.n), totalCapped: false };
}

/** How far a searched assessment list counts its matches: as far as a search of the students does. */
export const ASSESSMENT_COUNT_LIMIT = SEARCH_COUNT_LIMIT;

const ASSESSMENT_COLUMNS = [
  "assessments.id",
  "assessments.enrollment_id",
  "assessments.assessment_type",
  "assessments.status",
  "assessments.score",
  "assessments.max_score",
  "assessments.assessment_date",
  "assessments.feedback",
  "assessments.created_at",
  "student.id as student_id",
  "student.full_name as student_name",
  "courses.id as course_id",
  "courses.name as course_name",
  "courses.tier",
  "assessor.id as assessor_id",
  "assessor.full_name as assessor_name",
] as const;

/** A row of ASSESSMENT_COLUMNS: the list item's own fields, its people and course flattened. */
type AssessmentRow = Omit<AssessmentListItem, "student" | "course" | "assessor"> & {
  student_id: string;
  student_name: string;
  course_id: string;
  course_name: string;
  tier: Tier;
  assessor_id: string | null;
  assessor_name: string | null;
};

function toAssessmentItem(r: AssessmentRow): AssessmentListItem {
  return {
    id: r.id,
    enrollment_id: r.enrollment_id,
    assessment_type: r.assessment_type,
    status: r.status,
    score: r.score,
    max_score: r.max_score,
    assessment_date: r.assessment_date,
    feedback: r.feedback,
    created_at: r.created_at,
    student: { id: r.student_id, full_name: r.student_name },
    course: { id: r.course_id, name: r.course_name, tier: r.tier },
    assessor: r.assessor_id && r.assessor_name ? { id: r.assessor_id, full_name: r.assessor_name } : null,
  };
}

/** One assessment as the lists show it, or null for an unknown id. */
export async function getAssessment(db: DB, id: string): Promise<AssessmentListItem | null> {
  const row = await filtered(db, {}).select(ASSESSMENT_COLUMNS).where("assessments.id", "=", id).executeTakeFirst();
  return row ? toAssessmentItem(row) : null;
}

/** Assessments newest first (by assessment date, then when recorded), filtered and paged in SQL. */
export async function listAssessments(db: DB, filter: AssessmentFilter = {}): Promise<AssessmentPage> {
  const pageSize = Math.max(1, Math.min(100, Math.floor(filter.pageSize ?? 20)));
  const asked = Math.max(1, Math.floor(filter.page ?? 1) || 1);
  // The page asked for is read beside the count; only a page past the last is read again.
  const [{ total, totalCapped }, first] = await Promise.all([countFiltered(db, filter), assessmentPage(db, filter, asked, pageSize)]);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(asked, pageCount);
  const rows = page === asked ? first : await assessmentPage(db, filter, page, pageSize);
  return {
    items: rows.map(toAssessmentItem),
    total,
    totalCapped,
    page,
    pageSize,
    pageCount,
  };
}

/**
 * One page of the list, newest first. The page's ids first, from the assessments alone (an index
 * of the list's order holds the id), then their rows with student, course and assessor: a deep
 * page passes its offset's rows without joining each to its people.
 */
function assessmentPage(db: DB, filter: AssessmentFilter, page: number, pageSize: number): Promise<AssessmentRow[]> {
  const [byDay, byRecorded, byId] = [sql`substr(assessments.assessment_date, 1, 10) desc`, sql`assessments.created_at desc`, sql`assessments.id`];
  const pageIds = narrowed(db, filter)
    .select("assessments.id")
    .orderBy(byDay)
    .orderBy(byRecorded)
    .orderBy(byId)
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return filtered(db, {}).select(ASSESSMENT_COLUMNS).where("assessments.id", "in", pageIds).orderBy(byDay).orderBy(byRecorded).orderBy(byId).execute();
}

export type AssessmentCounts = Record<AssessmentStatus, number> & { total: number };

/** How many assessments are on record in each status: the kept counts (assessment_counts), no assessment read. */
export async function countAssessmentsByStatus(db: DB): Promise<AssessmentCounts> {
  const rows = await db.selectFrom("assessment_counts").select(["status", "n"]).execute();
  const counts: AssessmentCounts = { passed: 0, failed: 0, in_progress: 0, resubmission: 0, total: 0 };
  for (const r of rows) {
    counts[r.status] = Number(r.n);
    counts.total += Number(r.n);
  }
  return counts;
}

/**
 * What "Pending Assessments" means, in one place for the card, the task list and the tests:
 * a current enrolment (enrolled or in progress) of an active student that is waiting on its
 * assessor, that is, whose latest assessment is in progress or awaiting resubmission, or that
 * is in progress with no assessment recorded yet.
 */
export { PENDING_ASSESSMENT_DEFINITION } from "~/schemas/assessment";

/**
 * Enrolments waiting on their assessor. `awaiting_assessor` is generated from the enrolment's
 * status and `latest_assessment_status`, which triggers keep in step with its assessments
 * (migration 2026-11-22T1800), so this is an index range rather than a lookup per enrolment.
 */
function pendingOnly(db: DB) {
  return db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .where("enrollments.awaiting_assessor", "=", 1)
    .where("users.role", "=", "student")
    .where("users.is_active", "=", 1);
}

/**
 * Counted as every waiting enrolment (kept by triggers: awaiting_assessor_count, migration
 * 2026-12-05T1520) less those of accounts that are not active students: the latter are few, an
 * index of their own, and no other enrolment is joined to its student.
 */
export async function countPendingAssessments(db: DB): Promise<number> {
  const [all, excluded] = await Promise.all([
    db.selectFrom("awaiting_assessor_count").select("n").executeTakeFirstOrThrow(),
    // CROSS JOIN keeps users as the outer loop in SQLite: the few excluded accounts first.
    db
      .selectFrom("users")
      .crossJoin("enrollments")
      .select((eb) => eb.fn.countAll().as("n"))
      .whereRef("enrollments.student_id", "=", "users.id")
      .where("enrollments.awaiting_assessor", "=", 1)
      // users_not_studying_idx's own condition (migration 2026-12-05T1540), written out so the
      // planner can match it, the exact opposite of pendingOnly's
      .where(sql<SqlBool>`not (users.role = 'student' and users.is_active = 1)`)
      .executeTakeFirstOrThrow(),
  ]);
  return Number(all.n) - Number(excluded.n);
}

export interface PendingAssessment {
  enrollment_id: string;
  enrollment_status: EnrollmentStatus;
  progress_percentage: number;
  student: { id: string; full_name: string };
  course_name: string;
  /** the latest assessment's status, or null when none is recorded */
  latest_status: AssessmentStatus | null;
}

/** The pending assessments, longest untouched first (for the overview's task list). */
export async function listPendingAssessments(db: DB, options: { limit?: number } = {}): Promise<PendingAssessment[]> {
  const rows = await pendingOnly(db)
    .select([
      "enrollments.id",
      "enrollments.status",
      "enrollments.progress_percentage",
      "enrollments.latest_assessment_status",
      "users.id as student_id",
      "users.full_name",
      "courses.name as course_name",
    ])
    .orderBy("enrollments.updated_at")
    .orderBy("enrollments.id")
    .limit(Math.max(1, Math.min(100, options.limit ?? 5)))
    .execute();
  return rows.map((r) => ({
    enrollment_id: r.id,
    enrollment_status: r.status,
    progress_percentage: r.progress_percentage,
    student: { id: r.student_id, full_name: r.full_name },
    course_name: r.course_name,
    latest_status: r.latest_assessment_status,
  }));
}

export const ENROLLMENT_NOT_CURRENT = "Assessments can only be recorded for a current enrolment (enrolled or in progress)";

/** An assessment begun and not yet settled: a later result of its kind updates it. */
const OPEN_ASSESSMENT_STATUSES = ["in_progress", "resubmission"] as const satisfies readonly AssessmentStatus[];

const STATUS_WORDS: Record<AssessmentStatus, string> = {
  passed: "passed",
  failed: "failed",
  in_progress: "in progress",
  resubmission: "resubmission required",
};

/** A result dated before the training began. */
export const assessmentBeforeTraining = (from: string) => `Assessment date cannot be before the training began (${from})`;
export const ASSESSMENT_IN_FUTURE = "Assessment date cannot be in the future";

/**
 * The first day a result may be dated: the day training began, which is the enrolment's planned
 * start (or its class's first session, if earlier), not the day the enrolment was typed in:
 * training recorded after the fact is dated when it happened, and the report carries that date.
 */
async function trainingBegan(
  db: DB,
  enrollment: { planned_start_date: string | null; enrollment_date: string; class_id: string | null; duration_hours: number | string },
): Promise<string> {
  const planned = enrollment.planned_start_date ?? defaultPlannedDates(enrollment.enrollment_date, Number(enrollment.duration_hours)).start;
  if (!enrollment.class_id) return planned;
  const session = await db
    .selectFrom("class_sessions")
    .select((eb) => eb.fn.min("session_date").as("first"))
    .where("class_id", "=", enrollment.class_id)
    .executeTakeFirst();
  const first = session?.first ? String(session.first) : null;
  return first && first < planned ? first : planned;
}

/**
 * Records an assessment against a current enrolment of an active student. The date is on the
 * organisation's calendar, from the day training began (trainingBegan) to today. Recording one
 * on an enrolment that had not started marks it in progress (the student has begun). A result
 * for an assessment of the same kind still open on the enrolment (in progress or awaiting
 * resubmission) updates that assessment instead of adding another. Recorded as an event about
 * the student, with the assessor.
 */
export async function recordAssessment(db: DB, input: AssessmentInput & { actorId: string; client?: string | null; now?: Date }): Promise<{ id: string }> {
  const nowDate = input.now ?? new Date();
  const now = nowDate.toISOString();
  if (input.assessment_date > organisationToday(nowDate)) throw invalid(ASSESSMENT_IN_FUTURE, { assessment_date: ASSESSMENT_IN_FUTURE });
  if (input.score !== null || input.max_score !== null) {
    if (input.score === null || input.max_score === null || input.max_score < 1 || input.score < 0 || input.score > input.max_score) {
      throw invalid("Score must be between 0 and the max score", { score: "Score must be between 0 and the max score" });
    }
  }
  // the learner the result is about, for the write's scope (an enrolment keeps its learner)
  const learner = await db.selectFrom("enrollments").select("student_id").where("id", "=", input.enrollment_id).executeTakeFirst();
  return writeTransaction(
    db,
    async (trx) => {
      const enrollment = await trx
        .selectFrom("enrollments")
        .innerJoin("users", "users.id", "enrollments.student_id")
        .innerJoin("courses", "courses.id", "enrollments.course_id")
        .select([
          "enrollments.id",
          "enrollments.status",
          "enrollments.enrollment_date",
          "enrollments.planned_start_date",
          "enrollments.class_id",
          "courses.duration_hours",
          "enrollments.student_id",
          "enrollments.course_id",
          "users.is_active",
          "users.role",
          "courses.name as course_name",
          "courses.unit_code",
        ])
        .where("enrollments.id", "=", input.enrollment_id)
        .executeTakeFirst();
      if (!enrollment || enrollment.role !== "student") throw notFound("Enrolment");
      if (!(CURRENT_ENROLLMENT_STATUSES as readonly string[]).includes(enrollment.status)) {
        throw new DomainError(409, ENROLLMENT_NOT_CURRENT, { enrollment_id: ENROLLMENT_NOT_CURRENT });
      }
      if (enrollment.is_active !== 1) {
        const message = "This student's account is inactive; reactivate it before recording assessments";
        throw new DomainError(409, message, { enrollment_id: message });
      }
      const began = await trainingBegan(trx, enrollment);
      if (input.assessment_date < began) {
        const message = assessmentBeforeTraining(began);
        throw invalid(message, { assessment_date: message });
      }
      // the assessor is credentialed for the unit on the day assessed (a 409 naming why, beside the enrolment)
      await assertCredentialed(trx, input.actorId, enrollment.unit_code, [input.assessment_date], "enrollment_id");
      // An assessment of this kind still open on the enrolment (begun, or awaiting resubmission) is
      // the one this result settles: it is updated, so the enrolment keeps one row per assessment
      // rather than a stale "in progress, not marked" beside its result.
      const open = await trx
        .selectFrom("assessments")
        .select(["id", "status"])
        .where("enrollment_id", "=", enrollment.id)
        .where("assessment_type", "=", input.assessment_type)
        .where("status", "in", OPEN_ASSESSMENT_STATUSES)
        .orderBy("assessment_date", "desc")
        .orderBy("created_at", "desc")
        .limit(1)
        .executeTakeFirst();
      // the checks above read this learner's records and what only unscoped writes change (a
      // trainer's credentials): from here this write writes, in its turn
      await readWebhookEndpoints(trx);
      await takeWritesTurn(trx, [input.actorId]);
      const id = open?.id ?? crypto.randomUUID();
      const result = {
        status: input.status,
        score: input.score,
        max_score: input.max_score,
        // the calendar day the trainer chose, as an ISO instant like every other date column
        assessment_date: `${input.assessment_date}T00:00:00.000Z`,
        feedback: input.feedback,
        assessed_by: input.actorId,
      };
      if (open) {
        await trx.updateTable("assessments").set(result).where("id", "=", open.id).where("status", "in", OPEN_ASSESSMENT_STATUSES).execute();
        // the judgement starts (or moves) the keep-until day of the evidence already on it; an
        // assessment this result creates has none yet
        await stampKeepUntil(trx, { assessment: { kind: "unit", id } });
      }
      // nothing below reads what it writes: the writes go to the database with the commit, one
      // round trip where each took one in the turn
      sendWritesAtCommit(trx);
      if (!open) {
        await writeLater(
          trx,
          trx.insertInto("assessments").values({
            id,
            enrollment_id: enrollment.id,
            student_id: enrollment.student_id,
            course_id: enrollment.course_id,
            assessment_type: input.assessment_type,
            ...result,
            created_at: now,
          }),
        );
      }
      await queueWebhookEvent(trx, { type: "result.recorded", subjectId: id, cause: `${id}:${now}`, now });
      await recordAudit(trx, {
        action: "assessment.result_recorded",
        actor: { id: input.actorId, client: input.client },
        subject: { type: "assessment", id, userId: enrollment.student_id },
        detail: `${input.assessment_type}: ${open ? `${STATUS_WORDS[open.status as AssessmentStatus]} \u2192 ` : ""}${STATUS_WORDS[input.status]}`,
        now,
      });
      const score = input.score !== null && input.max_score !== null ? ` (${input.score}/${input.max_score})` : "";
      await recordEvent(trx, {
        actorId: input.actorId,
        subjectUserId: enrollment.student_id,
        type: "assessment.recorded",
        entityType: "assessment",
        entityId: id,
        message: `${input.assessment_type} assessment for ${enrollment.course_name}: ${STATUS_WORDS[input.status]}${score}`,
        now,
      });
      if (enrollment.status === "enrolled") {
        // the status read above holds: this learner's writes take turns (the learner's scope)
        await changeEnrollmentLater(trx, {
          id: enrollment.id,
          set: { status: "in_progress", updated_at: now },
          where: (u) => u.where("status", "=", "enrolled"),
          now,
        });
        await recordEvent(trx, {
          actorId: input.actorId,
          subjectUserId: enrollment.student_id,
          type: "enrollment.status",
          entityType: "enrollment",
          entityId: enrollment.id,
          message: `${enrollment.course_name}: status enrolled \u2192 in progress (first assessment recorded)`,
          now,
        });
      } else {
        await changeEnrollmentLater(trx, { id: enrollment.id, set: { updated_at: now }, now });
      }
      return { id };
    },
    learner ? { scopes: [learnerScope(learner.student_id)] } : {},
  );
}

/**
 * Changes a unit assessment's result on an upheld appeal (complaint.server.ts decides who may),
 * inside the appeal's write transaction: the status the decider chose, the decider as the one
 * who set it; audited with the appeal's reference.
 */
export async function changeResultOnAppeal(
  trx: WriteTransaction,
  input: { assessmentId: string; status: "passed" | "failed"; reference: string; actor: { id: string; client?: string | null }; now: Date },
): Promise<void> {
  const row = await trx
    .selectFrom("assessments")
    .select(["id", "status", "student_id", "assessment_type"])
    .where("id", "=", input.assessmentId)
    .executeTakeFirst();
  if (!row) throw notFound("Assessment");
  await trx.updateTable("assessments").set({ status: input.status }).where("id", "=", row.id).execute();
  await stampKeepUntil(trx, { assessment: { kind: "unit", id: row.id } });
  await recordAudit(trx, {
    action: "assessment.result_changed_on_appeal",
    actor: input.actor,
    subject: { type: "assessment", id: row.id, userId: row.student_id },
    detail: `${row.assessment_type}: ${STATUS_WORDS[row.status as AssessmentStatus]} \u2192 ${STATUS_WORDS[input.status]} (${input.reference})`,
    now: input.now.toISOString(),
  });
}
