import crypto from "node:crypto";
import { sendKeptWrites, writeLater, writesWaitForCommit, type WriteTransaction } from "#db/connection";
import { ENROLLMENT_PAYLOAD_COLUMNS, TRAINER_EVENTS, type WebhookAudience, type WebhookEvent } from "~/schemas/webhooks";
import { complaintFieldsFor, roleReadsField } from "./personal-data.server";

/**
 * What each webhook event carries, and the queueing of it in the transaction of its change.
 *
 * A payload is `{type, timestamp, data}`: the event type, the record's ids and what the /api
 * shows an administrator about it, no more (never a free-text complaint, a verification code, a
 * password or an address). For an endpoint whose audience is trainer, each person is cut to the
 * fields a trainer reads (roleReadsField, the portal's one field rule) and only the events a
 * trainer may read are offered (TRAINER_EVENTS); invoices and complaints are the office's.
 */

type Trx = WriteTransaction;
type Data = Record<string, unknown>;

/** The person fields a payload may carry, each kept only if the audience reads it. */
const PERSON_FIELDS = ["id", "full_name", "email", "phone", "student_number"] as const;

async function person(trx: Trx, id: string | null, audience: WebhookAudience): Promise<Data | null> {
  if (!id) return null;
  const row = await trx.selectFrom("users").select(PERSON_FIELDS).where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  return Object.fromEntries(PERSON_FIELDS.filter((f) => roleReadsField(audience, f)).map((f) => [f, row[f]]));
}

async function course(trx: Trx, id: string): Promise<Data | null> {
  return (await trx.selectFrom("courses").select(["id", "name", "tier"]).where("id", "=", id).executeTakeFirst()) ?? null;
}

/** Each event's data, read in the transaction of its change: the record as it stands once changed. */
const BUILDERS: Record<WebhookEvent, (trx: Trx, id: string, audience: WebhookAudience) => Promise<Data | null>> = {
  "enrolment.created": enrollment,
  "enrolment.changed": enrollment,
  "result.recorded": async (trx, id, audience) => {
    const a = await trx
      .selectFrom("assessments")
      .select([
        "id",
        "enrollment_id",
        "student_id",
        "course_id",
        "assessment_type",
        "status",
        "score",
        "max_score",
        "assessment_date",
        "assessed_by",
        "created_at",
      ])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!a) return null;
    return { assessment: a, student: await person(trx, a.student_id, audience), course: await course(trx, a.course_id) };
  },
  "certificate.issued": certificate,
  "certificate.revoked": certificate,
  "booking.made": async (trx, id) => {
    const b = await trx
      .selectFrom("group_bookings as b")
      .innerJoin("employers as e", "e.id", "b.employer_id")
      .select(["b.id", "b.employer_id", "e.name as employer_name", "b.class_id", "b.seats", "b.release_on", "b.created_at"])
      .where("b.id", "=", id)
      .executeTakeFirst();
    return b ? { booking: b } : null;
  },
  "invoice.issued": invoice,
  "invoice.paid": invoice,
  "complaint.lodged": async (trx, id, audience) => {
    const c = await trx
      .selectFrom("complaints")
      .select(["id", "kind", "reference", "status", "lodged_by", "name", "email", "phone", "received_at", "acknowledge_by", "resolve_by"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!c) return null;
    return { complaint: complaintFieldsFor({ id: "", role: audience }, c) };
  },
};

async function enrollment(trx: Trx, id: string, audience: WebhookAudience): Promise<Data | null> {
  const e = await trx.selectFrom("enrollments").select(ENROLLMENT_PAYLOAD_COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!e) return null;
  // the payload's key is spelt as its event's name ("enrolment.created"): what receivers read, kept as it was published
  return { enrolment: e, student: await person(trx, e.student_id, audience), course: await course(trx, e.course_id) };
}

async function certificate(trx: Trx, id: string, audience: WebhookAudience): Promise<Data | null> {
  const c = await trx
    .selectFrom("certificates")
    .select(["id", "certificate_number", "student_id", "course_id", "enrollment_id", "tier_achieved", "issue_date", "revoked_at", "replaces_id", "replaced_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!c) return null;
  return { certificate: c, student: await person(trx, c.student_id, audience), course: await course(trx, c.course_id) };
}

async function invoice(trx: Trx, id: string): Promise<Data | null> {
  const i = await trx
    .selectFrom("invoices")
    .select([
      "id",
      "number",
      "buyer_kind",
      "buyer_id",
      "buyer_name",
      "source_kind",
      "source_id",
      "issue_date",
      "due_date",
      "subtotal_cents",
      "gst_cents",
      "total_cents",
      "paid_cents",
      "credited_cents",
    ])
    .where("id", "=", id)
    .executeTakeFirst();
  return i ? { invoice: i } : null;
}

export interface WebhookEventInput {
  type: WebhookEvent;
  /** the record the event is about (an enrolment, a certificate …) */
  subjectId: string;
  /**
   * What makes this event one (default: the subject): a change that can happen to one record
   * many times (an enrolment changed) names its moment, so each change is its own event and a
   * retried change is still one.
   */
  cause?: string;
  now?: Date | string;
}

const endpointsRead = new WeakMap<WriteTransaction, Promise<Array<{ id: string; audience: WebhookAudience; events: string }>>>();

/**
 * The active endpoints, read once per write transaction: an enrolment paid by card queues four
 * events, each a statement inside the write lock. A transaction that adds or changes an endpoint
 * (webhooks.server.ts) queues no event. A scoped write reads them before its turn to write
 * (readWebhookEndpoints).
 */
function activeEndpoints(trx: WriteTransaction) {
  let read = endpointsRead.get(trx);
  if (!read) {
    read = trx.selectFrom("webhook_endpoints").select(["id", "audience", "events"]).where("is_active", "=", 1).execute();
    endpointsRead.set(trx, read);
  }
  return read;
}

/** Reads the endpoints the transaction's events will go to, ahead of its writes. */
export async function readWebhookEndpoints(trx: WriteTransaction): Promise<void> {
  await activeEndpoints(trx);
}

/**
 * Queues the event for every active endpoint that chose it, in the caller's write transaction
 * (the type allows no other): a delivery exists exactly when the change does. With no endpoint
 * listening this costs one read. The payload is fixed here, so every try sends the same bytes.
 */
export async function queueWebhookEvent(trx: WriteTransaction, input: WebhookEventInput): Promise<number> {
  const endpoints = await activeEndpoints(trx);
  const listening = endpoints.filter(
    (e) => (JSON.parse(e.events) as string[]).includes(input.type) && (e.audience === "admin" || TRAINER_EVENTS.includes(input.type)),
  );
  if (listening.length === 0) return 0;
  const at = input.now === undefined ? new Date().toISOString() : typeof input.now === "string" ? input.now : input.now.toISOString();
  const cause = input.cause ?? input.subjectId;
  // the payload reads the change this event tells of: writes kept for the commit go first
  await sendKeptWrites(trx);
  const payloads = new Map<WebhookAudience, string | null>();
  let queued = 0;
  for (const endpoint of listening) {
    const audience = endpoint.audience;
    if (!payloads.has(audience)) {
      const data = await BUILDERS[input.type](trx, input.subjectId, audience);
      payloads.set(audience, data ? JSON.stringify({ type: input.type, timestamp: at, data }) : null);
    }
    const payload = payloads.get(audience);
    if (!payload) continue;
    const insert = trx
      .insertInto("webhook_deliveries")
      .values({
        id: `msg_${crypto.randomUUID().replaceAll("-", "")}`,
        key: `${input.type}:${cause}:${endpoint.id}`,
        endpoint_id: endpoint.id,
        event_type: input.type,
        payload,
        state: "queued",
        attempts: 0,
        next_attempt_at: at,
        created_at: at,
      })
      .onConflict((oc) => oc.column("key").doNothing());
    if (writesWaitForCommit(trx)) {
      // sent with the commit: a key already queued is not told apart
      await writeLater(trx, insert);
      queued++;
    } else queued += Number((await insert.executeTakeFirst()).numInsertedOrUpdatedRows ?? 0);
  }
  return queued;
}
