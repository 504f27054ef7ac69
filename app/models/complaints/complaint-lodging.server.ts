import crypto from "node:crypto";
import { sql } from "kysely";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { ComplaintKind } from "#db/schema-complaints";
import type { AppealInput, ComplaintInput } from "~/schemas/complaint";
import { COMPLAINT_MESSAGES } from "~/schemas/complaint-text";
import { RATE_LIMITS, takeRateLimit } from "~/security/rate-limits.server";
import { conflict, DomainError, tooMany } from "~/utils/errors";
import { organisationYear } from "~/utils/organisation-calendar";
import { recordAudit, actorOf, signedInActor, type ActorRef, type SignedInActorRef } from "../audit.server";
import { assessmentFor } from "../evidence.server";
import { queueMail } from "../outbox.server";
import { queueWebhookEvent } from "../webhook-events.server";
import { clocksFor, complaintSettings } from "./complaint-clocks.server";

/**
 * Lodging a complaint or an appeal: its reference from a counter that only grows, its clocks,
 * and its acknowledgement mail queued in the same transaction.
 */

/**
 * The next reference of a series, e.g. C-2026-0007: from a counter that only grows (one upsert,
 * so two lodged at once take different numbers on either database). Inside the lodging transaction.
 */
async function nextReference(trx: WriteTransaction, kind: ComplaintKind, at: Date): Promise<string> {
  const series = `${kind === "appeal" ? "A" : "C"}-${organisationYear(at)}`;
  const row = await trx
    .insertInto("complaint_sequence")
    .values({ series, last_value: 1 })
    .onConflict((oc) => oc.column("series").doUpdateSet({ last_value: sql`complaint_sequence.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return `${series}-${String(row.last_value).padStart(4, "0")}`;
}

export interface Lodged {
  id: string;
  reference: string;
  acknowledge_by: string;
  resolve_by: string;
  /** whether an acknowledgement mail was queued (not when there is nowhere to send it) */
  mailed: boolean;
}

type Rto = { name: string; code: string };

/**
 * Lodges a complaint: a visitor's (name and contact optional), or a signed-in person's (linked
 * to their account, and mailed there). The acknowledgement mail is queued with it when there is
 * an address; the reference is returned either way, for the page to show.
 *
 * Each may mail an address nobody has proven, so a client (`by.client`) lodges at most
 * RATE_LIMITS.complaintClient an hour, and a typed address is acknowledged at most
 * RATE_LIMITS.complaintEmail times a day whoever asks (429, nothing stored, nothing mailed).
 */
export async function lodgeComplaint(db: DB, input: ComplaintInput, options: { by?: ActorRef; rto: Rto; now?: Date }): Promise<Lodged> {
  const actor = actorOf(options.by ?? null);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  if (actor.client) {
    const typed = actor.id === null && input.email ? input.email : null;
    const rules = typed ? [RATE_LIMITS.complaintClient, RATE_LIMITS.complaintEmail] : [RATE_LIMITS.complaintClient];
    const decision = await takeRateLimit(db, rules, { client: actor.client, email: typed ?? undefined }, now);
    if (!decision.ok) {
      if (decision.rule === RATE_LIMITS.complaintEmail)
        throw new DomainError(429, COMPLAINT_MESSAGES.tooManyForEmail, { email: COMPLAINT_MESSAGES.tooManyForEmail }, "email", decision.retryAfterSeconds);
      throw tooMany(COMPLAINT_MESSAGES.tooManyFromClient, decision.retryAfterSeconds);
    }
  }
  return writeTransaction(db, async (trx) => {
    const settings = await complaintSettings(trx, options.rto);
    const clocks = clocksFor(now, settings);
    const id = crypto.randomUUID();
    const reference = await nextReference(trx, "complaint", now);
    await trx
      .insertInto("complaints")
      .values({
        id,
        kind: "complaint",
        reference,
        status: "received",
        lodged_by: actor.id,
        name: input.name,
        email: input.email,
        phone: input.phone,
        details: input.details,
        received_at: at,
        ...clocks,
      })
      .execute();
    const recipient = actor.id ?? (input.email ? { email: input.email, name: input.name } : null);
    const mailed = recipient
      ? (await queueMail(trx, {
          key: `complaint-received:${id}`,
          template: "complaint-received",
          recipientId: recipient,
          data: { kind: "complaint", reference, acknowledgeBy: clocks.acknowledge_by, resolveBy: clocks.resolve_by, path: "/complaints/policy" },
          now,
        })) !== null
      : false;
    await recordAudit(trx, { action: "complaint.lodged", actor, subject: { type: "complaint", id, userId: actor.id }, detail: reference, now: at });
    await queueWebhookEvent(trx, { type: "complaint.lodged", subjectId: id, now: at });
    return { id, reference, ...clocks, mailed };
  });
}

/**
 * Lodges a learner's appeal of a decision on one of their own assessments: someone else's, or
 * an unknown one, is not found; one with no result yet, or with an appeal still open, is refused.
 */
export async function lodgeAppeal(db: DB, input: AppealInput, options: { by: SignedInActorRef; rto: Rto; now?: Date }): Promise<Lodged> {
  const actor = signedInActor(options.by);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const assessment = await assessmentFor(trx, { id: actor.id, role: "student" }, { kind: input.assessment_kind, id: input.assessment_id });
    if (!assessment.result_on || !assessment.assessor) throw conflict(COMPLAINT_MESSAGES.noResultYet);
    const open = await trx
      .selectFrom("complaints")
      .select("id")
      .where("assessment_kind", "=", input.assessment_kind)
      .where("assessment_id", "=", input.assessment_id)
      .where("status", "<>", "resolved")
      .executeTakeFirst();
    if (open) throw conflict(COMPLAINT_MESSAGES.alreadyAppealed);
    const settings = await complaintSettings(trx, options.rto);
    const clocks = clocksFor(now, settings);
    const id = crypto.randomUUID();
    const reference = await nextReference(trx, "appeal", now);
    await trx
      .insertInto("complaints")
      .values({
        id,
        kind: "appeal",
        reference,
        status: "received",
        lodged_by: actor.id,
        details: input.details,
        assessment_kind: input.assessment_kind,
        assessment_id: input.assessment_id,
        assessor_id: assessment.assessor.id,
        received_at: at,
        ...clocks,
      })
      .execute();
    await queueMail(trx, {
      key: `complaint-received:${id}`,
      template: "complaint-received",
      recipientId: actor.id,
      data: {
        kind: "appeal",
        reference,
        acknowledgeBy: clocks.acknowledge_by,
        resolveBy: clocks.resolve_by,
        about: assessment.title,
        path: "/complaints/policy",
      },
      now,
    });
    await recordAudit(trx, {
      action: "appeal.lodged",
      actor,
      subject: { type: "complaint", id, userId: actor.id },
      detail: `${reference}: ${input.assessment_kind} assessment ${input.assessment_id}`,
      now: at,
    });
    return { id, reference, ...clocks, mailed: true };
  });
}
