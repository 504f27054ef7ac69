import crypto from "node:crypto";
import { sql } from "kysely";
import { columnsContain, dialectSql } from "#db/dialect";
import { writeLater, writesWaitForCommit, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { OutboxState } from "#db/schema";
import type { MailListQuery } from "~/schemas/mail";
import { MAIL_NOT_RESENDABLE_QUEUED, MAIL_NOT_RESENDABLE_SECRET, type MailData, type MailTemplate } from "~/schemas/mail-text";
import { DomainError, notFound } from "~/utils/errors";
import { organisationDayStart, addDays } from "~/utils/organisation-calendar";
import { recordAudit } from "./audit.server";
import { countUpTo, type CappedCount } from "./batches.server";

/**
 * The outbox: every mail the portal sends. Code that changes records queues its message here
 * inside the same write transaction (queueMail), so the message exists exactly when the change
 * does; the background runner (app/jobs/) claims what is due, sends it and records the outcome.
 *
 * - Each message has a key naming its cause ("class-reminder:<class>:<enrolment>"): a job that
 *   runs twice for one cause, or a retried request, queues it once.
 * - A worker claims a message with a lease (claimed_by, claimed_until) and counts the attempt
 *   as it claims; a worker killed mid-send leaves a lease that lapses, and another takes it.
 * - A failed try is retried after RETRY_MINUTES; once they are spent the message is given_up
 *   and waits for staff on /admin/mail, who send it again.
 * - The recipient is a user: their address and name are read when the message is sent, so
 *   none is copied here, and log lines name the message and the user by id only.
 *
 * docs/decisions/020-background-work-and-mail.md gives the figures and the one duplicate the
 * design allows.
 */

/** The pause after each failed try: the second try 1 minute after the first fails, … the sixth 12 hours after the fifth. */
export const RETRY_MINUTES = [1, 5, 30, 120, 720] as const;
/** Tries in all: the first and one per pause; a message whose last try fails is given up. */
export const MAX_ATTEMPTS = RETRY_MINUTES.length + 1;
/** How long a claim holds a message: longer than the transport's longest send (transport.server.ts). */
export const LEASE_SECONDS = 120;
/** How many messages a worker claims at a time. */
export const CLAIM_BATCH = 20;
/** How many messages one page of /admin/mail and GET /api/admin/mail holds. */
export const MAIL_PAGE_SIZE = 50;

/**
 * Data fields that carry a secret (a password-reset link's token): removed from the row once
 * the message is sent or given up, so the database holds a live link only while it waits.
 */
const SECRET_FIELDS: Partial<Record<MailTemplate, string[]>> = {
  "password-reset": ["link"],
  "employer-invitation": ["link"],
  "worker-invitation": ["link"],
  "recognition-referee-request": ["link"],
};

export interface QueueMail<T extends MailTemplate> {
  key: string;
  template: T;
  /**
   * A user (their address is read when it is sent), or for a person without an account (a
   * complainant who left an address) the address itself, kept on the row.
   */
  recipientId: string | { email: string; name: string | null };
  data: MailData[T];
  now?: Date | string;
}

/**
 * Queues one message, in the caller's write transaction (the type allows no other), so it is
 * written if and only if the change it tells of is. A second call with the same key queues
 * nothing. Returns the new message's id, or null when its key was already queued; after
 * sendWritesAtCommit the message goes with the commit and its id is returned either way.
 */
export async function queueMail<T extends MailTemplate>(trx: WriteTransaction, input: QueueMail<T>): Promise<string | null> {
  const id = crypto.randomUUID();
  const at = input.now === undefined ? new Date().toISOString() : typeof input.now === "string" ? input.now : input.now.toISOString();
  const insert = trx
    .insertInto("outbox_messages")
    .values({
      id,
      key: input.key,
      ...(typeof input.recipientId === "string"
        ? { recipient_id: input.recipientId }
        : { recipient_id: null, recipient_email: input.recipientId.email, recipient_name: input.recipientId.name }),
      template: input.template,
      data: JSON.stringify(input.data),
      state: "queued",
      attempts: 0,
      next_attempt_at: at,
      created_at: at,
    })
    .onConflict((oc) => oc.column("key").doNothing());
  if (writesWaitForCommit(trx)) {
    await writeLater(trx, insert);
    return id;
  }
  return (await insert.returning("id").executeTakeFirst()) ? id : null;
}

/** A message a worker holds: what it needs to render and send it. */
export interface ClaimedMessage {
  id: string;
  key: string;
  template: MailTemplate;
  data: Record<string, unknown>;
  attempts: number;
  /** null: a person without an account, addressed by the row's own address */
  recipient_id: string | null;
  email: string;
  full_name: string;
}

const CLAIMABLE_STATES: OutboxState[] = ["queued", "failed"];

/**
 * The messages due at `at`: waiting, their time come, unclaimed or their lease lapsed. Read
 * through outbox_messages_due (state first), so the sent mail, however much, is never read.
 */
export function dueMail(db: DB, at: string) {
  return db
    .selectFrom("outbox_messages")
    .select("id")
    .where("state", "in", CLAIMABLE_STATES)
    .where("next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", at)]));
}

/** Whether anything is due: a read, so an idle runner writes nothing (and moves no change counter). */
export async function hasDueMail(db: DB, now = new Date()): Promise<boolean> {
  return Boolean(await dueMail(db, now.toISOString()).limit(1).executeTakeFirst());
}

/**
 * Claims up to `limit` due messages for `worker` until now + leaseSeconds, counting the attempt.
 * One statement: on PostgreSQL the rows are picked FOR UPDATE SKIP LOCKED, so workers on every
 * server claim different messages without waiting for each other; on SQLite the statement
 * takes the one write lock. `ids` narrows the claim (a request's nudge delivers its own message).
 */
export async function claimDueMail(
  db: DB,
  input: { worker: string; now?: Date; limit?: number; leaseSeconds?: number; ids?: string[] },
): Promise<ClaimedMessage[]> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const until = new Date(now.getTime() + (input.leaseSeconds ?? LEASE_SECONDS) * 1000).toISOString();
  let due = dueMail(db, at)
    .orderBy("next_attempt_at")
    .limit(input.limit ?? CLAIM_BATCH);
  if (input.ids) {
    if (input.ids.length === 0) return [];
    due = due.where("id", "in", input.ids);
  }
  const claimed = await db
    .updateTable("outbox_messages")
    .set({ claimed_by: input.worker, claimed_until: until, attempts: sql`attempts + 1` })
    .where("id", "in", dialectSql(db).skipLocked(due))
    .returning(["id", "key", "template", "data", "attempts", "recipient_id", "recipient_email", "recipient_name"])
    .execute();
  if (claimed.length === 0) return [];
  const userIds = [...new Set(claimed.flatMap((c) => (c.recipient_id ? [c.recipient_id] : [])))];
  const people = userIds.length ? await db.selectFrom("users").select(["id", "email", "full_name"]).where("id", "in", userIds).execute() : [];
  const byId = new Map(people.map((p) => [p.id, p]));
  return claimed.map((c) => ({
    id: c.id,
    key: c.key,
    template: c.template as MailTemplate,
    data: JSON.parse(c.data) as Record<string, unknown>,
    attempts: Number(c.attempts),
    recipient_id: c.recipient_id,
    email: (c.recipient_id ? byId.get(c.recipient_id)?.email : c.recipient_email) ?? "",
    full_name: (c.recipient_id ? byId.get(c.recipient_id)?.full_name : c.recipient_name) ?? "",
  }));
}

/**
 * Renews this worker's claim on a message for another leaseSeconds, just before it is sent:
 * a batch is claimed at once, but each message's send must start with a whole lease ahead of
 * it, longer than a send can take, so no other worker can take it meanwhile. False when the
 * claim was lost (the lease lapsed and another worker took the message): then it is not sent.
 */
export async function renewMailClaim(db: DB, id: string, worker: string, options: { now?: Date; leaseSeconds?: number } = {}): Promise<boolean> {
  const now = options.now ?? new Date();
  const result = await db
    .updateTable("outbox_messages")
    .set({ claimed_until: new Date(now.getTime() + (options.leaseSeconds ?? LEASE_SECONDS) * 1000).toISOString() })
    .where("id", "=", id)
    .where("claimed_by", "=", worker)
    .where("state", "in", CLAIMABLE_STATES)
    .where("claimed_until", ">", now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets go of claimed messages this worker will not send (it is stopping): due again at once, the try not counted. */
export async function releaseMailClaims(db: DB, ids: string[], worker: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("outbox_messages")
    .set({ claimed_by: null, claimed_until: null, attempts: sql`attempts - 1` })
    .where("id", "in", ids)
    .where("claimed_by", "=", worker)
    .execute();
}

/**
 * Lets go of every claim `worker` (one delivery run's own name) still holds on an unsent message,
 * but those in `keep` (handed to the mail server, their record pending). After a dropped
 * connection a run cannot know whether its last claim committed; its name is its own, so this
 * finds that claim too.
 */
export async function releaseRunClaims(db: DB, worker: string, keep: string[]): Promise<number> {
  let query = db
    .updateTable("outbox_messages")
    .set({ claimed_by: null, claimed_until: null, attempts: sql`attempts - 1` })
    .where("claimed_by", "=", worker)
    .where("claimed_until", "is not", null)
    .where("state", "<>", "sent");
  if (keep.length > 0) query = query.where("id", "not in", keep);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

function withoutSecrets(template: MailTemplate, data: Record<string, unknown>): string | undefined {
  const fields = SECRET_FIELDS[template];
  if (!fields) return undefined;
  const kept = { ...data };
  for (const f of fields) delete kept[f];
  return JSON.stringify(kept);
}

/**
 * Records a message sent, if `worker` still holds it. False when the lease had lapsed and
 * another worker took the message (it may then be sent twice: LEASE_SECONDS is chosen longer
 * than any send can take, so only a stalled worker gets here).
 */
export async function markMailSent(db: DB, message: Pick<ClaimedMessage, "id" | "template" | "data">, worker: string, now = new Date()): Promise<boolean> {
  const data = withoutSecrets(message.template, message.data);
  const result = await db
    .updateTable("outbox_messages")
    // claimed_by stays: which worker sent it
    .set({ state: "sent", sent_at: now.toISOString(), claimed_until: null, last_error: null, ...(data ? { data } : {}) })
    .where("id", "=", message.id)
    .where("claimed_by", "=", worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** What a failed try leads to: a retry at `retryAt`, or the message given up. */
export type FailureOutcome = { state: "failed"; retryAt: string } | { state: "given_up" };

/**
 * Records a failed try: retried after the next pause of RETRY_MINUTES, or given up after the
 * last (also at once when `final`: a message that can never be sent, such as an expired link).
 * The error is kept for staff, cut to 500 characters.
 */
export async function markMailFailed(
  db: DB,
  message: Pick<ClaimedMessage, "id" | "template" | "data" | "attempts">,
  worker: string,
  error: string,
  options: { now?: Date; final?: boolean } = {},
): Promise<FailureOutcome> {
  const now = options.now ?? new Date();
  const pause = RETRY_MINUTES[message.attempts - 1];
  const outcome: FailureOutcome =
    options.final || pause === undefined ? { state: "given_up" } : { state: "failed", retryAt: new Date(now.getTime() + pause * 60_000).toISOString() };
  const data = outcome.state === "given_up" ? withoutSecrets(message.template, message.data) : undefined;
  await db
    .updateTable("outbox_messages")
    .set({
      state: outcome.state,
      next_attempt_at: outcome.state === "failed" ? outcome.retryAt : now.toISOString(),
      claimed_by: null,
      claimed_until: null,
      last_error: error.slice(0, 500),
      ...(data ? { data } : {}),
    })
    .where("id", "=", message.id)
    .where("claimed_by", "=", worker)
    .execute();
  return outcome;
}

/** One message as the Mail page and GET /api/admin/mail show it (the subject is rendered by app/mail/). */
export interface MailListEntry {
  id: string;
  key: string;
  template: MailTemplate;
  data: Record<string, unknown>;
  state: OutboxState;
  attempts: number;
  recipient_id: string | null;
  recipient_name: string;
  recipient_email: string;
  created_at: string;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
}

function filteredMail(db: DB, q: MailListQuery) {
  let query = db.selectFrom("outbox_messages as m").leftJoin("users as u", "u.id", "m.recipient_id");
  if (q.state) query = query.where("m.state", "=", q.state);
  if (q.template) query = query.where("m.template", "=", q.template);
  if (q.recipient) {
    const term = q.recipient;
    query = /^[0-9a-f-]{36}$/i.test(term)
      ? query.where("m.recipient_id", "=", term.toLowerCase())
      : query.where((eb) =>
          // a message to someone with no account (a complainant) keeps its address on the row
          eb.or([dialectSql(db).userTextMatches(term, "u"), columnsContain(term, ["m.recipient_email", "m.recipient_name"])]),
        );
  }
  if (q.from) query = query.where("m.created_at", ">=", organisationDayStart(q.from));
  if (q.to) query = query.where("m.created_at", "<", organisationDayStart(addDays(q.to, 1)));
  return query;
}

/** How far the mail list counts the messages its filters match (countUpTo). */
export const MAIL_COUNT_LIMIT = 10_000;

/** One page of the outbox, newest first, with the count of the messages the filters match (up to MAIL_COUNT_LIMIT). */
export async function listMail(
  db: DB,
  q: MailListQuery,
  pageSize = MAIL_PAGE_SIZE,
): Promise<{ messages: MailListEntry[]; page: number; pages: number } & CappedCount> {
  const page = Math.max(1, q.page ?? 1);
  const [rows, count] = await Promise.all([
    filteredMail(db, q)
      .select([
        "m.id",
        "m.key",
        "m.template",
        "m.data",
        "m.state",
        "m.attempts",
        "m.recipient_id",
        (eb) => eb.fn.coalesce("u.full_name", "m.recipient_name", eb.val("")).as("recipient_name"),
        (eb) => eb.fn.coalesce("u.email", "m.recipient_email", eb.val("")).as("recipient_email"),
        "m.created_at",
        "m.next_attempt_at",
        "m.sent_at",
        "m.last_error",
      ])
      .orderBy("m.created_at", "desc")
      .orderBy("m.id")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    countUpTo(db, filteredMail(db, q).select("m.id"), MAIL_COUNT_LIMIT),
  ]);
  const { total } = count;
  return {
    messages: rows.map((r) => ({
      ...r,
      template: r.template as MailTemplate,
      attempts: Number(r.attempts),
      data: JSON.parse(r.data) as Record<string, unknown>,
    })),
    ...count,
    page,
    pages: Math.max(1, Math.ceil(total / pageSize)),
  };
}

/** Why a message cannot be sent again (the Mail page shows no button then), or null. */
export function resendRefusal(m: { state: OutboxState; template: MailTemplate; data: Record<string, unknown> }): string | null {
  if (m.state === "queued") return MAIL_NOT_RESENDABLE_QUEUED;
  if ((SECRET_FIELDS[m.template] ?? []).some((f) => m.data[f] === undefined)) return MAIL_NOT_RESENDABLE_SECRET;
  return null;
}

/**
 * An administrator sends a message again: a given-up or failed one gets one more try now, a
 * sent one goes once more (a learner who never saw it). One already queued is a 409, and so is
 * a password reset whose link was removed once it left.
 */
export async function resendMail(db: DB, input: { id: string; actorId: string; client?: string | null; now?: Date }): Promise<void> {
  const at = (input.now ?? new Date()).toISOString();
  await writeTransaction(db, async (trx) => {
    const message = await trx
      .selectFrom("outbox_messages")
      .select(["id", "state", "template", "data", "recipient_id"])
      .where("id", "=", input.id)
      .executeTakeFirst();
    if (!message) throw notFound("Message");
    const refusal = resendRefusal({
      state: message.state,
      template: message.template as MailTemplate,
      data: JSON.parse(message.data) as Record<string, unknown>,
    });
    if (refusal) throw new DomainError(409, refusal);
    await trx
      .updateTable("outbox_messages")
      .set({ state: "queued", next_attempt_at: at, claimed_by: null, claimed_until: null })
      .where("id", "=", message.id)
      .execute();
    await recordAudit(trx, {
      action: "mail.resent",
      actor: { id: input.actorId, client: input.client },
      subject: { type: "mail", id: message.id, userId: message.recipient_id },
      now: at,
    });
  });
}

/**
 * How long a sent message is kept: two years after it was sent. Longer than any job looks back
 * for a cause (licence reminders a year), so a message's key cannot be queued again once its row
 * is gone, and long enough for staff to answer "was I told?" from /admin/mail; what a change did
 * is in the audit trail, which keeps everything. Then the row is removed, not archived: it holds
 * no record the RTO must keep (the template's text is the code's, its data the records').
 */
export const SENT_MAIL_KEEP_DAYS = 730;
/** Sent messages removed per statement, and at most per runner pass (the rest wait for the next). */
export const MAIL_REMOVAL_BATCH = 1000;
const MAIL_REMOVAL_BATCHES_PER_RUN = 10;

/** Sent messages past their keep, oldest first (through outbox_messages_sent: state, sent_at). */
export function expiredMail(db: DB, now: Date) {
  const before = new Date(now.getTime() - SENT_MAIL_KEEP_DAYS * 864e5).toISOString();
  return db.selectFrom("outbox_messages").select("id").where("state", "=", "sent").where("sent_at", "<", before).orderBy("sent_at");
}

/**
 * Retention of the outbox: sent messages past their keep (sent more than SENT_MAIL_KEEP_DAYS
 * ago) removed, oldest first, through expiredMail, a
 * batch per statement in its own transaction so writers never wait long. Queued, failed and
 * given-up messages stay (staff act on them). Answers how many were removed.
 */
export async function removeExpiredMail(db: DB, now = new Date(), batches = MAIL_REMOVAL_BATCHES_PER_RUN): Promise<number> {
  let removed = 0;
  for (let i = 0; i < batches; i++) {
    const result = await db.deleteFrom("outbox_messages").where("id", "in", expiredMail(db, now).limit(MAIL_REMOVAL_BATCH)).executeTakeFirst();
    const n = Number(result.numDeletedRows);
    removed += n;
    if (n < MAIL_REMOVAL_BATCH) break;
  }
  return removed;
}
