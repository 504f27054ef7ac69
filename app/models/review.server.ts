import crypto from "node:crypto";
import { takeWritesTurn, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { Insertable, Selectable } from "kysely";
import type { EnrollmentReviewStatus, ReviewAttemptsTable, ReviewGroupsTable, ReviewQuestionsTable } from "#db/schema-review";
import type { ReviewGroupInput, ReviewOverride, ReviewQuestionInput } from "~/schemas/review";
import { ANSWER_FIELD_PREFIX } from "~/schemas/review";
import {
  REVIEW_NO_QUESTIONS,
  REVIEW_NOT_ON_ENROLLMENT,
  REVIEW_NOT_REQUIRED,
  REVIEW_RETIRED_UNCHANGED,
  REVIEW_HOLD_DAYS,
  REVIEW_HOLD_RELEASED,
  type ReviewGroupKey,
  type ReviewOutcomeKey,
} from "~/schemas/review-text";
import { DomainError, invalid, notFound } from "~/utils/errors";
import { formatDate } from "~/utils/format";
import { actorOf, recordAudit, type ActorRef } from "./audit.server";
import { recordEvent } from "./event.server";
import { offerFreeSeats } from "./class-seats.server";
import { changeEnrollments } from "./enrollment-change.server";
import { checkAnswers, markReview, type GroupRule, type GroupScore, type ScoredQuestion } from "./review-scoring";

/**
 * The pre-enrolment review (docs/decisions/028-pre-enrolment-review.md): a course may ask each
 * learner to take a short language, literacy, numeracy and digital literacy review before their
 * enrolment is confirmed. The questions are one bank shared by every such course; each attempt
 * is kept; the outcome and the advice shown are kept with the enrolment, which holds its seat
 * meanwhile ("awaiting" without a review, "referred" until staff decide on "refer to staff").
 */

/** A question as the learner sees it: no right answer. */
export interface ReviewQuestionView {
  id: string;
  group: ReviewGroupKey;
  kind: "choice" | "numeric";
  prompt: string;
  context: string | null;
  choices: string[];
}

/** A question as administrators manage it. */
export interface ReviewQuestionAdmin extends ReviewQuestionView {
  answer: string;
  tolerance: string | null;
  position: number;
  is_active: boolean;
}

export interface ReviewAttemptView {
  id: string;
  course_id: string;
  outcome: ReviewOutcomeKey;
  advice: string;
  support: ReviewGroupKey[];
  scores: Partial<Record<ReviewGroupKey, GroupScore>>;
  created_at: string;
  /** when the learner may take the review again */
  retake_from: string;
}

export const answerField = (questionId: string) => `${ANSWER_FIELD_PREFIX}${questionId}`;

const parseJson = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

type QuestionRow = Pick<Selectable<ReviewQuestionsTable>, (typeof questionColumns)[number]>;

function toAdmin(row: QuestionRow): ReviewQuestionAdmin {
  return {
    id: row.id,
    group: row.group_key,
    kind: row.kind,
    prompt: row.prompt,
    context: row.context,
    choices: parseJson<string[]>(row.choices, []),
    answer: row.answer,
    tolerance: row.tolerance,
    position: Number(row.position),
    is_active: Number(row.is_active) === 1,
  };
}

const questionColumns = ["id", "group_key", "kind", "prompt", "context", "choices", "answer", "tolerance", "position", "is_active"] as const;

async function activeQuestions(db: DB): Promise<ReviewQuestionAdmin[]> {
  const rows = await db.selectFrom("review_questions").select(questionColumns).where("is_active", "=", 1).orderBy("position").orderBy("id").execute();
  return rows.map(toAdmin);
}

/** Every question of the bank, active first, in the order the review asks them. */
export async function listReviewQuestions(db: DB): Promise<ReviewQuestionAdmin[]> {
  const rows = await db.selectFrom("review_questions").select(questionColumns).orderBy("is_active", "desc").orderBy("position").orderBy("id").execute();
  return rows.map(toAdmin);
}

export async function listReviewGroups(db: DB): Promise<GroupRule[]> {
  const rows = await db.selectFrom("review_groups").select(["group_key", "suitable_from", "support_from", "support_advice", "refer_advice"]).execute();
  return rows.map((r) => ({ ...r, suitable_from: Number(r.suitable_from), support_from: Number(r.support_from) }));
}

const scored = (q: ReviewQuestionAdmin): ScoredQuestion => ({
  id: q.id,
  group_key: q.group,
  kind: q.kind,
  choices: q.choices,
  answer: q.answer,
  tolerance: q.tolerance,
});
const learnerView = (q: ReviewQuestionAdmin): ReviewQuestionView => ({
  id: q.id,
  group: q.group,
  kind: q.kind,
  prompt: q.prompt,
  context: q.context,
  choices: q.choices,
});

async function reviewCourse(db: DB, courseId: string) {
  const course = await db
    .selectFrom("courses")
    .select(["id", "name", "unit_code", "review_required", "review_retake_days"])
    .where("id", "=", courseId)
    .where("is_active", "=", 1)
    .executeTakeFirst();
  if (!course) throw notFound("Course");
  if (Number(course.review_required) !== 1) throw new DomainError(409, REVIEW_NOT_REQUIRED);
  return { ...course, review_retake_days: Number(course.review_retake_days) };
}

/** Who takes a review: a signed-in learner, or a visitor known by the token in their browser. */
export interface ReviewTaker {
  userId: string | null;
  claimToken: string | null;
}

const claimHash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

type AttemptRow = Pick<Selectable<ReviewAttemptsTable>, "id" | "course_id" | "outcome" | "advice" | "support" | "scores" | "created_at">;

function toAttempt(row: AttemptRow, retakeDays: number): ReviewAttemptView {
  return {
    id: row.id,
    course_id: row.course_id,
    outcome: row.outcome,
    advice: row.advice,
    support: parseJson<ReviewGroupKey[]>(row.support, []),
    scores: parseJson(row.scores, {}),
    created_at: row.created_at,
    retake_from: new Date(new Date(row.created_at).getTime() + retakeDays * 86_400_000).toISOString(),
  };
}

/** The taker's latest attempt on a course: theirs, or (for a visitor, or a learner who took it before signing up) the browser's unclaimed one. */
async function latestAttemptRow(db: DB, courseId: string, taker: ReviewTaker): Promise<AttemptRow | undefined> {
  const attemptColumns = ["id", "course_id", "outcome", "advice", "support", "scores", "created_at"] as const;
  const byUser = taker.userId
    ? await db
        .selectFrom("review_attempts")
        .select(attemptColumns)
        .where("course_id", "=", courseId)
        .where("user_id", "=", taker.userId)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .executeTakeFirst()
    : undefined;
  if (byUser || !taker.claimToken) return byUser;
  return db
    .selectFrom("review_attempts")
    .select(attemptColumns)
    .where("course_id", "=", courseId)
    .where("claim_hash", "=", claimHash(taker.claimToken))
    .where("user_id", "is", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** What the review page shows: the course, the questions (without answers) and the taker's latest outcome. */
export async function reviewPage(db: DB, courseId: string, taker: ReviewTaker) {
  const course = await reviewCourse(db, courseId);
  const [questions, latest] = await Promise.all([activeQuestions(db), latestAttemptRow(db, courseId, taker)]);
  return {
    course: { id: course.id, name: course.name, unit_code: course.unit_code, retake_days: course.review_retake_days },
    questions: questions.map(learnerView),
    latest: latest ? toAttempt(latest, course.review_retake_days) : null,
  };
}

/** Whether a course asks for the review, and the taker's latest outcome on it (the enrolment page's box). */
export async function reviewBeforeEnrollment(db: DB, courseId: string, taker: ReviewTaker): Promise<{ required: boolean; latest: ReviewAttemptView | null }> {
  const course = await db.selectFrom("courses").select(["review_required", "review_retake_days"]).where("id", "=", courseId).executeTakeFirst();
  if (!course || Number(course.review_required) !== 1) return { required: false, latest: null };
  const latest = await latestAttemptRow(db, courseId, taker);
  return { required: true, latest: latest ? toAttempt(latest, Number(course.review_retake_days)) : null };
}

export const retakeWaitMessage = (from: string) => `You can take the review again from ${formatDate(from)}.`;

/**
 * A learner's (or visitor's) attempt: checked against the questions asked (an empty review, a
 * missing or malformed answer, or a course that needs no review is refused and nothing is
 * stored), marked, and kept. A retake before the course's wait is over is refused. When the
 * learner already holds an enrolment in the course, its kept outcome and advice become this
 * attempt's (unless staff overrode them), and a held enrolment is confirmed, or stays held for
 * staff on "refer to staff". One transaction.
 */
export async function takeReview(
  db: DB,
  input: { courseId: string; taker: ReviewTaker; answers: Record<string, string>; now?: Date },
): Promise<{ attempt: ReviewAttemptView; enrollment: { id: string; review_status: EnrollmentReviewStatus } | null }> {
  const nowDate = input.now ?? new Date();
  const now = nowDate.toISOString();
  if (!input.taker.userId && !input.taker.claimToken) throw new DomainError(401, "Sign in to take the review");
  return writeTransaction(db, async (trx) => {
    const course = await reviewCourse(trx, input.courseId);
    const questions = await activeQuestions(trx);
    if (questions.length === 0) throw new DomainError(409, REVIEW_NO_QUESTIONS);
    const check = checkAnswers(questions.map(scored), input.answers, answerField);
    if (!check.ok) throw invalid(check.message, check.fieldErrors);
    const previous = await latestAttemptRow(trx, course.id, input.taker);
    if (previous) {
      const from = toAttempt(previous, course.review_retake_days).retake_from;
      if (from > now) throw new DomainError(409, retakeWaitMessage(from));
    }
    const marked = markReview(questions.map(scored), await listReviewGroups(trx), input.answers);
    const id = crypto.randomUUID();
    const row = {
      id,
      course_id: course.id,
      user_id: input.taker.userId,
      claim_hash: input.taker.userId ? null : claimHash(input.taker.claimToken!),
      answers: JSON.stringify(marked.answers),
      scores: JSON.stringify(marked.scores),
      outcome: marked.outcome,
      advice: marked.advice,
      support: JSON.stringify(marked.support),
      created_at: now,
    };
    await trx.insertInto("review_attempts").values(row).execute();
    let enrollment: { id: string; review_status: EnrollmentReviewStatus } | null = null;
    if (input.taker.userId) {
      const held = await trx
        .selectFrom("enrollments")
        .select(["id", "review_status", "review_overridden_at"])
        .where("student_id", "=", input.taker.userId)
        .where("course_id", "=", course.id)
        .executeTakeFirst();
      if (held?.review_status) {
        const status = held.review_overridden_at ? held.review_status : statusAfter(held.review_status, marked.outcome);
        if (!held.review_overridden_at) {
          await changeEnrollments(trx, { set: keptOutcome(id, marked, status, now), where: (u) => u.where("id", "=", held.id), now });
          await recordEvent(trx, {
            actorId: input.taker.userId,
            subjectUserId: input.taker.userId,
            type: "enrollment.reviewed",
            entityType: "enrollment",
            entityId: held.id,
            message: `${course.name}: pre-enrolment review taken`,
            now,
          });
        }
        enrollment = { id: held.id, review_status: status };
      }
    }
    return { attempt: toAttempt(row, course.review_retake_days), enrollment };
  });
}

/** A held enrolment is confirmed by an outcome other than "refer to staff"; a confirmed one stays confirmed. */
function statusAfter(current: EnrollmentReviewStatus, outcome: ReviewOutcomeKey): EnrollmentReviewStatus {
  if (current === "confirmed") return "confirmed";
  return outcome === "refer" ? "referred" : "confirmed";
}

function keptOutcome(
  attemptId: string,
  marked: { outcome: ReviewOutcomeKey; advice: string; support: ReviewGroupKey[] },
  status: EnrollmentReviewStatus,
  now: string,
) {
  return {
    review_status: status,
    review_attempt_id: attemptId,
    review_outcome: marked.outcome,
    review_advice: marked.advice,
    review_support: JSON.stringify(marked.support),
    updated_at: now,
  };
}

/**
 * The review columns of a new enrolment in `courseId`, inside createEnrollment's transaction:
 * none for a course without the review; else the learner's latest attempt (a visitor's attempt
 * in this browser becomes theirs here) decides whether it is confirmed or held for staff, and
 * without one the enrolment holds its seat, awaiting the review.
 */
export async function reviewForNewEnrollment(trx: WriteTransaction, input: { courseId: string; studentId: string; claimToken?: string | null; now: string }) {
  const course = await trx.selectFrom("courses").select("review_required").where("id", "=", input.courseId).executeTakeFirst();
  if (!course || Number(course.review_required) !== 1) return {};
  const latest = await latestAttemptRow(trx, input.courseId, { userId: input.studentId, claimToken: input.claimToken ?? null });
  if (!latest) return { review_status: "awaiting" as const };
  // a write (a visitor's attempt becomes this learner's), in a scoped enrolment's turn
  await takeWritesTurn(trx);
  await trx
    .updateTable("review_attempts")
    .set({ user_id: input.studentId, claim_hash: null })
    .where("id", "=", latest.id)
    .where("user_id", "is", null)
    .execute();
  const support = parseJson<ReviewGroupKey[]>(latest.support, []);
  const { updated_at: _, ...columns } = keptOutcome(
    latest.id,
    { outcome: latest.outcome, advice: latest.advice, support },
    statusAfter("awaiting", latest.outcome),
    input.now,
  );
  return columns;
}

/** An enrolment's review as staff and the learner read it (personal-data.server.ts decides who reads which part). */
export interface EnrollmentReview {
  enrollment_id: string;
  student_id: string;
  course_id: string;
  status: EnrollmentReviewStatus;
  outcome: ReviewOutcomeKey | null;
  support: ReviewGroupKey[];
  advice: string | null;
  override: { reason: string; by: string | null; at: string } | null;
  attempts: (ReviewAttemptView & { answers: { question_id: string; group: ReviewGroupKey; answer: string; correct: boolean }[] })[];
}

/** An enrolment's review, or null when its course asked for none; an unknown id is null too (the caller answers 404). */
export async function getEnrollmentReview(db: DB, enrollmentId: string): Promise<EnrollmentReview | null> {
  const row = await db
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([
      "enrollments.id",
      "enrollments.student_id",
      "enrollments.course_id",
      "enrollments.review_status",
      "enrollments.review_outcome",
      "enrollments.review_support",
      "enrollments.review_advice",
      "enrollments.review_override_reason",
      "enrollments.review_overridden_by",
      "enrollments.review_overridden_at",
      "courses.review_retake_days",
    ])
    .where("enrollments.id", "=", enrollmentId)
    .executeTakeFirst();
  if (!row?.review_status) return null;
  const attempts = await db
    .selectFrom("review_attempts")
    .select(["id", "course_id", "outcome", "advice", "support", "scores", "created_at", "answers"])
    .where("user_id", "=", row.student_id)
    .where("course_id", "=", row.course_id)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return {
    enrollment_id: row.id,
    student_id: row.student_id,
    course_id: row.course_id,
    status: row.review_status,
    outcome: row.review_outcome,
    support: parseJson<ReviewGroupKey[]>(row.review_support, []),
    advice: row.review_advice,
    override: row.review_overridden_at ? { reason: row.review_override_reason ?? "", by: row.review_overridden_by, at: row.review_overridden_at } : null,
    attempts: attempts.map((a) => ({ ...toAttempt(a, Number(row.review_retake_days)), answers: parseJson(a.answers, []) })),
  };
}

/**
 * Staff change an enrolment's review outcome, with a reason: in the audit trail (the outcome
 * before and after) and as an event about the learner. The enrolment is confirmed by any
 * outcome but "refer to staff", which holds it. The advice the learner was shown stays kept.
 */
export async function overrideReview(db: DB, input: { enrollmentId: string; change: ReviewOverride; actor: ActorRef; now?: Date }): Promise<EnrollmentReview> {
  const now = (input.now ?? new Date()).toISOString();
  const actor = actorOf(input.actor);
  await writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom("enrollments")
      .innerJoin("courses", "courses.id", "enrollments.course_id")
      .select(["enrollments.id", "enrollments.student_id", "enrollments.review_status", "enrollments.review_outcome", "enrollments.status", "courses.name"])
      .where("enrollments.id", "=", input.enrollmentId)
      .executeTakeFirst();
    if (!current) throw notFound("Enrolment");
    if (!current.review_status) throw new DomainError(409, REVIEW_NOT_ON_ENROLLMENT);
    const status: EnrollmentReviewStatus = input.change.outcome === "refer" ? "referred" : "confirmed";
    await changeEnrollments(trx, {
      set: {
        review_outcome: input.change.outcome,
        review_status: status,
        review_override_reason: input.change.reason,
        review_overridden_by: actor.id,
        review_overridden_at: now,
        updated_at: now,
      },
      where: (u) => u.where("id", "=", current.id),
      now,
    });
    await recordAudit(trx, {
      action: "review.overridden",
      actor,
      subject: { type: "enrollment", id: current.id, userId: current.student_id },
      fields: ["review_outcome"],
      detail: `${current.review_outcome ?? "none"} -> ${input.change.outcome}`,
      now,
    });
    await recordEvent(trx, {
      actorId: actor.id,
      subjectUserId: current.student_id,
      type: "enrollment.review_overridden",
      entityType: "enrollment",
      entityId: current.id,
      message: `${current.name}: pre-enrolment review outcome set by staff`,
      now,
    });
  });
  return (await getEnrollmentReview(db, input.enrollmentId))!;
}

/** Adds a question to the shared bank, after the others; audited. The form's answer for a choice question is the choice's number (1 for the first). */
export async function addReviewQuestion(db: DB, input: ReviewQuestionInput, actorRef: ActorRef, now = new Date()): Promise<ReviewQuestionAdmin> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  return writeTransaction(db, async (trx) => {
    const last = await trx
      .selectFrom("review_questions")
      .select((eb) => eb.fn.max("position").as("p"))
      .executeTakeFirst();
    const choice = input.kind === "choice";
    await trx
      .insertInto("review_questions")
      .values({
        id,
        group_key: input.group,
        kind: input.kind,
        prompt: input.prompt,
        context: input.context,
        choices: choice ? JSON.stringify(input.choices ?? []) : null,
        answer: choice ? String(Number(input.answer) - 1) : String(Number(input.answer)),
        tolerance: choice ? null : (input.tolerance ?? "0"),
        position: Number(last?.p ?? 0) + 10,
        is_active: 1,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, {
      action: "review.question_added",
      actor: actorOf(actorRef),
      subject: { type: "review_question", id },
      detail: input.group,
      now: at,
    });
    const row = await trx.selectFrom("review_questions").select(questionColumns).where("id", "=", id).executeTakeFirstOrThrow();
    return toAdmin(row);
  });
}

/** Retires a question: the review stops asking it; attempts that answered it keep it. Audited; unknown id 404. */
export async function retireReviewQuestion(db: DB, id: string, actorRef: ActorRef, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const found = await trx.selectFrom("review_questions").select(["id", "is_active"]).where("id", "=", id).executeTakeFirst();
    if (!found) throw notFound("Question");
    if (Number(found.is_active) !== 1) return;
    await trx.updateTable("review_questions").set({ is_active: 0, updated_at: at }).where("id", "=", id).execute();
    await recordAudit(trx, { action: "review.question_retired", actor: actorOf(actorRef), subject: { type: "review_question", id }, now: at });
  });
}

/**
 * Changes a question the only way the bank allows: the old one is retired (attempts that answered
 * it keep its meaning) and the new one takes its place in the order, in one transaction, both
 * audited. An unknown id is not found; a question already retired is a conflict.
 */
export async function replaceReviewQuestion(
  db: DB,
  id: string,
  input: ReviewQuestionInput,
  actorRef: ActorRef,
  now = new Date(),
): Promise<ReviewQuestionAdmin> {
  return writeTransaction(db, async (trx) => {
    const old = await trx.selectFrom("review_questions").select(["is_active", "position"]).where("id", "=", id).executeTakeFirst();
    if (!old) throw notFound("Question");
    if (Number(old.is_active) !== 1) throw new DomainError(409, REVIEW_RETIRED_UNCHANGED);
    await retireReviewQuestion(trx, id, actorRef, now);
    const added = await addReviewQuestion(trx, input, actorRef, now);
    await trx.updateTable("review_questions").set({ position: old.position }).where("id", "=", added.id).execute();
    return { ...added, position: Number(old.position) };
  });
}

/**
 * The background job: an enrolment whose seat has been held for its review (awaiting) longer
 * than REVIEW_HOLD_DAYS, the review never taken, is withdrawn, and its class seat goes to the
 * class's waitlist. An enrolment held for staff (referred) waits for them. Each enrolment is its
 * own transaction whose update is conditional on the hold still standing, so two workers
 * running it release a hold once, and a review taken meanwhile wins. Returns how many were released.
 */
export async function releaseStaleReviewHolds(db: DB, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - REVIEW_HOLD_DAYS * 86_400_000).toISOString();
  const at = now.toISOString();
  const due = await db
    .selectFrom("enrollments")
    .select("id")
    .where("review_status", "=", "awaiting")
    .where("status", "in", ["enrolled", "in_progress"])
    .where("enrollment_date", "<", before)
    .orderBy("enrollment_date")
    .limit(100)
    .execute();
  let released = 0;
  for (const { id } of due) {
    released += await writeTransaction(db, async (trx) => {
      const [held] = await changeEnrollments(trx, {
        set: { status: "withdrawn", updated_at: at },
        where: (u) => u.where("id", "=", id).where("review_status", "=", "awaiting").where("status", "in", ["enrolled", "in_progress"]),
        now: at,
      });
      if (!held) return 0;
      if (held.class_id) await offerFreeSeats(trx, held.class_id, now);
      await recordAudit(trx, {
        action: "review.hold_released",
        actor: { id: null },
        subject: { type: "enrollment", id, userId: held.student_id },
        detail: `${REVIEW_HOLD_DAYS} days without a review`,
        now: at,
      });
      await recordEvent(trx, {
        actorId: null,
        subjectUserId: held.student_id,
        type: "enrollment.status",
        entityType: "enrollment",
        entityId: id,
        message: REVIEW_HOLD_RELEASED,
        now: at,
      });
      return 1;
    });
  }
  return released;
}

/** Saves one group's thresholds and advice; audited. */
export async function saveReviewGroup(db: DB, input: ReviewGroupInput, actorRef: ActorRef, now = new Date()): Promise<void> {
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const values: Omit<Insertable<ReviewGroupsTable>, "group_key"> = {
      suitable_from: input.suitable_from,
      support_from: input.support_from,
      support_advice: input.support_advice,
      refer_advice: input.refer_advice,
      updated_at: at,
    };
    const updated = await trx.updateTable("review_groups").set(values).where("group_key", "=", input.group).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      await trx
        .insertInto("review_groups")
        .values({ group_key: input.group, ...values })
        .execute();
    await recordAudit(trx, {
      action: "review.thresholds_changed",
      actor: actorOf(actorRef),
      subject: { type: "review_group", id: input.group },
      detail: `${input.suitable_from}/${input.support_from}`,
      now: at,
    });
  });
}

/** A class's learners with where their review stands (the roster's review list): the class's trainer or an admin; null for anyone else or an unknown class. */
export async function classReviews(db: DB, classId: string, user: { id: string; role: string }) {
  let cls = db.selectFrom("classes").select("id").where("id", "=", classId);
  if (user.role !== "admin") cls = cls.where("trainer_id", "=", user.id);
  if (!(await cls.executeTakeFirst())) return null;
  const rows = await db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .select([
      "enrollments.id as enrollment_id",
      "enrollments.student_id",
      "enrollments.course_id",
      "users.full_name",
      "enrollments.review_status",
      "enrollments.review_outcome",
      "enrollments.review_support",
    ])
    .where("enrollments.class_id", "=", classId)
    .where("enrollments.status", "<>", "withdrawn")
    .where("enrollments.review_status", "is not", null)
    .orderBy("users.full_name")
    .execute();
  return rows.map((r) => ({
    enrollment_id: r.enrollment_id,
    student_id: r.student_id,
    full_name: r.full_name,
    status: r.review_status!,
    outcome: r.review_outcome,
    support: parseJson<ReviewGroupKey[]>(r.review_support, []),
  }));
}
