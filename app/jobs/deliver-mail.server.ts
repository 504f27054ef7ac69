import crypto from "node:crypto";
import type { DB } from "#db/connection";
import { renderContext, renderMail, type RenderContext } from "~/mail/templates.server";
import type { Mailer } from "~/mail/transport.server";
import {
  claimDueMail,
  hasDueMail,
  LEASE_SECONDS,
  markMailFailed,
  markMailSent,
  releaseMailClaims,
  releaseRunClaims,
  renewMailClaim,
  type ClaimedMessage,
} from "~/models/outbox.server";
import { logLine } from "~/utils/log.server";

/**
 * The outbox's delivery job: claim what is due (a lease, so no other worker sends it), render
 * it, send it through the transport, record the outcome. A failed send is retried on the
 * outbox's schedule and, after the last try, waits for staff (app/models/outbox.server.ts).
 * Log lines name the message and the recipient by id: never an address, a name or a link.
 */

export interface DeliveryOptions {
  mailer: Mailer;
  /** who holds the claims: the process's name (each run adds a suffix of its own) */
  worker: string;
  /** the clock, read at each claim and each outcome */
  now?: () => Date;
  leaseSeconds?: number;
  /** how many messages to claim at a time */
  batch?: number;
  /** deliver only these messages (a request's nudge), once each */
  ids?: string[];
  ctx?: RenderContext;
  /** asked between messages: true once the process is draining, so no new send starts */
  stopping?: () => boolean;
}

export interface DeliveryResult {
  sent: number;
  failed: number;
  givenUp: number;
}

/** An error as a log may keep it: addresses in a server's reply (550 <someone@…>) are cut out. */
function loggable(error: unknown): string {
  return String(error instanceof Error ? error.message : error)
    .replace(/<?[^\s<>@]+@[^\s<>@]+>?/g, "[address]")
    .slice(0, 300);
}

/** Why a message can never be sent, or null. */
function unsendable(message: ClaimedMessage, now: Date): string | null {
  if (!message.email) return "The recipient has no email address";
  const expiresAt = message.data.expiresAt;
  if (message.template === "password-reset" && typeof expiresAt === "string" && expiresAt <= now.toISOString()) {
    return "The reset link expired before it could be sent";
  }
  return null;
}

async function deliverOne(db: DB, message: ClaimedMessage, options: DeliveryOptions, result: DeliveryResult, left: Set<string>): Promise<void> {
  const now = options.now ?? (() => new Date());
  const ids = { message: message.id, recipient: message.recipient_id, template: message.template, attempt: message.attempts };
  const reason = unsendable(message, now());
  if (reason) {
    await markMailFailed(db, message, options.worker, reason, { now: now(), final: true });
    result.givenUp += 1;
    logLine({ event: "mail-given-up", ...ids, error: reason });
    return;
  }
  // a whole lease ahead of the send (the batch's claim may be older); lost, it is another's now
  const leaseEnds = performance.now() + (options.leaseSeconds ?? LEASE_SECONDS) * 1000;
  if (!(await renewMailClaim(db, message.id, options.worker, { now: now(), leaseSeconds: options.leaseSeconds }))) {
    logLine({ event: "mail-claim-lost", ...ids });
    return;
  }
  try {
    const mail = renderMail(message, { email: message.email, full_name: message.full_name }, options.ctx ?? renderContext());
    await options.mailer.send(mail);
    left.add(message.id);
  } catch (error) {
    const outcome = await markMailFailed(db, message, options.worker, String(error instanceof Error ? error.message : error), { now: now() });
    if (outcome.state === "given_up") result.givenUp += 1;
    else result.failed += 1;
    logLine({
      event: outcome.state === "given_up" ? "mail-given-up" : "mail-failed",
      ...ids,
      error: loggable(error),
      ...(outcome.state === "failed" ? { retryAt: outcome.retryAt } : {}),
    });
    return;
  }
  // The one window where a message can go twice: the server has accepted it, and a worker
  // that dies before this is recorded leaves it unrecorded, so its lapsed lease sends it again.
  const recorded = await recordSent(db, message, options, leaseEnds, ids);
  result.sent += 1;
  logLine({ event: recorded ? "mail-sent" : "mail-sent-lease-lost", ...ids });
}

/** The pauses between tries to record a message sent, while the database refuses (busy, unreachable). */
const RECORD_PAUSES_MS = [100, 250, 500, 1_000, 2_000];

/**
 * Records a message sent. The mail has left, so a database that refuses the record for a moment
 * (SQLite busy past its timeout, a PostgreSQL pool with no free connection, a dropped
 * connection) must not leave the claim to lapse: another worker would send the message again
 * while this one lives. Tried again while the claim holds; an error past its end is thrown
 * (the message then goes twice, as if this worker had died).
 */
async function recordSent(db: DB, message: ClaimedMessage, options: DeliveryOptions, leaseEnds: number, ids: Record<string, unknown>): Promise<boolean> {
  const now = options.now ?? (() => new Date());
  for (let i = 0; ; i++) {
    try {
      return await markMailSent(db, message, options.worker, now());
    } catch (error) {
      const pause = RECORD_PAUSES_MS[Math.min(i, RECORD_PAUSES_MS.length - 1)]!;
      if (performance.now() + pause >= leaseEnds) throw error;
      logLine({ event: "mail-record-retry", ...ids, error: loggable(error) });
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/**
 * Delivers what is due: claims a batch, sends each, and claims again until nothing is left
 * (or, with `ids`, those messages once). Never throws: an error of the database is logged and
 * the next run tries again.
 */
export async function deliverDueMail(db: DB, input: DeliveryOptions): Promise<DeliveryResult> {
  // each run claims under a name of its own: a request's nudge and the runner in one process are
  // two claimants, so neither can renew or record a claim the other holds
  const options = { ...input, worker: `${input.worker}/${crypto.randomBytes(3).toString("hex")}` };
  const now = options.now ?? (() => new Date());
  const result: DeliveryResult = { sent: 0, failed: 0, givenUp: 0 };
  // what of this run's claims the mail server accepted
  const left = new Set<string>();
  try {
    // an idle outbox costs one read, and writes nothing
    if (!options.ids && !(await hasDueMail(db, now()))) return result;
    for (;;) {
      if (options.stopping?.()) break;
      const batch = await claimDueMail(db, { worker: options.worker, now: now(), leaseSeconds: options.leaseSeconds, limit: options.batch, ids: options.ids });
      if (batch.length === 0) break;
      for (const [i, message] of batch.entries()) {
        if (options.stopping?.()) {
          // what this worker claimed and will not send is let go at once, not at the lease's end
          await releaseMailClaims(
            db,
            batch.slice(i).map((m) => m.id),
            options.worker,
          );
          return result;
        }
        await deliverOne(db, message, options, result, left);
      }
      if (options.ids) break;
    }
  } catch (error) {
    logLine({ event: "job-error", job: "mail", error: loggable(error) });
    // The database failed mid-run (a restart): what this run claimed and never handed to the
    // mail server (a claim whose commit the dropped connection hid included) is let go as soon
    // as the database answers, so it leaves within seconds of recovery instead of after the
    // lease. A message the mail server accepted is kept: its claim lapses as a dead worker's
    // would (the one duplicate the outbox allows).
    await releaseOnRecovery(db, [...left], options);
  }
  return result;
}

/** The pause between tries to let claims go while the database is away. */
const RELEASE_PAUSE_MS = 1_000;

/**
 * Lets this run's unsent claims go, tried again while the database refuses, until the lease
 * would have ended anyway (or the process drains: then the lease lets them go).
 */
async function releaseOnRecovery(db: DB, keep: string[], options: DeliveryOptions): Promise<void> {
  const until = performance.now() + (options.leaseSeconds ?? LEASE_SECONDS) * 1000;
  while (!options.stopping?.() && performance.now() + RELEASE_PAUSE_MS < until) {
    try {
      const released = await releaseRunClaims(db, options.worker, keep);
      if (released > 0) logLine({ event: "mail-claims-released", messages: released });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, RELEASE_PAUSE_MS));
    }
  }
}
