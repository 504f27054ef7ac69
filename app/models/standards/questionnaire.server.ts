import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { QuestionKind, QuestionnaireAudience } from "#db/schema-improvement";
import type { QuestionCreateInput, QuestionUpdateInput } from "~/schemas/questionnaire";
import {
  DEFAULT_LOW_AVERAGE,
  LOW_RATING,
  QUESTIONNAIRE_ALREADY_ANSWERED,
  QUESTIONNAIRE_AUDIENCE_LABELS,
  QUESTIONNAIRE_EXPIRED,
  QUESTIONNAIRE_LINK_DAYS,
  QUESTIONNAIRE_UNKNOWN_LINK,
  RATING_MAX,
  RATING_MIN,
  TOO_MANY_QUESTIONNAIRES,
} from "~/schemas/improvement-text";
import { RATE_LIMITS, requireRateLimit } from "~/security/rate-limits.server";
import { DomainError, invalid, notFound } from "~/utils/errors";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { queueMail } from "../outbox.server";

/**
 * The learner and employer questionnaires: questions admins set per audience, invitations sent
 * through the outbox (one per cause, with a link that works signed out and answers once), and
 * the answers, kept without anything that names who gave them. An invitation keeps only whether
 * it was used; a response keeps its audience and the day it came in; the reports read totals.
 * docs/decisions/031-improvement-register-and-questionnaires.md gives the reasons.
 */

export interface Question {
  id: string;
  audience: QuestionnaireAudience;
  kind: QuestionKind;
  prompt: string;
  position: number;
  retired: boolean;
}

const QUESTION_COLUMNS = ["id", "audience", "kind", "prompt", "position", "retired_at"] as const;
const questionView = (r: {
  id: string;
  audience: QuestionnaireAudience;
  kind: QuestionKind;
  prompt: string;
  position: number;
  retired_at: string | null;
}): Question => ({
  id: r.id,
  audience: r.audience,
  kind: r.kind,
  prompt: r.prompt,
  position: Number(r.position),
  retired: r.retired_at !== null,
});

/** An audience's questions in order; retired ones only when asked for (the admin's list, the reports). */
export async function listQuestions(db: DB, audience: QuestionnaireAudience, options: { includeRetired?: boolean } = {}): Promise<Question[]> {
  let query = db.selectFrom("questionnaire_questions").select(QUESTION_COLUMNS).where("audience", "=", audience);
  if (!options.includeRetired) query = query.where("retired_at", "is", null);
  const rows = await query.orderBy("position").orderBy("id").execute();
  return rows.map(questionView);
}

export async function getQuestion(db: DB, id: string): Promise<Question | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const row = await db.selectFrom("questionnaire_questions").select(QUESTION_COLUMNS).where("id", "=", id.toLowerCase()).executeTakeFirst();
  return row ? questionView(row) : null;
}

/** How the improvement register names a question it was raised from. */
export async function questionSourceLabel(db: DB, id: string): Promise<string | null> {
  const question = await getQuestion(db, id);
  return question ? `${QUESTIONNAIRE_AUDIENCE_LABELS[question.audience]} questionnaire: \u201c${question.prompt}\u201d` : null;
}

export async function addQuestion(db: DB, input: QuestionCreateInput, actor: SignedInActorRef, now = new Date()): Promise<Question> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const who = signedInActor(actor);
  return writeTransaction(db, async (trx) => {
    const last = await trx
      .selectFrom("questionnaire_questions")
      .select((eb) => eb.fn.max("position").as("p"))
      .where("audience", "=", input.audience)
      .executeTakeFirst();
    await trx
      .insertInto("questionnaire_questions")
      .values({ id, audience: input.audience, kind: input.kind, prompt: input.prompt, position: Number(last?.p ?? 0) + 1, created_at: at, updated_at: at })
      .execute();
    await recordAudit(trx, {
      action: "questionnaire.question_added",
      actor: who,
      subject: { type: "questionnaire_question", id },
      detail: `${input.audience} ${input.kind}`,
      now: at,
    });
    return (await getQuestion(trx, id))!;
  });
}

/** A question's wording, or its retirement (a retired question is asked no more; its answers stay). Its kind never changes: its answers would mean something else. */
export async function updateQuestion(db: DB, id: string, input: QuestionUpdateInput, actor: SignedInActorRef, now = new Date()): Promise<Question> {
  const at = now.toISOString();
  const who = signedInActor(actor);
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom("questionnaire_questions").select(["prompt", "retired_at"]).where("id", "=", id).executeTakeFirst();
    if (!current) throw notFound("Question");
    const fields: string[] = [];
    if (current.prompt !== input.prompt) fields.push("prompt");
    if ((current.retired_at !== null) !== input.retired) fields.push("retired");
    if (fields.length > 0) {
      await trx
        .updateTable("questionnaire_questions")
        .set({ prompt: input.prompt, retired_at: input.retired ? (current.retired_at ?? at) : null, updated_at: at })
        .where("id", "=", id)
        .execute();
      await recordAudit(trx, { action: "questionnaire.question_changed", actor: who, subject: { type: "questionnaire_question", id }, fields, now: at });
    }
    return (await getQuestion(trx, id))!;
  });
}

/** The average under which a question is flagged, per audience (DEFAULT_LOW_AVERAGE until an admin sets it). */
export async function lowAverageThreshold(db: DB, audience: QuestionnaireAudience): Promise<number> {
  const row = await db.selectFrom("questionnaire_settings").select("low_average_tenths").where("audience", "=", audience).executeTakeFirst();
  return row ? Number(row.low_average_tenths) / 10 : DEFAULT_LOW_AVERAGE;
}

export async function setLowAverageThreshold(
  db: DB,
  input: { audience: QuestionnaireAudience; low_average: number },
  actor: SignedInActorRef,
  now = new Date(),
): Promise<number> {
  const at = now.toISOString();
  const tenths = Math.round(input.low_average * 10);
  return writeTransaction(db, async (trx) => {
    await trx
      .insertInto("questionnaire_settings")
      .values({ audience: input.audience, low_average_tenths: tenths, updated_at: at })
      .onConflict((oc) => oc.column("audience").doUpdateSet({ low_average_tenths: tenths, updated_at: at }))
      .execute();
    await recordAudit(trx, {
      action: "questionnaire.threshold_changed",
      actor: signedInActor(actor),
      subject: { type: "questionnaire_settings", id: input.audience },
      detail: (tenths / 10).toFixed(1),
      now: at,
    });
    return tenths / 10;
  });
}

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** The path of an invitation's questionnaire; the mail puts it under the portal's address. */
export const questionnairePath = (token: string) => `/questionnaire/${token}`;

/**
 * Writes one invitation for a cause and queues its mail, in the caller's transaction: a cause
 * invited before (a job or a request that repeats) writes and queues nothing. Nothing is sent
 * while the audience has no question to ask. Returns the link's token, or null.
 */
async function invite(
  trx: WriteTransaction,
  input: { audience: QuestionnaireAudience; causeKey: string; recipientId: string; subject: string; now: Date },
): Promise<string | null> {
  const asked = await trx
    .selectFrom("questionnaire_questions")
    .select("id")
    .where("audience", "=", input.audience)
    .where("retired_at", "is", null)
    .limit(1)
    .executeTakeFirst();
  if (!asked) return null;
  const token = crypto.randomBytes(24).toString("base64url");
  const at = input.now.toISOString();
  const written = await trx
    .insertInto("questionnaire_invitations")
    .values({
      id: crypto.randomUUID(),
      audience: input.audience,
      cause_key: input.causeKey,
      token_hash: hashToken(token),
      recipient_id: input.recipientId,
      used: 0,
      created_at: at,
    })
    .onConflict((oc) => oc.column("cause_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!written) return null;
  await queueMail(trx, {
    key: `questionnaire-invitation:${input.causeKey}`,
    template: "questionnaire-invitation",
    recipientId: input.recipientId,
    data: { audience: input.audience, subject: input.subject, path: questionnairePath(token) },
    now: at,
  });
  return token;
}

/** A learner who completed an enrolment is invited to the learner questionnaire, once per enrolment. */
export function inviteLearnerAfterCompletion(
  trx: WriteTransaction,
  input: { enrollmentId: string; studentId: string; course: string; now?: Date },
): Promise<string | null> {
  return invite(trx, {
    audience: "learner",
    causeKey: `completion:${input.enrollmentId}`,
    recipientId: input.studentId,
    subject: input.course,
    now: input.now ?? new Date(),
  });
}

export const EMPLOYER_WITHOUT_ACCOUNT = "This address has no active portal account to invite";

/**
 * An employer's contact is invited to the employer questionnaire, once per cause (a booking
 * finished, say: `causeKey`). The mail goes to the portal account with this address, as every
 * outbox message goes to an account; an address without one is a 422 and nothing is written.
 */
export async function inviteEmployerToQuestionnaire(
  trx: WriteTransaction,
  input: { email: string; causeKey: string; subject?: string; now?: Date },
): Promise<string | null> {
  const user = await trx.selectFrom("users").select("id").where("email", "=", input.email.trim().toLowerCase()).where("is_active", "=", 1).executeTakeFirst();
  if (!user) throw invalid(EMPLOYER_WITHOUT_ACCOUNT, { email: EMPLOYER_WITHOUT_ACCOUNT });
  return invite(trx, {
    audience: "employer",
    causeKey: `employer:${input.causeKey}`,
    recipientId: user.id,
    subject: input.subject ?? "your training with us",
    now: input.now ?? new Date(),
  });
}

/**
 * The questionnaire a link opens: its audience and questions, that it was answered already, or
 * that it expired (QUESTIONNAIRE_LINK_DAYS after its invitation was written); null for an unknown link.
 */
export async function questionnaireForToken(
  db: DB,
  token: string,
  now = new Date(),
): Promise<{ audience: QuestionnaireAudience; used: boolean; expired: boolean; questions: Question[] } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const invitation = await db
    .selectFrom("questionnaire_invitations")
    .select(["audience", "used", "created_at"])
    .where("token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!invitation) return null;
  const expired = new Date(invitation.created_at).getTime() + QUESTIONNAIRE_LINK_DAYS * 86_400_000 <= now.getTime();
  return { audience: invitation.audience, used: Number(invitation.used) === 1, expired, questions: await listQuestions(db, invitation.audience) };
}

/** The answers as submitted: `q_<question id>` to a rating ("1".."5") or text. */
export type SubmittedAnswers = Record<string, unknown>;

export const RATING_REQUIRED = `Choose a rating from ${RATING_MIN} to ${RATING_MAX}`;

function readAnswers(questions: Question[], raw: SubmittedAnswers): { rating: number | null; text: string | null; question: Question }[] {
  const errors: Record<string, string> = {};
  const answers = questions.map((question) => {
    const value = raw[`q_${question.id}`];
    const text = typeof value === "string" ? value.replace(/\r\n?/g, "\n").normalize("NFC").trim() : typeof value === "number" ? String(value) : "";
    if (question.kind === "rating") {
      const rating = /^[1-5]$/.test(text) ? Number(text) : null;
      if (rating === null) errors[`q_${question.id}`] = RATING_REQUIRED;
      return { question, rating, text: null };
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text)) errors[`q_${question.id}`] = "Your answer must not contain control characters";
    else if (text.length > 2000) errors[`q_${question.id}`] = "Your answer must be at most 2000 characters";
    return { question, rating: null, text: text || null };
  });
  const first = Object.values(errors)[0];
  if (first) throw invalid(first, errors);
  return answers;
}

/**
 * Records the answers of one invitation, once: the invitation is marked used and the response
 * written in one transaction, and a second submission (a double click, a shared link) is a 409
 * with nothing stored. The response carries no link to the invitation or the person. An
 * expired link is a 410. A signed-out client (`client`) sends at most
 * RATE_LIMITS.questionnaireClient answers an hour, counted once the answers are readable.
 */
export async function submitQuestionnaire(db: DB, token: string, raw: SubmittedAnswers, options: { now?: Date; client?: string } = {}): Promise<void> {
  const now = options.now ?? new Date();
  const found = await questionnaireForToken(db, token, now);
  if (!found) throw new DomainError(404, QUESTIONNAIRE_UNKNOWN_LINK);
  if (found.used) throw new DomainError(409, QUESTIONNAIRE_ALREADY_ANSWERED);
  if (found.expired) throw new DomainError(410, QUESTIONNAIRE_EXPIRED);
  const answers = readAnswers(found.questions, raw);
  if (options.client !== undefined) await requireRateLimit(db, [RATE_LIMITS.questionnaireClient], { client: options.client }, TOO_MANY_QUESTIONNAIRES, now);
  await writeTransaction(db, async (trx) => {
    const marked = await trx
      .updateTable("questionnaire_invitations")
      .set({ used: 1 })
      .where("token_hash", "=", hashToken(token))
      .where("used", "=", 0)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) throw new DomainError(409, QUESTIONNAIRE_ALREADY_ANSWERED);
    const responseId = crypto.randomUUID();
    await trx
      .insertInto("questionnaire_responses")
      .values({ id: responseId, audience: found.audience, submitted_on: organisationToday(now) })
      .execute();
    const kept = answers.filter((a) => a.rating !== null || a.text !== null);
    if (kept.length > 0) {
      await trx
        .insertInto("questionnaire_answers")
        .values(kept.map((a) => ({ response_id: responseId, question_id: a.question.id, rating: a.rating, text: a.text })))
        .execute();
    }
  });
}

export interface QuestionSummary {
  id: string;
  prompt: string;
  kind: QuestionKind;
  retired: boolean;
  /** how many responses answered it */
  count: number;
  /** the average rating to two decimals, null without ratings (and for text) */
  average: number | null;
  /** how many gave each rating, 1 to 5 */
  ratings: [number, number, number, number, number];
  /** ratings at or below LOW_RATING */
  low: number;
  /** average under the threshold, or any low rating */
  flagged: boolean;
  /** text answers, newest day first (at most 50); never with a name or a date */
  texts: string[];
}

export interface QuestionnaireSummary {
  audience: QuestionnaireAudience;
  from: string;
  to: string;
  threshold: number;
  responses: number;
  questions: QuestionSummary[];
}

/**
 * The report of one audience's answers over a period (organisation days, both inclusive): per
 * question the count, the average, each rating's count and the low ones; text answers as
 * written. Nothing in it names a person: the rows it reads hold none.
 */
export async function questionnaireSummary(
  db: DB,
  input: { audience: QuestionnaireAudience; from?: string; to?: string },
  today = organisationToday(),
): Promise<QuestionnaireSummary> {
  const from = input.from ?? `${today.slice(0, 4)}-01-01`;
  const to = input.to ?? today;
  const [threshold, questions, responses, ratings, texts] = await Promise.all([
    lowAverageThreshold(db, input.audience),
    listQuestions(db, input.audience, { includeRetired: true }),
    db
      .selectFrom("questionnaire_responses")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("audience", "=", input.audience)
      .where("submitted_on", ">=", from)
      .where("submitted_on", "<=", to)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("questionnaire_answers as a")
      .innerJoin("questionnaire_responses as r", "r.id", "a.response_id")
      .select(["a.question_id", "a.rating", (eb) => eb.fn.countAll<number>().as("n")])
      .where("r.audience", "=", input.audience)
      .where("r.submitted_on", ">=", from)
      .where("r.submitted_on", "<=", to)
      .where("a.rating", "is not", null)
      .groupBy(["a.question_id", "a.rating"])
      .execute(),
    db
      .selectFrom("questionnaire_answers as a")
      .innerJoin("questionnaire_responses as r", "r.id", "a.response_id")
      .select(["a.question_id", "a.text"])
      .where("r.audience", "=", input.audience)
      .where("r.submitted_on", ">=", from)
      .where("r.submitted_on", "<=", to)
      .where("a.text", "is not", null)
      .orderBy("r.submitted_on", "desc")
      .orderBy("a.text")
      .execute(),
  ]);
  const summaries = questions.map((q): QuestionSummary => {
    const counts: [number, number, number, number, number] = [0, 0, 0, 0, 0];
    for (const r of ratings) if (r.question_id === q.id && r.rating !== null) counts[Number(r.rating) - 1] += Number(r.n);
    const rated = counts.reduce((s, n) => s + n, 0);
    const sum = counts.reduce((s, n, i) => s + n * (i + 1), 0);
    const average = rated > 0 ? Math.round((sum / rated) * 100) / 100 : null;
    const low = counts.slice(0, LOW_RATING).reduce((s, n) => s + n, 0);
    const written = texts.filter((t) => t.question_id === q.id).map((t) => t.text!);
    return {
      id: q.id,
      prompt: q.prompt,
      kind: q.kind,
      retired: q.retired,
      count: q.kind === "rating" ? rated : written.length,
      average,
      ratings: counts,
      low,
      flagged: q.kind === "rating" && ((average !== null && average < threshold) || low > 0),
      texts: written.slice(0, 50),
    };
  });
  return { audience: input.audience, from, to, threshold, responses: Number(responses.n), questions: summaries.filter((s) => !s.retired || s.count > 0) };
}

/** The annual summary's columns: one row per question of the calendar year's aggregates. */
export const ANNUAL_SUMMARY_COLUMNS = [
  "year",
  "audience",
  "question",
  "kind",
  "responses_in_year",
  "answers",
  "average",
  "rating_1",
  "rating_2",
  "rating_3",
  "rating_4",
  "rating_5",
  "low_ratings",
  "below_threshold",
] as const;

/** The calendar year's figures (1 January to 31 December, organisation days) as the annual summary's rows. */
export async function annualSummaryRows(
  db: DB,
  input: { audience: QuestionnaireAudience; year: number },
): Promise<Array<Record<(typeof ANNUAL_SUMMARY_COLUMNS)[number], string | number | null>>> {
  const from = `${input.year}-01-01`;
  const to = addDays(`${input.year + 1}-01-01`, -1);
  const summary = await questionnaireSummary(db, { audience: input.audience, from, to }, to);
  return summary.questions.map((q) => ({
    year: input.year,
    audience: input.audience,
    question: q.prompt,
    kind: q.kind,
    responses_in_year: summary.responses,
    answers: q.count,
    average: q.average === null ? null : q.average.toFixed(2),
    rating_1: q.kind === "rating" ? q.ratings[0] : null,
    rating_2: q.kind === "rating" ? q.ratings[1] : null,
    rating_3: q.kind === "rating" ? q.ratings[2] : null,
    rating_4: q.kind === "rating" ? q.ratings[3] : null,
    rating_5: q.kind === "rating" ? q.ratings[4] : null,
    low_ratings: q.kind === "rating" ? q.low : null,
    below_threshold: q.kind === "rating" ? (q.average !== null && q.average < summary.threshold ? "yes" : "no") : null,
  }));
}
