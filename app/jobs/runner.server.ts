import crypto from "node:crypto";
import os from "node:os";
import type { DB } from "#db/connection";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { getMailer } from "~/mail/transport.server";
import { organisation } from "~/env.server";
import { checkReadinessYears } from "~/avetmiss/readiness.server";
import { CHECKPOINT_EVERY_SECONDS, checkpointAuditTrail } from "~/models/audit-chain.server";
import { runClassJobs } from "~/models/class-jobs.server";
import { releaseUnfilledSeats } from "~/models/employers/group-booking.server";
import { queueDueReminders } from "~/models/hrw/hrw-reminders.server";
import { removeExpiredMail } from "~/models/outbox.server";
import { releaseStaleReviewHolds } from "~/models/review.server";
import { removeExpiredTokens } from "~/models/spent-tokens.server";
import { logLine } from "~/utils/log.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { deliverDueMail } from "./deliver-mail.server";
import { deliverDueWebhooks } from "./deliver-webhooks.server";

/**
 * The background runner: everything the portal does outside a request, in one place. One
 * interval (JOBS_INTERVAL_SECONDS, 5 s unless told) wakes it; each job runs when its own period
 * has passed; JOBS=off turns it off. It is started by the server process only
 * (scripts/serve-worker.mjs calls startJobs from the server build), never by importing a
 * module, so tests and scripts that load app code start nothing.
 *
 * Every worker of every server runs it: each job is safe to run at the same time as itself
 * elsewhere (the outbox's claims and keys; the jobs' marks, written in the transactions that
 * queue their mail). Jobs that queue mail run before the delivery, so their mail leaves in the
 * same wake-up. The two queues (mail, webhooks) are drained side by side: each drain runs until
 * its queue is empty, so one after the other a busy outbox would hold every webhook back for as
 * long as mail kept coming.
 */

export interface Job {
  name: string;
  /** the least time between two runs in one process (0: every wake-up) */
  everySeconds: number;
  run(db: DB, now: Date): Promise<unknown>;
  /** a queue's drain: runs beside the other drains, after the periodic jobs */
  drain?: true;
}

/** This process's name on the claims it holds. */
export const WORKER_ID = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;

interface RunnerState {
  timer?: ReturnType<typeof setInterval>;
  lastRun: Map<string, number>;
  /** the wake-up in progress, awaited when stopping */
  running?: Promise<void>;
  stopping: boolean;
  /** nudges in progress */
  nudges: Set<Promise<unknown>>;
  /** this process's AVETMISS readiness check in progress */
  readiness?: Promise<void>;
}

declare global {
  var __portalJobs: RunnerState | undefined;
}

function state(): RunnerState {
  globalThis.__portalJobs ??= { lastRun: new Map(), stopping: false, nudges: new Set() };
  return globalThis.__portalJobs;
}

export function jobsEnabled(): boolean {
  return env().JOBS !== "off";
}

const deliverMail = (db: DB, ids?: string[]) =>
  deliverDueMail(db, { mailer: getMailer(), worker: WORKER_ID, leaseSeconds: env().MAIL_LEASE_SECONDS, ids, stopping: () => state().stopping });

const deliverWebhooks = (db: DB, ids?: string[]) => deliverDueWebhooks(db, { worker: WORKER_ID, ids, stopping: () => state().stopping });

/**
 * Delivers the given webhook deliveries now, in the background ("Send again"); nothing when
 * JOBS=off (the runner of another process takes them at its next wake-up).
 */
export function deliverWebhooksNow(ids: string[], db: DB = getDb()): void {
  const s = state();
  if (ids.length === 0 || !jobsEnabled() || s.stopping) return;
  const nudge = deliverWebhooks(db, ids);
  s.nudges.add(nudge);
  void nudge.finally(() => s.nudges.delete(nudge));
}

const logRemoved = (event: "mail-removed" | "tokens-removed", count: number) => count > 0 && logLine({ event, count });

/** Retention of what is kept only for a while: sent mail past its keep, and one-time tokens no page could still send. */
async function removeExpired(db: DB, now: Date): Promise<void> {
  logRemoved("mail-removed", await removeExpiredMail(db, now));
  logRemoved("tokens-removed", await removeExpiredTokens(db, now));
}

/** The jobs, in the order a wake-up runs them. */
export const JOBS: Job[] = [
  // waitlist offers that lapsed pass on; class reminders; attendance alerts
  { name: "classes", everySeconds: 60, run: (db, now) => runClassJobs(db, { now }) },
  // licence-application reminders (high-risk work)
  { name: "licence-reminders", everySeconds: 15 * 60, run: (db, now) => queueDueReminders(db, organisationToday(now), now) },
  // a group booking's seats no worker took, on the release date the employer was shown
  { name: "booking-release", everySeconds: 15 * 60, run: (db, now) => releaseUnfilledSeats(db, now) },
  // seats held for a pre-enrolment review never taken go back to the class
  { name: "review-holds", everySeconds: 15 * 60, run: (db, now) => releaseStaleReviewHolds(db, now) },
  // the audit trail's entries since the last signed checkpoint verified, and a new checkpoint signed
  { name: "audit-checkpoint", everySeconds: CHECKPOINT_EVERY_SECONDS, run: (db, now) => checkpointAuditTrail(db, { now }) },
  // the AVETMISS readiness list of this and last year checked again when what it reads changed
  { name: "avetmiss-readiness", everySeconds: 60, run: (db, now) => checkReadinessInBackground(db, now) },
  // retention: sent mail past its keep (two years) removed, a bounded batch a pass, and one-time
  // tokens past theirs (SPENT_TOKEN_KEEP_DAYS), spent by forms and Idempotency-Keys
  { name: "retention", everySeconds: 6 * 60 * 60, run: removeExpired },
  // the outbox: whatever is due, the mail queued just above included
  { name: "mail", everySeconds: 0, drain: true, run: (db) => deliverMail(db) },
  // webhooks queued by the changes since the last wake-up (their own queue, the outbox's claims)
  { name: "webhooks", everySeconds: 0, drain: true, run: (db) => deliverWebhooks(db) },
];

/**
 * The AVETMISS readiness check beside the wake-ups, one at a time in this process: at a national
 * provider's volume it takes a minute, and the outbox must not wait for it. A stopping server
 * lets it go (the last check stands) and waits for it as for a nudge.
 */
function checkReadinessInBackground(db: DB, now: Date): Promise<void> {
  const s = state();
  if (s.readiness || s.stopping) return Promise.resolve();
  const check: Promise<void> = checkReadinessYears(db, organisation(), now, () => s.stopping)
    .then((outcomes) => {
      if (Object.values(outcomes).includes("checked")) logLine({ event: "avetmiss-readiness", worker: WORKER_ID, outcomes });
    })
    .catch((error) => logLine({ event: "job-error", job: "avetmiss-readiness", error: String(error instanceof Error ? error.message : error).slice(0, 300) }))
    .finally(() => {
      s.readiness = undefined;
      s.nudges.delete(check);
    });
  s.readiness = check;
  s.nudges.add(check);
  return Promise.resolve();
}

/**
 * One wake-up: each job whose period has passed, the periodic ones one after the other, then the
 * queues' drains together; a job's error is logged and the rest run.
 */
export async function runDueJobs(db: DB, now = new Date(), jobs: Job[] = JOBS): Promise<void> {
  const s = state();
  const due = (job: Job) => {
    const last = s.lastRun.get(job.name);
    if (last !== undefined && now.getTime() - last < job.everySeconds * 1000) return false;
    s.lastRun.set(job.name, now.getTime());
    return true;
  };
  const run = async (job: Job) => {
    try {
      await job.run(db, now);
    } catch (error) {
      logLine({ event: "job-error", job: job.name, error: String(error instanceof Error ? error.message : error).slice(0, 300) });
    }
  };
  for (const job of jobs.filter((j) => !j.drain)) {
    if (s.stopping) return;
    if (due(job)) await run(job);
  }
  if (s.stopping) return;
  await Promise.all(jobs.filter((j) => j.drain && due(j)).map(run));
}

/**
 * Starts the runner in this process (once: a second call, or a dev reload, keeps the one
 * timer). Nothing when JOBS=off. The first wake-up comes a second after start.
 */
export function startJobs(db: DB = getDb()): void {
  const s = state();
  if (s.timer || !jobsEnabled()) return;
  s.stopping = false;
  const wake = () => {
    if (s.running || s.stopping) return; // a long run (a big outbox) is not overlapped
    s.running = runDueJobs(db).finally(() => (s.running = undefined));
  };
  s.timer = setInterval(wake, env().JOBS_INTERVAL_SECONDS * 1000);
  s.timer.unref();
  setTimeout(wake, 1_000).unref();
  logLine({ event: "jobs-started", worker: WORKER_ID, jobs: JOBS.map((j) => j.name), everySeconds: env().JOBS_INTERVAL_SECONDS });
}

/**
 * Stops the runner (the server is draining): no new wake-up or send starts; the send in
 * progress finishes and is recorded, and messages claimed but not yet sent are let go at once.
 * Resolves when the work in progress is done.
 */
export async function stopJobs(): Promise<void> {
  const s = state();
  s.stopping = true;
  if (s.timer) clearInterval(s.timer);
  s.timer = undefined;
  await Promise.allSettled([s.running, ...s.nudges]);
}

/**
 * Delivers the given messages now, in this process, without waiting for the next wake-up (the
 * password-reset mail a request has just queued). In the background: never throws, and
 * nothing when JOBS=off (the runner of another process delivers it then).
 */
export function deliverNow(ids: string[], db: DB = getDb()): void {
  const s = state();
  if (ids.length === 0 || !jobsEnabled() || s.stopping) return;
  const nudge = deliverMail(db, ids);
  s.nudges.add(nudge);
  void nudge.finally(() => s.nudges.delete(nudge));
}
