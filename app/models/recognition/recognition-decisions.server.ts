import crypto from "node:crypto";
import type { DB, WriteTransaction } from "#db/connection";
import type { RecognitionOutcome, RecognitionStatus } from "#db/schema-recognition";
import { RECOGNITION_MESSAGES } from "~/schemas/recognition";
import { DomainError } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAudit } from "../audit.server";
import { credentialProblem, listActiveTrainers } from "../standards/trainer-credential.server";

/**
 * The history of a recognition application's decisions, and its reopening after an upheld
 * appeal (docs/decisions/037-recognition.md). The application's own columns hold the current
 * decision, which the AVETMISS export, the certificates and the register read; every decision
 * is also kept here, and one an appeal overturned says so, so reopening never loses a decision.
 */

export type DecidedStatus = Exclude<RecognitionStatus, "applied">;

/** Keeps a decision just recorded on the application; answers how many decisions it now has. */
export async function recordRecognitionDecision(
  trx: WriteTransaction,
  d: {
    applicationId: string;
    status: DecidedStatus;
    outcome: RecognitionOutcome | null;
    reasons: string;
    assessorId: string | null;
    decidedBy: string | null;
    decidedOn: string;
    decidedAt: string;
  },
): Promise<number> {
  await trx
    .insertInto("recognition_decisions")
    .values({
      id: crypto.randomUUID(),
      application_id: d.applicationId,
      status: d.status,
      outcome_code: d.outcome,
      reasons: d.reasons,
      assessor_id: d.assessorId,
      decided_by: d.decidedBy,
      decided_on: d.decidedOn,
      decided_at: d.decidedAt,
    })
    .execute();
  const row = await trx
    .selectFrom("recognition_decisions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("application_id", "=", d.applicationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The outbox key of an application's nth decision mail: the first keeps the key it always had. */
export function decisionMailKey(applicationId: string, n: number): string {
  return n <= 1 ? `recognition-decided:${applicationId}` : `recognition-decided:${applicationId}:${n}`;
}

/** Who assessed the application's earlier decisions (an RPL's assessors; none for a credit transfer). */
async function earlierAssessors(db: DB, applicationId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom("recognition_decisions")
    .select("assessor_id")
    .where("application_id", "=", applicationId)
    .where("overturned_at", "is not", null)
    .execute();
  return new Set(rows.map((r) => r.assessor_id).filter((id): id is string => Boolean(id)));
}

/** Trainers section 20's matrix credentials for the unit on the day. */
async function credentialedTrainers(db: DB, unitCode: string, today: string): Promise<{ id: string; full_name: string }[]> {
  const trainers = await listActiveTrainers(db);
  const problems = await Promise.all(trainers.map((t) => credentialProblem(db, t.id, unitCode, [today])));
  return trainers.filter((_, i) => problems[i] === null);
}

/**
 * Whom an admin may assign an RPL to: the trainers credentialed for the unit today, and for an
 * application an appeal reopened, not the assessor whose decision it overturned, unless nobody
 * else is credentialed (then the same assessor decides again: the matrix allows no other).
 */
export async function assessorChoicesFor(
  db: DB,
  r: { id: string; course: { unit_code: string } },
  now = new Date(),
): Promise<{ id: string; full_name: string }[]> {
  const credentialed = await credentialedTrainers(db, r.course.unit_code, organisationToday(now));
  const earlier = await earlierAssessors(db, r.id);
  const fresh = credentialed.filter((t) => !earlier.has(t.id));
  return fresh.length > 0 ? fresh : credentialed;
}

/** Refuses an assessor whose decision an appeal overturned while another credentialed assessor may decide. */
export async function assertFreshAssessor(db: DB, r: { id: string; course: { unit_code: string } }, assessorId: string, now = new Date()): Promise<void> {
  const choices = await assessorChoicesFor(db, r, now);
  if (choices.some((c) => c.id === assessorId)) return;
  const earlier = await earlierAssessors(db, r.id);
  if (earlier.has(assessorId))
    throw new DomainError(409, RECOGNITION_MESSAGES.earlierAssessor, { assessor_id: RECOGNITION_MESSAGES.earlierAssessor }, "assessor_id");
}

/**
 * An upheld (or partly upheld) appeal of a credit transfer or RPL decision reopens the
 * application for a new decision: the decision appealed stays in the history, marked overturned
 * by the appeal; the application goes back to `applied` without an outcome (so AVETMISS reports
 * the enrolment as the training it is until the new decision); an RPL goes to a different
 * credentialed assessor where the matrix has one (else its assessor decides again); a credit
 * transfer keeps its authentication and goes back to the office. Audited; the learner is told in
 * the appeal's outcome mail. A grant is not reopened (nothing the learner asked for was
 * refused), nor a licence unit (licensing rules win: no new decision could grant it).
 * Answers whether it reopened.
 */
export async function reopenRecognitionOnAppeal(
  trx: WriteTransaction,
  input: { applicationId: string; appeal: { id: string; reference: string }; actor: { id: string; client?: string | null }; now: Date },
): Promise<boolean> {
  const at = input.now.toISOString();
  const r = await trx
    .selectFrom("recognition_applications as r")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .select([
      "r.id",
      "r.kind",
      "r.status",
      "r.student_id",
      "r.assessor_id",
      "r.outcome_code",
      "r.reasons",
      "r.decided_by",
      "r.decided_on",
      "r.decided_at",
      "c.unit_code",
      "c.licence_class",
    ])
    .where("r.id", "=", input.applicationId)
    .executeTakeFirst();
  if (!r || (r.status !== "not_granted" && r.status !== "refused") || r.licence_class) return false;
  const latest = await trx
    .selectFrom("recognition_decisions")
    .select("id")
    .where("application_id", "=", r.id)
    .where("overturned_at", "is", null)
    .orderBy("decided_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  // a decision from before the history began is copied in first, so it is never lost
  const decisionId =
    latest?.id ??
    (await (async () => {
      await recordRecognitionDecision(trx, {
        applicationId: r.id,
        status: r.status as DecidedStatus,
        outcome: r.outcome_code,
        reasons: r.reasons ?? "",
        assessorId: r.assessor_id,
        decidedBy: r.decided_by,
        decidedOn: r.decided_on ?? organisationToday(input.now),
        decidedAt: r.decided_at ?? at,
      });
      return (
        await trx
          .selectFrom("recognition_decisions")
          .select("id")
          .where("application_id", "=", r.id)
          .where("overturned_at", "is", null)
          .executeTakeFirstOrThrow()
      ).id;
    })());
  await trx.updateTable("recognition_decisions").set({ overturned_at: at, overturned_by_appeal: input.appeal.id }).where("id", "=", decisionId).execute();
  let assessorId = r.assessor_id;
  if (r.kind === "rpl") {
    const choices = await assessorChoicesFor(trx, { id: r.id, course: { unit_code: r.unit_code } }, input.now);
    assessorId = choices.find((c) => c.id !== r.assessor_id)?.id ?? (choices.some((c) => c.id === r.assessor_id) ? r.assessor_id : null);
  }
  const reopened = await trx
    .updateTable("recognition_applications")
    .set({ status: "applied", outcome_code: null, decided_on: null, decided_at: null, decided_by: null, reasons: null, assessor_id: assessorId })
    .where("id", "=", r.id)
    .where("status", "=", r.status)
    .executeTakeFirst();
  if (Number(reopened.numUpdatedRows) !== 1) return false;
  await recordAudit(trx, {
    action: "recognition.reopened",
    actor: input.actor,
    subject: { type: "recognition", id: r.id, userId: r.student_id },
    detail: `${r.unit_code}: reopened by appeal ${input.appeal.reference}${r.kind === "rpl" ? `, assessor ${assessorId ?? "to be assigned"}` : ""}`,
    now: at,
  });
  return true;
}

export interface RecognitionDecisionEntry {
  id: string;
  status: DecidedStatus;
  outcome_code: RecognitionOutcome | null;
  reasons: string;
  decided_on: string;
  decided_by: string | null;
  assessor: string | null;
  overturned_at: string | null;
  overturned_by_appeal: string | null;
}

/** The application's decisions, oldest first, with the appeal that overturned any; for an application the viewer was allowed (getRecognition). */
export async function recognitionDecisions(db: DB, r: { id: string }): Promise<RecognitionDecisionEntry[]> {
  const rows = await db
    .selectFrom("recognition_decisions as d")
    .leftJoin("users as decider", "decider.id", "d.decided_by")
    .leftJoin("users as assessor", "assessor.id", "d.assessor_id")
    .leftJoin("complaints as appeal", "appeal.id", "d.overturned_by_appeal")
    .select([
      "d.id",
      "d.status",
      "d.outcome_code",
      "d.reasons",
      "d.decided_on",
      "d.overturned_at",
      "decider.full_name as decider_name",
      "assessor.full_name as assessor_name",
      "appeal.reference as appeal_reference",
    ])
    .where("d.application_id", "=", r.id)
    .orderBy("d.decided_at")
    .orderBy("d.id")
    .execute();
  return rows.map((d) => ({
    id: d.id,
    status: d.status,
    outcome_code: d.outcome_code,
    reasons: d.reasons,
    decided_on: d.decided_on,
    decided_by: d.decider_name ?? null,
    assessor: d.assessor_name ?? null,
    overturned_at: d.overturned_at,
    overturned_by_appeal: d.appeal_reference ?? null,
  }));
}
