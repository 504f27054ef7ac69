/**
 * Crash safety: start the production server (the cluster of scripts/serve.mjs with
 * CRASH_WORKERS workers, 2 unless told), drive a stream of writes (registrations and
 * enrolments) recording which were acknowledged, SIGKILL every process of it at random moments,
 * restart it, and check that the database passes PRAGMA integrity_check and that every
 * acknowledged write is present exactly once.
 *
 * Mail is delivered all the while: each learner asks for a password reset (its mail is queued
 * with the token and sent at once by the worker that answered, through a local SMTP sink that
 * takes a moment to accept each message), so workers die mid-send. After the last crash the
 * server runs once more until the outbox is empty, and every acknowledged reset must have
 * arrived: none lost, and a message twice only in the one window the design allows: its worker
 * sent it whole and was killed before recording it (a kill between the two copies, judged by
 * tests/support/mail-copies.ts; README, "Background work and mail"). Acknowledged writes and
 * mails are counted apart. CRASH_SINK_DELAY_MS (30) widens the window; CRASH_LOG=file keeps the
 * servers' log lines.
 *
 * Webhooks the same way: an endpoint hears of every enrolment, and a local receiver that checks
 * each signature with the standardwebhooks package (tests/support/webhook-receiver.ts) takes a
 * moment to answer, so workers die mid-delivery. After the last run every acknowledged enrolment
 * must have reached it, under one webhook-id: a receiver that dedupes by id sees each event once.
 * The same id arriving twice is the outbox's one allowed duplicate (sent whole, its worker killed
 * before recording it), judged as the mail is: a kill between the two tries' starts.
 *
 * With TEST_DATABASE_URL naming a PostgreSQL server the same loop runs again on a fresh
 * PostgreSQL database there (its own check: every acknowledged write present exactly once).
 *
 * npm run test:crash [-- --cycles 20]
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import SQLite from "../db/sqlite-driver";
import { builtScript, ensureBuild } from "./build.mjs";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";
import { judgeCopies } from "../tests/support/mail-copies";
import { startMailSink, type MailSink } from "../tests/support/mail-sink";
import { startWebhookReceiver, type WebhookReceiver } from "../tests/support/webhook-receiver";

const cycles = Number(process.argv[process.argv.indexOf("--cycles") + 1]) || 20;
const port = Number(process.env.CRASH_PORT ?? 3190);
const buildDir = process.env.BUILD_DIR ?? "build";
const dbFile = path.resolve("tests/.tmp/crash.db");
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production" as const,
  PORT: String(port),
  SESSION_SECRET: "crash-secret-crash-secret-crash-secret-0001",
  FAST_PASSWORD_HASH: "true",
  TRUST_PROXY: "true",
  // CRASH_LOG=file keeps every server's log lines there (message ids, never addresses), to trace a failure
  LOG_LEVEL: process.env.CRASH_LOG ? "info" : "silent",
  WEB_CONCURRENCY: process.env.CRASH_WORKERS ?? "2",
  APP_URL: base,
  JOBS_INTERVAL_SECONDS: "1",
  // a killed worker's claims lapse in seconds, so the last run empties the outbox quickly; still
  // longer than a send takes on a loaded machine (the sink answers in 30 ms)
  MAIL_LEASE_SECONDS: "10",
  // the receiver listens on this machine
  WEBHOOKS_ALLOW_PRIVATE: "true",
};

let crashLogFd: number | undefined;
const logFd = () => (crashLogFd ??= fs.openSync(process.env.CRASH_LOG!, "a"));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How late this process may see a webhook try that was sent before a kill (see the webhook check). */
const RECEIVER_LAG_MS = 1_000;

function prepare() {
  if (!env.DATABASE_URL!.startsWith("postgres")) {
    fs.mkdirSync(path.dirname(dbFile), { recursive: true });
    for (const s of ["", "-wal", "-shm"]) fs.rmSync(dbFile + s, { force: true });
  }
  ensureBuild(buildDir, env);
  const p = spawnSync(process.execPath, [builtScript(buildDir, "prepare")], { stdio: "inherit", env });
  if (p.status !== 0) throw new Error("prepare failed");
}

async function startServer(): Promise<ChildProcess> {
  // its own process group, so one signal kills the primary and every worker at once
  const server = spawn(process.execPath, [path.resolve("scripts/serve.mjs"), path.join(buildDir, "index.js")], {
    env,
    stdio: process.env.CRASH_LOG ? ["ignore", logFd(), logFd()] : "ignore",
    detached: true,
  });
  // two minutes: a machine busy with other work starts a server slowly
  for (let i = 0; i < 2400; i++) {
    try {
      const r = await fetch(`${base}/login`);
      if (r.ok) return server;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  process.kill(-server.pid!, "SIGKILL");
  throw new Error("server did not start");
}

interface Acked {
  registrations: Set<string>;
  enrollments: Set<string>; // `${email} ${courseId}`
  /** learners whose password-reset request was answered: its mail is queued */
  resets: Set<string>;
}

const randomClient = () => `10.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

/** Each learner's password: one the password rule accepts (the demo's is refused as too common). */
const LEARNER_PASSWORD = "Crash-Hoist-Rigging-42";

/** One simulated learner: register, sign in, enrol; records each acknowledged step. */
async function learner(courseIds: string[], acked: Acked, client: string): Promise<void> {
  const email = `crash-${crypto.randomUUID().slice(0, 12)}@test.example`;
  const headers = { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client };
  const reg = await fetch(`${base}/register`, {
    method: "POST",
    headers,
    redirect: "manual",
    body: new URLSearchParams({ full_name: "Crash Tester", email, password: LEARNER_PASSWORD, confirm_password: LEARNER_PASSWORD, role: "student" }),
  });
  if (reg.status !== 302) return;
  acked.registrations.add(email);
  // a password reset (its mail queued and sent at once) beside the sign-in, so the journey to the
  // enrolments takes no longer than it did
  const [reset, login] = await Promise.all([
    fetch(`${base}/forgot-password`, {
      method: "POST",
      headers: { ...headers, "X-Forwarded-For": randomClient() },
      redirect: "manual",
      body: new URLSearchParams({ email }),
    }),
    fetch(`${base}/login`, { method: "POST", headers, redirect: "manual", body: new URLSearchParams({ email, password: LEARNER_PASSWORD }) }),
  ]);
  if (reset.status === 302) acked.resets.add(email);
  const cookie = login.headers
    .getSetCookie()
    .find((c) => c.startsWith("__session="))
    ?.split(";")[0];
  if (login.status !== 302 || !cookie) return;
  const picks = [...courseIds].sort(() => Math.random() - 0.5).slice(0, 3);
  for (const courseId of picks) {
    const enrol = await fetch(`${base}/enroll/${courseId}`, {
      method: "POST",
      headers: { ...headers, Cookie: cookie },
      redirect: "manual",
      body: new URLSearchParams({ terms: "on" }),
    });
    if (enrol.status === 302 && (enrol.headers.get("location") ?? "").startsWith("/student")) acked.enrollments.add(`${email} ${courseId}`);
  }
}

/** Queries on the loop's database, SQLite or PostgreSQL, with `?` placeholders. */
interface Reader {
  all<T>(sql: string, ...params: unknown[]): Promise<T[]>;
  run(sql: string, ...params: unknown[]): Promise<void>;
  integrity(): Promise<string>;
  close(): Promise<void>;
}

async function openReader(url: string): Promise<Reader> {
  if (url.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      all: async <T>(sql: string, ...params: unknown[]) => {
        let n = 0;
        return (
          await client.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as T[];
      },
      run: async (sql: string, ...params: unknown[]) => {
        let n = 0;
        await client.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        );
      },
      // PostgreSQL checks its own pages; what can be lost is an acknowledged write, counted below
      integrity: async () => ((await client.query("select 1 as ok")).rows[0] ? "ok" : "unreadable"),
      close: () => client.end(),
    };
  }
  const db = new SQLite(dbFile);
  return {
    all: async <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[],
    run: async (sql: string, ...params: unknown[]) => {
      db.prepare(sql).run(...params);
    },
    integrity: async () => String(db.pragma("integrity_check", { simple: true })),
    close: async () => {
      db.close();
    },
  };
}

let sink: MailSink;
let receiver: WebhookReceiver;

async function run(label: string, url: string, cycles: number): Promise<boolean> {
  env.DATABASE_URL = url;
  // CRASH_SINK_DELAY_MS widens the window in which a worker dies mid-send
  sink = await startMailSink({ delayMs: Number(process.env.CRASH_SINK_DELAY_MS ?? 30) });
  env.SMTP_URL = sink.url;
  receiver = await startWebhookReceiver({ delayMs: Number(process.env.CRASH_SINK_DELAY_MS ?? 30) });
  try {
    return await runWithSink(label, url, cycles);
  } finally {
    await sink.close();
    await receiver.stop();
  }
}

async function runWithSink(label: string, url: string, cycles: number): Promise<boolean> {
  prepare();
  const setup = await openReader(url);
  // the demo's licence courses ask for the pre-enrolment review first; this test measures what a
  // crash does to acknowledged writes, so its courses are set (as an admin may) to enrol directly
  await setup.run("update courses set review_required = 0 where is_active = 1");
  const courseIds = (await setup.all<{ id: string }>("select id from courses where is_active = 1")).map((r) => r.id);
  // an endpoint that hears of every enrolment, as an administrator registers one
  const secret = `whsec_${crypto.randomBytes(32).toString("base64")}`;
  receiver.secrets = [secret];
  const registeredAt = new Date().toISOString();
  await setup.run(
    `insert into webhook_endpoints (id, url, description, audience, events, secret, is_active, created_at, updated_at)
     values (?, ?, 'crash test', 'admin', '["enrolment.created"]', ?, 1, ?, ?)`,
    crypto.randomUUID(),
    receiver.url,
    secret,
    registeredAt,
    registeredAt,
  );
  await setup.close();

  const acked: Acked = { registrations: new Set(), enrollments: new Set(), resets: new Set() };
  const kills: number[] = [];
  let attempts = 0;
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const server = await startServer();
    let running = true;
    const workers = Array.from({ length: 6 }, async (_, w) => {
      while (running) {
        attempts++;
        await learner(courseIds, acked, `10.77.${cycle}.${w}`).catch(() => {});
      }
    });
    // a random moment, once this run has acknowledged an enrolment and a reset and its runner has
    // begun delivering webhooks (on a loaded machine a new server answers its first requests
    // slowly, and its runner first wakes a second after it starts; killing it before then tests nothing)
    const enrollmentsBefore = acked.enrollments.size;
    const resetsBefore = acked.resets.size;
    const webhooksBefore = receiver.received.length;
    for (let i = 0; i < 600 && (acked.enrollments.size === enrollmentsBefore || acked.resets.size === resetsBefore); i++) await sleep(50);
    // the runner's first delivery is waited for at most 8 s: under the loop's writes it can be
    // slow to come, and a cycle killed before it still tests the queue (the events wait in it)
    for (let i = 0; i < 160 && receiver.received.length === webhooksBefore; i++) await sleep(50);
    await sleep(400 + Math.random() * 1200);
    process.kill(-server.pid!, "SIGKILL");
    kills.push(Date.now());
    if (process.env.CRASH_LOG) fs.writeSync(logFd(), `${JSON.stringify({ time: new Date().toISOString(), event: "crash-test-kill", cycle })}\n`);
    running = false;
    await Promise.all(workers);
    await new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r(null) : server.once("exit", r)));
    process.stdout.write(
      `cycle ${cycle}: ${env.WEB_CONCURRENCY} workers killed; ${acked.registrations.size} registrations, ${acked.enrollments.size} enrolments and ${acked.resets.size} reset mails acknowledged so far, ${sink.received.length} mails and ${receiver.received.length} webhooks arrived\n`,
    );
  }

  // one more run, uninterrupted, until every acknowledged reset mail and enrolment webhook has
  // arrived (a killed worker's claims lapse after MAIL_LEASE_SECONDS, a webhook's after 60 s) or
  // 100 seconds have passed
  const last = await startServer();
  const arrivedFor = (email: string) => sink.received.filter((r) => r.to === email && r.key.startsWith("password-reset:"));
  for (
    let i = 0;
    i < 500 && ([...acked.resets].some((e) => arrivedFor(e).length === 0) || [...acked.enrollments].some((k) => !webhooksByEnrollment().has(k)));
    i++
  )
    await sleep(200);
  await sleep(1_500);
  process.kill(-last.pid!, "SIGTERM");
  await new Promise((r) => (last.exitCode !== null || last.signalCode !== null ? r(null) : last.once("exit", r)));

  const db = await openReader(url);
  const integrity = await db.integrity();
  const lost: string[] = [];
  const doubled: string[] = [];
  let writesDoubled = 0;
  for (const email of acked.registrations) {
    const n = (await db.all<{ n: number }>("select count(*) as n from users where email = ?", email)).map((r) => Number(r.n))[0]!;
    if (n === 0) lost.push(`registration ${email}`);
    if (n > 1) {
      writesDoubled++;
      doubled.push(`registration ${email}`);
    }
  }
  for (const key of acked.enrollments) {
    const [email, courseId] = key.split(" ");
    const n = (
      await db.all<{ n: number }>(
        "select count(*) as n from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?",
        email,
        courseId,
      )
    ).map((r) => Number(r.n))[0]!;
    if (n === 0) lost.push(`enrolment ${key}`);
    if (n > 1) {
      writesDoubled++;
      doubled.push(`enrolment ${key}`);
    }
  }
  await db.close();
  // mail: each acknowledged reset arrived; a second copy only in the crash window (tests/support/mail-copies.ts)
  const mail = { lost: 0, doubled: 0, inWindow: 0, acceptedAfterKill: 0 };
  for (const email of acked.resets) {
    const copies = arrivedFor(email);
    const verdict = judgeCopies(copies, kills);
    if (copies.length === 0) {
      mail.lost++;
      lost.push(`reset mail to ${email}`);
    } else if (verdict === "crash-window") {
      mail.inWindow++;
      // the sink accepted the first copy after the kill of its sender (it answers 30 ms late)
      if (kills.some((k) => k > copies[0]!.dataAt && k < copies[0]!.at)) mail.acceptedAfterKill++;
    } else if (verdict === "doubled") {
      mail.doubled++;
      const when = (t: number) => new Date(t).toISOString();
      doubled.push(
        `reset mail to ${email} (${copies.length} copies, message ids ${[...new Set(copies.map((c) => c.messageId))].join(" ")}, not each across a kill): ` +
          `DATA began ${copies.map((c) => when(c.dataAt)).join(", ")}; kills ${
            kills
              .filter((k) => k >= copies[0]!.dataAt - 15_000 && k <= copies.at(-1)!.at + 1_000)
              .map(when)
              .join(", ") || "none near"
          }`,
      );
    }
  }

  // webhooks: each acknowledged enrolment reached the receiver under one id, verified; the same id
  // twice only across a kill (sent whole, the worker killed before recording it)
  const hooks = { lost: 0, doubled: 0, inWindow: 0, seenAfterKill: 0, ids: new Set<string>() };
  const byEnrollment = webhooksByEnrollment();
  for (const key of acked.enrollments) {
    const copies = byEnrollment.get(key) ?? [];
    copies.forEach((c) => hooks.ids.add(c.id));
    if (copies.length === 0) {
      hooks.lost++;
      lost.push(`webhook for enrolment ${key}`);
      continue;
    }
    const ids = new Set(copies.map((c) => c.id));
    // The receiver runs in this process: a try sent whole just before a kill is seen here after
    // the kill when the timer that kills runs first in the same turn of the event loop (timers
    // before I/O), or when this process is starved on a loaded machine. A kill up to
    // RECEIVER_LAG_MS before the receiver saw a try counts as after it.
    const acrossAKill = (i: number) => kills.some((k) => k > copies[i]!.startedAt - RECEIVER_LAG_MS && k < copies[i + 1]!.startedAt);
    const eachAcrossAKill = copies.slice(1).every((_, i) => acrossAKill(i));
    if (ids.size > 1 || !eachAcrossAKill) {
      hooks.doubled++;
      const when = (t: number) => new Date(t).toISOString();
      doubled.push(
        `webhook for enrolment ${key} (${copies.length} tries, ids ${[...ids].join(" ")}): seen ${copies.map((c) => when(c.startedAt)).join(", ")}; ` +
          `kills ${
            kills
              .filter((k) => k >= copies[0]!.startedAt - 15_000 && k <= copies.at(-1)!.startedAt + 1_000)
              .map(when)
              .join(", ") || "none near"
          }`,
      );
    } else if (copies.length > 1) {
      hooks.inWindow++;
      if (copies.slice(1).some((_, i) => !kills.some((k) => k > copies[i]!.startedAt && k < copies[i + 1]!.startedAt))) hooks.seenAfterKill++;
    }
  }
  for (const problem of receiver.problems.slice(0, 20)) doubled.push(`webhook signature: ${problem}`);

  console.log(
    `crash test (${label}): ${cycles} crashes survived, ${attempts} learner journeys attempted, ` +
      `${env.WEB_CONCURRENCY} workers, ${acked.registrations.size + acked.enrollments.size} acknowledged writes checked, integrity ${integrity}, ` +
      `${lost.length - mail.lost} lost, ${writesDoubled} doubled; ${acked.resets.size} reset mails acknowledged: ${mail.lost} lost, ` +
      `${mail.inWindow} sent twice in the crash window (sent whole, the worker killed before recording it; ${mail.acceptedAfterKill} of them accepted by the server after the kill), ${mail.doubled} doubled otherwise; ` +
      `${acked.enrollments.size} enrolment webhooks expected, ${receiver.received.length} tries received, signatures ${receiver.problems.length === 0 ? "all verified" : `${receiver.problems.length} not verified`}: ` +
      `${hooks.lost} lost, ${hooks.ids.size} distinct webhook-ids (a deduping receiver acts on each event once), ${hooks.inWindow} sent again under their id across a kill (${hooks.seenAfterKill} of them seen here after the kill), ${hooks.doubled} doubled otherwise`,
  );
  const ok =
    integrity === "ok" && lost.length === 0 && doubled.length === 0 && acked.enrollments.size > 0 && acked.resets.size > 0 && receiver.received.length > 0;
  if (!ok) {
    for (const l of [...lost, ...doubled].slice(0, 20)) console.error(l);
    if (acked.enrollments.size === 0) console.error("no enrolment was acknowledged: the write stream did not run");
    if (acked.resets.size === 0) console.error("no password reset was acknowledged: no mail was sent");
  }
  return ok;
}

/** The webhooks received, by the enrolment they tell of (`email courseId`, as acknowledged), in order of arrival. */
function webhooksByEnrollment(): Map<string, WebhookReceiver["received"]> {
  const out = new Map<string, WebhookReceiver["received"]>();
  for (const r of receiver.received) {
    const payload = JSON.parse(r.body) as { type: string; data: { student?: { email?: string }; course?: { id?: string } } };
    if (payload.type !== "enrolment.created") continue;
    const key = `${payload.data.student?.email} ${payload.data.course?.id}`;
    out.set(key, [...(out.get(key) ?? []), r]);
  }
  return out;
}

async function main() {
  const results = [await run("SQLite", `file:${dbFile}`, cycles)];
  if (process.env.TEST_DATABASE_URL) {
    const name = uniqueDatabaseName("portal_crash");
    await createDatabase(name);
    try {
      // half as many crashes: the second dialect shares the suite's time budget
      results.push(await run("PostgreSQL", databaseUrl(name), Math.max(5, Math.ceil(cycles / 2))));
    } finally {
      await dropDatabase(name);
    }
  }
  const passed = results.filter(Boolean).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  if (passed < results.length) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
