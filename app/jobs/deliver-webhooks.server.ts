import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { DB } from "#db/connection";
import { resolveWebhookTarget, type AddressPolicy, type Lookup } from "~/models/webhook-address.server";
import {
  claimDueWebhooks,
  EXCERPT_CHARS,
  hasDueWebhooks,
  LEASE_SECONDS,
  markWebhookDelivered,
  markWebhookFailed,
  releaseWebhookClaims,
  renewWebhookClaim,
  TIMEOUT_MS,
  type ClaimedDelivery,
  type TryOutcome,
} from "~/models/webhooks.server";
import { isDomainError } from "~/utils/errors";
import { logLine } from "~/utils/log.server";

/**
 * The webhooks' delivery job: claim what is due, check where it goes (after resolving the name,
 * every time), sign it as Standard Webhooks asks and POST it, record the answer. A redirect is
 * an answer like any other non-2xx one: never followed, so a receiver cannot send the portal on
 * to an address the rule refuses. Log lines name the delivery and the endpoint by id only.
 */

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for each
 * secret (the current one first; a rotated-out one still in its overlap after it), space-separated.
 */
export function signWebhook(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
      return `v1,${crypto.createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}

export interface WebhookDeliveryOptions {
  worker: string;
  now?: () => Date;
  leaseSeconds?: number;
  batch?: number;
  ids?: string[];
  timeoutMs?: number;
  policy?: AddressPolicy;
  /** the resolver (tests give one that answers without a network) */
  lookup?: Lookup;
  stopping?: () => boolean;
}

export interface WebhookDeliveryResult {
  delivered: number;
  failed: number;
  givenUp: number;
}

/** One POST: the checked address is the one connected to (the lookup answers with it only). */
async function post(delivery: ClaimedDelivery, options: WebhookDeliveryOptions): Promise<TryOutcome & { ok: boolean }> {
  let target: Awaited<ReturnType<typeof resolveWebhookTarget>>;
  try {
    target = await resolveWebhookTarget(delivery.url, { policy: options.policy, lookup: options.lookup });
  } catch (error) {
    return { ok: false, status: null, excerpt: null, error: isDomainError(error) ? error.message : String(error) };
  }
  // the moment it leaves, by the wall clock (never the job's clock): receivers refuse a timestamp
  // far from their own time, as replay protection
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(delivery.payload)),
    "user-agent": "portal-webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(delivery.secrets, delivery.id, timestamp, delivery.payload),
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: TryOutcome & { ok: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const req = client.request(
      target.url,
      {
        method: "POST",
        headers,
        agent: false,
        // connect to the address that was checked, never one the resolver picks afterwards
        lookup: ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) =>
          opts?.all ? cb(null, [{ address: target.address, family: target.family }]) : cb(null, target.address, target.family)) as never,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (text.length < EXCERPT_CHARS) text += chunk;
        });
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          const ok = status >= 200 && status < 300;
          done({
            ok,
            status,
            excerpt: text.slice(0, EXCERPT_CHARS) || null,
            error: ok ? null : status >= 300 && status < 400 ? `Redirect to elsewhere not followed (${status})` : `Answered ${status}`,
          });
        });
        res.on("error", (e) => done({ ok: false, status: res.statusCode ?? null, excerpt: null, error: e.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy(new Error(`No answer within ${Math.round((options.timeoutMs ?? TIMEOUT_MS) / 1000)} s`));
    }, options.timeoutMs ?? TIMEOUT_MS);
    req.on("error", (e) => done({ ok: false, status: null, excerpt: null, error: e.message }));
    req.end(delivery.payload);
  });
}

async function deliverOne(db: DB, delivery: ClaimedDelivery, options: WebhookDeliveryOptions, result: WebhookDeliveryResult): Promise<void> {
  const now = options.now ?? (() => new Date());
  const ids = { delivery: delivery.id, endpoint: delivery.endpoint_id, attempt: delivery.attempts };
  if (!(await renewWebhookClaim(db, delivery.id, options.worker, { now: now(), leaseSeconds: options.leaseSeconds }))) {
    logLine({ event: "webhook-claim-lost", ...ids });
    return;
  }
  const outcome = await post(delivery, options);
  if (outcome.ok) {
    await markWebhookDelivered(db, delivery.id, options.worker, outcome, now());
    result.delivered += 1;
    logLine({ event: "webhook-delivered", ...ids, status: outcome.status });
    return;
  }
  const failure = await markWebhookFailed(db, delivery, options.worker, outcome, now());
  if (failure.state === "given_up") result.givenUp += 1;
  else result.failed += 1;
  logLine({ event: failure.state === "given_up" ? "webhook-given-up" : "webhook-failed", ...ids, status: outcome.status, error: outcome.error?.slice(0, 200) });
}

/** Delivers what is due, batch after batch. Never throws: a database error is logged, the next run tries again. */
export async function deliverDueWebhooks(db: DB, input: WebhookDeliveryOptions): Promise<WebhookDeliveryResult> {
  const options = { ...input, worker: `${input.worker}/${crypto.randomBytes(3).toString("hex")}` };
  const now = options.now ?? (() => new Date());
  const result: WebhookDeliveryResult = { delivered: 0, failed: 0, givenUp: 0 };
  try {
    if (!options.ids && !(await hasDueWebhooks(db, now()))) return result;
    for (;;) {
      if (options.stopping?.()) break;
      const batch = await claimDueWebhooks(db, {
        worker: options.worker,
        now: now(),
        leaseSeconds: options.leaseSeconds ?? LEASE_SECONDS,
        limit: options.batch,
        ids: options.ids,
      });
      if (batch.length === 0) break;
      for (const [i, delivery] of batch.entries()) {
        if (options.stopping?.()) {
          await releaseWebhookClaims(
            db,
            batch.slice(i).map((d) => d.id),
            options.worker,
          );
          return result;
        }
        await deliverOne(db, delivery, options, result);
      }
      if (options.ids) break;
    }
  } catch (error) {
    logLine({ event: "job-error", job: "webhooks", error: String(error instanceof Error ? error.message : error).slice(0, 300) });
  }
  return result;
}
