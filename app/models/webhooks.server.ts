import crypto from "node:crypto";
import { sql, type Selectable } from "kysely";
import { dialectSql } from "#db/dialect";
import { writeTransaction, type DB } from "#db/connection";
import type { WebhookDeliveriesTable, WebhookDeliveryState, WebhookEndpointsTable } from "#db/schema";
import type { WebhookAudience, WebhookEndpointInput, WebhookEvent } from "~/schemas/webhooks";
import { DomainError, notFound } from "~/utils/errors";
import { checkWebhookUrl, resolveWebhookTarget, type AddressPolicy, type Lookup } from "./webhook-address.server";

/**
 * Webhook endpoints and their deliveries: a queue beside the mail outbox, with its claim and
 * lease (models/outbox.server.ts). Events are queued by webhook-events.server.ts in the
 * transaction of their change; the runner's "webhooks" job (jobs/deliver-webhooks.server.ts)
 * claims what is due, signs and posts it, and records the answer here.
 *
 * - A delivery's id is its `webhook-id`: every try, and "Send again", sends that id, so a
 *   receiver that keeps the ids it has seen acts on each event once.
 * - A failed try is retried after RETRY_SECONDS (doubling, then every 8 hours); a delivery
 *   still failing a day after it was queued is given up and listed as such.
 * - A claim holds a delivery for LEASE_SECONDS, longer than a try may take (TIMEOUT_MS): a
 *   worker killed mid-try leaves a lease that lapses, and another worker takes it.
 *
 * docs/decisions/039-webhooks.md gives the figures.
 */

/** The pause after each failed try; past the last, every 8 hours. */
export const RETRY_SECONDS = [30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800] as const;
/** A delivery failing for this long after it was queued is given up. */
export const GIVE_UP_AFTER_SECONDS = 24 * 3600;
/** How long one try may take before it counts as failed. */
export const TIMEOUT_MS = 10_000;
/** How long a claim holds a delivery: well past TIMEOUT_MS. */
export const LEASE_SECONDS = 60;
export const CLAIM_BATCH = 20;
/** How long a rotated-out secret still signs. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;
/** How much of a receiver's answer is kept for the deliveries list. */
export const EXCERPT_CHARS = 200;
export const DELIVERIES_PAGE_SIZE = 50;

/** A new signing secret: whsec_ and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString("base64")}`;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  audience: WebhookAudience;
  events: WebhookEvent[];
  is_active: boolean;
  /** true while a rotated-out secret still signs */
  rotating_until: string | null;
  created_at: string;
  updated_at: string;
}

type EndpointRow = Pick<Selectable<WebhookEndpointsTable>, (typeof ENDPOINT_COLUMNS)[number]>;

function endpointView(row: EndpointRow, now = new Date()): WebhookEndpoint {
  const until = row.previous_secret_until && row.previous_secret_until > now.toISOString() ? row.previous_secret_until : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    audience: row.audience,
    events: JSON.parse(row.events) as WebhookEvent[],
    is_active: Number(row.is_active) === 1,
    rotating_until: until,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const ENDPOINT_COLUMNS = ["id", "url", "description", "audience", "events", "is_active", "previous_secret_until", "created_at", "updated_at"] as const;

export async function listWebhookEndpoints(db: DB): Promise<(WebhookEndpoint & { counts: Record<WebhookDeliveryState, number> })[]> {
  const rows = await db.selectFrom("webhook_endpoints").select(ENDPOINT_COLUMNS).orderBy("created_at", "desc").execute();
  const counts = await db
    .selectFrom("webhook_deliveries")
    .select(["endpoint_id", "state", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy(["endpoint_id", "state"])
    .execute();
  return rows.map((r) => {
    const c: Record<WebhookDeliveryState, number> = { queued: 0, delivered: 0, failed: 0, given_up: 0 };
    for (const x of counts) if (x.endpoint_id === r.id) c[x.state] = Number(x.n);
    return { ...endpointView(r), counts: c };
  });
}

export async function getWebhookEndpoint(db: DB, id: string): Promise<WebhookEndpoint> {
  const row = await db.selectFrom("webhook_endpoints").select(ENDPOINT_COLUMNS).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Webhook endpoint");
  return endpointView(row);
}

export interface CreateEndpointOptions {
  actorId: string;
  now?: Date;
  policy?: AddressPolicy;
  lookup?: Lookup;
}

/**
 * Registers an endpoint: its URL checked (scheme, and every address its name resolves to) and a
 * new secret made. Returns the endpoint and its secret, shown to the administrator once here.
 */
export async function createWebhookEndpoint(
  db: DB,
  input: WebhookEndpointInput,
  options: CreateEndpointOptions,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  checkWebhookUrl(input.url, options.policy);
  await resolveWebhookTarget(input.url, { policy: options.policy, lookup: options.lookup });
  const at = (options.now ?? new Date()).toISOString();
  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  await writeTransaction(db, async (trx) => {
    await trx
      .insertInto("webhook_endpoints")
      .values({
        id,
        url: input.url,
        description: input.description,
        audience: input.audience,
        events: JSON.stringify(input.events),
        secret,
        is_active: 1,
        created_by: options.actorId,
        created_at: at,
        updated_at: at,
      })
      .execute();
  });
  return { endpoint: await getWebhookEndpoint(db, id), secret };
}

/**
 * A new secret; the old one keeps signing for ROTATION_OVERLAP_SECONDS, so a receiver has a day
 * to take the new one while every delivery carries both signatures. Returns the new secret.
 */
export async function rotateWebhookSecret(db: DB, id: string, now = new Date()): Promise<{ secret: string; previous_until: string }> {
  const secret = newWebhookSecret();
  const until = new Date(now.getTime() + ROTATION_OVERLAP_SECONDS * 1000).toISOString();
  const done = await writeTransaction(db, async (trx) => {
    const row = await trx.selectFrom("webhook_endpoints").select(["secret"]).where("id", "=", id).executeTakeFirst();
    if (!row) return false;
    await trx
      .updateTable("webhook_endpoints")
      .set({ secret, previous_secret: row.secret, previous_secret_until: until, updated_at: now.toISOString() })
      .where("id", "=", id)
      .execute();
    return true;
  });
  if (!done) throw notFound("Webhook endpoint");
  return { secret, previous_until: until };
}

/** Turns an endpoint off (no new deliveries are queued for it; queued ones are still sent) or on again. */
export async function toggleWebhookEndpoint(db: DB, id: string, now = new Date()): Promise<WebhookEndpoint> {
  const endpoint = await getWebhookEndpoint(db, id);
  await db
    .updateTable("webhook_endpoints")
    .set({ is_active: endpoint.is_active ? 0 : 1, updated_at: now.toISOString() })
    .where("id", "=", id)
    .execute();
  return getWebhookEndpoint(db, id);
}

/** The columns DELIVERY_COLUMNS selects; the table keeps any text as event_type, the list reads it as one of WEBHOOK_EVENTS. */
export type WebhookDelivery = Omit<Pick<Selectable<WebhookDeliveriesTable>, (typeof DELIVERY_COLUMNS)[number]>, "event_type"> & { event_type: WebhookEvent };

const DELIVERY_COLUMNS = [
  "id",
  "endpoint_id",
  "event_type",
  "state",
  "attempts",
  "created_at",
  "next_attempt_at",
  "last_attempt_at",
  "delivered_at",
  "response_status",
  "response_excerpt",
  "last_error",
] as const;

/** One endpoint's deliveries, newest first, one page. */
export async function listWebhookDeliveries(
  db: DB,
  endpointId: string,
  page = 1,
): Promise<{ deliveries: WebhookDelivery[]; total: number; page: number; pages: number }> {
  await getWebhookEndpoint(db, endpointId);
  const total = Number(
    (
      await db
        .selectFrom("webhook_deliveries")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("endpoint_id", "=", endpointId)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const pages = Math.max(1, Math.ceil(total / DELIVERIES_PAGE_SIZE));
  const p = Math.min(Math.max(1, page), pages);
  const rows = await db
    .selectFrom("webhook_deliveries")
    .select(DELIVERY_COLUMNS)
    .where("endpoint_id", "=", endpointId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(DELIVERIES_PAGE_SIZE)
    .offset((p - 1) * DELIVERIES_PAGE_SIZE)
    .execute();
  return {
    deliveries: rows.map((r) => ({
      ...r,
      event_type: r.event_type as WebhookEvent,
      attempts: Number(r.attempts),
      response_status: r.response_status === null ? null : Number(r.response_status),
    })),
    total,
    page: p,
    pages,
  };
}

/**
 * "Send again": the delivery (of this endpoint) is due now for one more try under the same id,
 * whatever its state; a delivery a worker holds right now is refused (it is being sent).
 */
export async function resendWebhookDelivery(db: DB, input: { endpointId: string; deliveryId: string; now?: Date }): Promise<void> {
  const at = (input.now ?? new Date()).toISOString();
  const row = await db
    .selectFrom("webhook_deliveries")
    .select(["id", "claimed_until", "state"])
    .where("id", "=", input.deliveryId)
    .where("endpoint_id", "=", input.endpointId)
    .executeTakeFirst();
  if (!row) throw notFound("Delivery");
  if (row.claimed_until && row.claimed_until > at && row.state !== "delivered") throw new DomainError(409, "This delivery is being sent right now");
  await db
    .updateTable("webhook_deliveries")
    // a new day to try in, counted from now: created_at is the window's start
    .set({ state: "queued", next_attempt_at: at, created_at: at, claimed_by: null, claimed_until: null })
    .where("id", "=", row.id)
    .execute();
}

/** A delivery a worker holds: what it needs to sign and send it. */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  payload: string;
  attempts: number;
  created_at: string;
  url: string;
  secrets: string[];
}

const CLAIMABLE: WebhookDeliveryState[] = ["queued", "failed"];

export async function hasDueWebhooks(db: DB, now = new Date()): Promise<boolean> {
  const at = now.toISOString();
  const row = await db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("state", "in", CLAIMABLE)
    .where("next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", at)]))
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * Claims up to `limit` due deliveries for `worker` until now + leaseSeconds, counting the try:
 * one statement, FOR UPDATE SKIP LOCKED on PostgreSQL, the write lock on SQLite, as the outbox.
 * Each comes with the secrets that sign it now (the current one, and a rotated-out one still
 * inside its overlap).
 */
export async function claimDueWebhooks(
  db: DB,
  input: { worker: string; now?: Date; limit?: number; leaseSeconds?: number; ids?: string[] },
): Promise<ClaimedDelivery[]> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const until = new Date(now.getTime() + (input.leaseSeconds ?? LEASE_SECONDS) * 1000).toISOString();
  let due = db
    .selectFrom("webhook_deliveries")
    .select("id")
    .where("state", "in", CLAIMABLE)
    .where("next_attempt_at", "<=", at)
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<=", at)]))
    .orderBy("next_attempt_at")
    .limit(input.limit ?? CLAIM_BATCH);
  if (input.ids) {
    if (input.ids.length === 0) return [];
    due = due.where("id", "in", input.ids);
  }
  const claimed = await db
    .updateTable("webhook_deliveries")
    .set({ claimed_by: input.worker, claimed_until: until, attempts: sql`attempts + 1`, last_attempt_at: at })
    .where("id", "in", dialectSql(db).skipLocked(due))
    .returning(["id", "endpoint_id", "payload", "attempts", "created_at"])
    .execute();
  if (claimed.length === 0) return [];
  const endpoints = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "secret", "previous_secret", "previous_secret_until"])
    .where("id", "in", [...new Set(claimed.map((c) => c.endpoint_id))])
    .execute();
  const byId = new Map(endpoints.map((e) => [e.id, e]));
  return claimed.map((c) => {
    const e = byId.get(c.endpoint_id)!;
    const secrets = [e.secret, ...(e.previous_secret && e.previous_secret_until && e.previous_secret_until > at ? [e.previous_secret] : [])];
    return { id: c.id, endpoint_id: c.endpoint_id, payload: c.payload, attempts: Number(c.attempts), created_at: c.created_at, url: e.url, secrets };
  });
}

/** Renews this worker's claim just before the try; false when it was lost (then it does not send). */
export async function renewWebhookClaim(db: DB, id: string, worker: string, options: { now?: Date; leaseSeconds?: number } = {}): Promise<boolean> {
  const now = options.now ?? new Date();
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ claimed_until: new Date(now.getTime() + (options.leaseSeconds ?? LEASE_SECONDS) * 1000).toISOString() })
    .where("id", "=", id)
    .where("claimed_by", "=", worker)
    .where("state", "in", CLAIMABLE)
    .where("claimed_until", ">", now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets go of claims this worker will not try (it is stopping): due again at once, the try not counted. */
export async function releaseWebhookClaims(db: DB, ids: string[], worker: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("webhook_deliveries")
    .set({ claimed_by: null, claimed_until: null, attempts: sql`attempts - 1` })
    .where("id", "in", ids)
    .where("claimed_by", "=", worker)
    .execute();
}

export interface TryOutcome {
  status: number | null;
  excerpt: string | null;
  error: string | null;
}

/** Records a 2xx answer, if `worker` still holds the delivery. */
export async function markWebhookDelivered(db: DB, id: string, worker: string, answer: TryOutcome, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("webhook_deliveries")
    .set({
      state: "delivered",
      delivered_at: now.toISOString(),
      claimed_until: null,
      response_status: answer.status,
      response_excerpt: answer.excerpt,
      last_error: null,
    })
    .where("id", "=", id)
    .where("claimed_by", "=", worker)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type WebhookFailure = { state: "failed"; retryAt: string } | { state: "given_up" };

/** The next try after `attempts` failed ones, or given up when it would fall past a day from `since`. */
export function nextWebhookTry(attempts: number, since: string, now: Date): WebhookFailure {
  const pause = RETRY_SECONDS[Math.min(attempts - 1, RETRY_SECONDS.length - 1)]!;
  const retryAt = new Date(now.getTime() + pause * 1000);
  if (retryAt.getTime() > new Date(since).getTime() + GIVE_UP_AFTER_SECONDS * 1000) return { state: "given_up" };
  return { state: "failed", retryAt: retryAt.toISOString() };
}

/** Records a failed try (an error, a timeout, a non-2xx answer, a refused address): retried, or given up. */
export async function markWebhookFailed(
  db: DB,
  delivery: Pick<ClaimedDelivery, "id" | "attempts" | "created_at">,
  worker: string,
  answer: TryOutcome,
  now = new Date(),
): Promise<WebhookFailure> {
  const outcome = nextWebhookTry(delivery.attempts, delivery.created_at, now);
  await db
    .updateTable("webhook_deliveries")
    .set({
      state: outcome.state,
      next_attempt_at: outcome.state === "failed" ? outcome.retryAt : now.toISOString(),
      claimed_by: null,
      claimed_until: null,
      response_status: answer.status,
      response_excerpt: answer.excerpt,
      last_error: answer.error?.slice(0, 500) ?? null,
    })
    .where("id", "=", delivery.id)
    .where("claimed_by", "=", worker)
    .execute();
  return outcome;
}
