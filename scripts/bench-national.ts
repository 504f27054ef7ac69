/**
 * npm run bench:national — CONTRACT 23 measured: a national provider's volume on PostgreSQL,
 * two servers of two workers each (scripts/serve.mjs, as npm start runs) on one database, and
 * one table of what the contract limits. Exits 1 on any miss.
 *
 *   DATABASE_URL=postgres://…/national npm run bench:national -- [--learners N] [--if-empty]
 *
 * - the volume: seed:large --learners N (default 500,000), fresh (--force) unless --if-empty
 *   reuses a database that has one;
 * - the runner's AVETMISS readiness check of this and last year, which starts with the servers,
 *   awaited and timed (the pages are timed after it);
 * - every page of bench:pages, one warm request as its heaviest login (fastest of PAGE_RUNS);
 * - the load run: 20 virtual users for LOAD_SECONDS (60) spread over both servers — 8 learners
 *   browsing and enrolling, 5 trainers reading rolls and recording results, 5 administrators
 *   searching students and downloading a month's Xero invoices or the open complaints, 2
 *   employer users booking seats — through /api with
 *   bearer tokens (the pages' own model functions and schemas), each request's time recorded;
 * - a year's AVETMISS export, and each CSV's time to first byte and in total;
 * - each worker's peak resident memory (VmHWM in /proc/<pid>/status: the most it ever held);
 * - npm run audit:verify's time over the whole trail;
 * - the counts check: rows the load's accepted writes should have added, against rows added.
 *
 * BUILD_DIR (.build-bench; SKIP_BUILD=1 reuses it), BENCH_PORT (3190; the servers use it and the next),
 * BENCH_PARTS (pages,load,exports,verify: the parts to run).
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { sql } from "kysely";
import { openDatabase, type DB } from "../db/connection";
import { isPostgresUrl } from "../db/dialect";
import { checkReadiness, readinessYears, releaseReadinessClaims } from "../app/avetmiss/readiness.server";
import { organisation } from "../app/env.server";
import { checkpointAuditTrail } from "../app/models/audit-chain.server";
import { existingAuditKey, parseSettings } from "../app/env.server";
import { builtScript, hasBuild } from "./build.mjs";
import { bin, BUILD_DIR, PASSWORD, run, signIn, startChild, stopAll, stopChildrenOnExit, waitForServer } from "./bench-server";
import { LOGIN_EMAILS, PAGE_LIMIT_MS, pagesAtSize, signInEveryLogin, timePages } from "./bench-pages";

const LIMITS = { pageMs: PAGE_LIMIT_MS, p95Ms: 1_000, avetmissMs: 60_000, csvFirstByteMs: 1_000, rssMb: 300, auditVerifyMs: 180_000 };
const VIRTUAL_USERS = { learner: 8, trainer: 5, admin: 5, employer: 2 };
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS || 60);
/** BENCH_PARTS=pages,load (say) runs only those of pages, load, exports, verify: a miss looked into again without the whole run */
const PARTS = new Set((process.env.BENCH_PARTS || "pages,load,exports,verify").split(","));

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const url = process.env.DATABASE_URL ?? "";
const learners = Number(option("--learners") ?? 500_000);
const basePort = Number(process.env.BENCH_PORT || 3190);
const ports = [basePort, basePort + 1];

/**
 * The AVETMISS readiness check of this and last year, made before the servers start, so their
 * runner finds it current and none runs while the table's figures are measured: the runner
 * checks a year again when its records changed and the last check is 10 minutes old, which
 * after an earlier run's writes it did in the middle of the load run (two to three minutes of a
 * worker and the database). Its time is a figure of the table.
 */
async function readinessChecked(db: DB): Promise<void> {
  const now = new Date();
  const took: string[] = [];
  // no server of this run is up yet: a year still claimed was claimed by an earlier run's
  // servers, stopped in the middle of their check (the claim would keep this check from running,
  // then let the runner check in the middle of the measuring)
  await releaseReadinessClaims(db);
  for (const year of readinessYears(now)) {
    const started = performance.now();
    const outcome = await checkReadiness(db, year, organisation(), { now, recheckAfterMs: 0 });
    took.push(`${year} ${outcome === "checked" ? ms(performance.now() - started) : outcome}`);
  }
  record("readiness check before the servers", took.join(", "), "done", true);
}

/**
 * The audit trail's checkpoints brought up to its head before the servers start, with the key
 * they sign with (data/audit-key), so their runner's checkpoint job has only the load's new
 * entries to verify: a trail seeded or grown by earlier runs has up to 500,000 entries waiting
 * per run of that job, ten seconds of a worker's CPU in the middle of the load run.
 */
async function checkpointsCaughtUp(db: DB): Promise<void> {
  const key = existingAuditKey(parseSettings({ ...process.env, NODE_ENV: "production" }));
  if (!key) {
    record("audit checkpoints before the servers", "no key yet: the servers make one", "done", true);
    return;
  }
  const started = performance.now();
  let verified = 0;
  for (;;) {
    const run = await checkpointAuditTrail(db, { key });
    verified += run.verified;
    if (run.verified === 0 || run.checkpoint === null) break;
  }
  record("audit checkpoints before the servers", `${verified.toLocaleString("en-AU")} entries in ${ms(performance.now() - started)}`, "done", true);
}

/** The servers' runner found the readiness current: no year is being checked again (see readinessChecked). */
async function readinessUntouched(db: DB): Promise<void> {
  // the runner's first pass comes within seconds of a worker's start
  await new Promise((r) => setTimeout(r, 10_000));
  const claimed = await db.selectFrom("avetmiss_readiness").select("year").where("claimed_until", "is not", null).execute();
  record(
    "readiness: no check while measuring",
    claimed.length ? `the runner is checking ${claimed.map((c) => c.year).join(", ")}` : "none",
    "none",
    claimed.length === 0,
  );
}

interface Row {
  what: string;
  value: string;
  limit: string;
  ok: boolean;
}
const table: Row[] = [];
const record = (what: string, value: string, limit: string, ok: boolean) => table.push({ what, value, limit, ok });

function env(port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    FAST_PASSWORD_HASH: "true",
    LOG_LEVEL: "silent",
    DATABASE_URL: url,
    PORT: String(port),
    WEB_CONCURRENCY: "2",
    APP_URL: `http://127.0.0.1:${port}`,
    TRUST_PROXY: "true",
    SESSION_SECRET: process.env.SESSION_SECRET || "bench-national-secret-bench-national-secret",
  };
}

/** Each server's worker processes: the children of its cluster primary. */
function workerPids(primary: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return fs.readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1]!.split(" ")[1] === String(primary);
      } catch {
        return false;
      }
    })
    .map(Number);
}

function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

/** One GET: time to the first byte of the body and to its end, and the status. */
function timed(port: number, urlPath: string, headers: Record<string, string>): Promise<{ status: number; firstByte: number; total: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByte = 0;
    let bytes = 0;
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, headers }, (res) => {
      res.on("data", (c: Buffer) => {
        if (!firstByte) firstByte = performance.now() - started;
        bytes += c.length;
      });
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, firstByte: firstByte || performance.now() - started, total: performance.now() - started, bytes }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

async function apiToken(port: number, email: string, client: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": client },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (r.status !== 200) throw new Error(`API sign-in of ${email} gave ${r.status}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

/**
 * One request of the load run as a phone or the office's browser makes it: gzip accepted, the
 * body read to its last byte as it arrives, and decompressed only when the user reads it (a
 * learner's own enrolments). fetch decompressed every body in this process: in the load minute
 * the month's Xero files alone kept a third of the machine's two cores busy here, which the
 * servers being measured then did not have (docs/decisions/044).
 */
function send(
  port: number,
  method: string,
  urlPath: string,
  headers: Record<string, string>,
  body?: unknown,
  read = false,
): Promise<{ status: number; body: Buffer }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: urlPath,
        method,
        agent: keepAlive,
        headers: {
          ...headers,
          "Accept-Encoding": "gzip",
          ...(payload === undefined ? {} : { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => read && chunks.push(c));
        res.on("end", () => {
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body: read && res.headers["content-encoding"] === "gzip" ? zlib.gunzipSync(raw) : raw });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The load run's connections, kept open between requests as a browser keeps them. */
const keepAlive = new http.Agent({ keepAlive: true });

interface LoadResult {
  times: number[];
  /** each request's time by who made it and what it asked (method and path without ids) */
  byKind: Map<string, number[]>;
  errors: string[];
  created: { enrollments: number; assessments: number; group_bookings: number };
}

/** What the load's virtual users act on, read before it starts. */
async function loadPlan(db: DB) {
  const take = async <T>(q: Promise<T[]>) => q;
  const openCourses = (
    await db
      .selectFrom("courses")
      .select("id")
      .where("is_active", "=", 1)
      .where("id", "not in", db.selectFrom("classes").select("course_id"))
      .orderBy("unit_code")
      .execute()
  ).map((c) => c.id);
  // learners in none of the open courses yet, so each run enrols (an earlier run's learners have taken them all)
  const learnerRows = await take(
    db
      .selectFrom("users")
      .select(["id", "email"])
      .where("role", "=", "student")
      .where("is_active", "=", 1)
      .where("email", "like", "%@students.example.com")
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("enrollments")
              .select("enrollments.id")
              .whereRef("enrollments.student_id", "=", "users.id")
              .where("enrollments.course_id", "in", openCourses.length ? openCourses : [""]),
          ),
        ),
      )
      .orderBy("email")
      .limit(VIRTUAL_USERS.learner)
      .execute(),
  );
  // trainers with results still to record: each run records up to 50 per trainer and each
  // enrolment once, so the first trainers run out after a few runs and the next ones take over
  const candidates = await db
    .selectFrom("users")
    .select(["id", "email"])
    .where("role", "=", "trainer")
    .where("email", "like", "trainer.%@staff.example.com")
    .orderBy("email")
    .execute();
  const trainerWork: Array<{ id: string; email: string; classIds: string[]; enrollmentIds: string[] }> = [];
  for (const t of candidates) {
    if (trainerWork.length === VIRTUAL_USERS.trainer) break;
    const enrollmentIds = (
      await db
        .selectFrom("enrollments")
        .innerJoin("classes", "classes.id", "enrollments.class_id")
        .innerJoin("users", "users.id", "enrollments.student_id")
        .select("enrollments.id")
        .where("classes.trainer_id", "=", t.id)
        // a result is refused (409) for an inactive learner's enrolment or before training began
        .where("users.is_active", "=", 1)
        .where("classes.start_date", "<", new Date().toISOString().slice(0, 10))
        .where("enrollments.status", "=", "in_progress")
        // none open of the kind the load records: the model settles an open one in place (one row
        // per assessment), and each accepted write here is to add a row the counts check finds
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom("assessments")
                .select("assessments.id")
                .whereRef("assessments.enrollment_id", "=", "enrollments.id")
                .where("assessments.assessment_type", "=", "Practical")
                .where("assessments.status", "in", ["in_progress", "resubmission"]),
            ),
          ),
        )
        .orderBy("enrollments.id")
        .limit(50)
        .execute()
    ).map((e) => e.id);
    if (enrollmentIds.length < 50) continue;
    const classIds = (await db.selectFrom("classes").select("id").where("trainer_id", "=", t.id).orderBy("start_date", "desc").limit(5).execute()).map(
      (c) => c.id,
    );
    trainerWork.push({ ...t, classIds, enrollmentIds });
  }
  if (trainerWork.length < VIRTUAL_USERS.trainer) throw new Error(`Only ${trainerWork.length} trainers have 50 results to record; seed again (--force).`);
  const adminRows = await take(db.selectFrom("users").select("email").where("role", "=", "admin").orderBy("email").limit(VIRTUAL_USERS.admin).execute());
  const today = new Date().toISOString().slice(0, 10);
  const upcoming = (
    await db.selectFrom("classes").select("id").where("start_date", ">", today).where("cancelled_at", "is", null).orderBy("start_date").limit(200).execute()
  ).map((c) => c.id);
  const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  return { learnerRows, openCourses, trainerWork, adminEmails: adminRows.map((a) => a.email), upcoming, today, monthAgo };
}

async function loadRun(plan: Awaited<ReturnType<typeof loadPlan>>): Promise<LoadResult> {
  const result: LoadResult = { times: [], byKind: new Map(), errors: [], created: { enrollments: 0, assessments: 0, group_bookings: 0 } };
  const until = Date.now() + LOAD_SECONDS * 1000;
  let turn = 0;
  const base = () => ports[turn++ % 2]!;
  const call = async (who: string, method: string, pathName: string, auth: Record<string, string>, body?: unknown, ok = [200, 201]) => {
    const started = performance.now();
    try {
      const r = await send(base(), method, pathName, auth, body);
      const took = performance.now() - started;
      result.times.push(took);
      const kind = `${who} ${method} ${pathName.split("?")[0]!.replace(/[0-9a-f-]{36}/g, ":id")}`;
      result.byKind.set(kind, [...(result.byKind.get(kind) ?? []), took]);
      if (!ok.includes(r.status)) result.errors.push(`${who} ${method} ${pathName}: ${r.status}`);
      return r.status;
    } catch (error) {
      result.errors.push(`${who} ${method} ${pathName}: ${(error as Error).message}`);
      return 0;
    }
  };
  const users: Array<() => Promise<void>> = [];
  let client = 0;
  const bearer = async (email: string) => {
    const ip = `198.51.100.${++client}`;
    return { Authorization: `Bearer ${await apiToken(ports[client % 2]!, email, ip)}`, "X-Forwarded-For": ip };
  };

  for (const learner of plan.learnerRows) {
    const auth = await bearer(learner.email);
    users.push(async () => {
      const mine = new Set<string>();
      for (let i = 0; Date.now() < until; i++) {
        await call("learner", "GET", "/api/courses", auth);
        const list = JSON.parse((await send(base(), "GET", "/api/enrollments/my", auth, undefined, true)).body.toString("utf8")) as Array<{
          course_id: string;
        }>;
        for (const e of list) mine.add(e.course_id);
        await call("learner", "GET", "/api/certificates/my", auth);
        const course = plan.openCourses.find((c) => !mine.has(c));
        if (i % 3 === 0 && course) {
          mine.add(course);
          if ((await call("learner", "POST", "/api/enrollments", auth, { course_id: course })) === 201) result.created.enrollments++;
        }
      }
    });
  }
  for (const trainer of plan.trainerWork) {
    const auth = await bearer(trainer.email);
    users.push(async () => {
      for (let i = 0; Date.now() < until; i++) {
        const classId = trainer.classIds[i % Math.max(1, trainer.classIds.length)];
        if (classId) await call("trainer", "GET", `/api/classes/${classId}/roster`, auth);
        // each enrolment once: a second in-progress result would settle the first, not add a row
        const enrollment = trainer.enrollmentIds[i];
        if (enrollment) {
          const status = await call("trainer", "POST", "/api/assessments", auth, {
            enrollment_id: enrollment,
            assessment_type: "Practical",
            status: "in_progress",
            score: null,
            max_score: null,
            assessment_date: plan.today,
            feedback: "Load run: observed practice.",
          });
          if (status === 201 || status === 200) result.created.assessments++;
        }
      }
    });
  }
  for (const [k, email] of plan.adminEmails.entries()) {
    const cookie = await signIn(ports[k % 2]!, email);
    const auth = { Cookie: cookie, "X-Forwarded-For": `198.51.100.${++client}` };
    users.push(async () => {
      for (let i = 0; Date.now() < until; i++) {
        await call("admin", "GET", `/admin/students?q=${["smith", "nguyen", "patel", "lee"][i % 4]}`, auth);
        await call("admin", "GET", "/admin/overview", auth);
        // the office's everyday downloads: the last month's invoices for Xero and the open
        // complaints. The whole-organisation exports (the students list is 700 MB at 500,000
        // learners, minutes to write) are measured on their own in part 3, first byte and memory:
        // five of them at once inside the minute would measure those exports, not the users.
        if (i % 10 === k)
          await call(
            "admin",
            "GET",
            i % 20 < 10 ? `/admin/finance/xero.csv?from=${plan.monthAgo}&to=${plan.today}` : "/admin/complaints.csv?status=open",
            auth,
          );
      }
    });
  }
  for (let k = 0; k < VIRTUAL_USERS.employer; k++) {
    const auth = await bearer(LOGIN_EMAILS.employer);
    users.push(async () => {
      for (let i = 0; Date.now() < until; i++) {
        await call("employer", "GET", "/api/employer/bookings", auth);
        const classId = plan.upcoming[(i * VIRTUAL_USERS.employer + k) % Math.max(1, plan.upcoming.length)];
        if (i % 4 === 0 && classId) {
          // a full class answers 409: a refusal, not an error
          const status = await call("employer", "POST", "/api/employer/bookings", auth, { class_id: classId, seats: 1, workers: [] }, [200, 201, 409]);
          if (status === 201 || status === 200) result.created.group_bookings++;
        }
      }
    });
  }
  await Promise.all(users.map((u) => u()));
  return result;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function main() {
  if (!isPostgresUrl(url)) throw new Error("bench:national runs on PostgreSQL: set DATABASE_URL=postgres://…");
  stopChildrenOnExit();
  const buildEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", BUILD_DIR };
  if (process.env.SKIP_BUILD === "1" && hasBuild(BUILD_DIR)) console.log(`Reusing the build in ${BUILD_DIR}.`);
  else run(process.execPath, ["scripts/build.mjs"], buildEnv);
  run(bin("tsx"), ["scripts/seed-large.ts", "--learners", String(learners), process.argv.includes("--if-empty") ? "--if-empty" : "--force"], {
    ...process.env,
    DATABASE_URL: url,
  });

  const db = openDatabase(url);
  const servers: ChildProcess[] = [];
  try {
    await db.deleteFrom("request_limits").execute();
    const volume = await sql<{ learners: number; enrollments: number; audit: number }>`
      select (select count(*) from users where role = 'student') as learners, (select count(*) from enrollments) as enrollments, (select count(*) from audit_log) as audit`.execute(
      db,
    );
    const v = volume.rows[0]!;
    console.log(`Volume: ${v.learners} learners, ${v.enrollments} enrolments, ${v.audit} audit entries.`);

    await readinessChecked(db);
    await checkpointsCaughtUp(db);
    for (const port of ports)
      servers.push(
        startChild(process.execPath, [path.resolve("scripts/serve.mjs"), path.join(BUILD_DIR, "index.js")], {
          env: env(port),
          stdio: ["ignore", "ignore", "inherit"],
        }),
      );
    await Promise.all(ports.map((p) => waitForServer(p)));
    await readinessUntouched(db);

    // 1. every page, warm, as its heaviest login
    const cookies = await signInEveryLogin(ports[0]!);
    if (PARTS.has("pages")) {
      const wrong: string[] = [];
      const timings = await timePages(ports[0]!, cookies, await pagesAtSize(db), undefined, wrong);
      for (const w of wrong) record("  page answered wrong", w, "its status", false);
      const slow = timings.filter((t) => t.ms > LIMITS.pageMs).sort((a, b) => b.ms - a.ms);
      const slowest = [...timings].sort((a, b) => b.ms - a.ms)[0]!;
      record(`pages (${timings.length}), slowest warm`, `${ms(slowest.ms)} ${slowest.login} ${slowest.url}`, `≤ ${LIMITS.pageMs} ms each`, slow.length === 0);
      for (const t of slow) record("  page over the limit", `${ms(t.ms)} ${t.login} ${t.url}`, `≤ ${LIMITS.pageMs} ms`, false);
    }

    if (PARTS.has("load")) {
      // 2. the load run, with the counts check around it
      const count = async () =>
        (
          await sql<{ enrollments: number; assessments: number; group_bookings: number }>`
          select (select count(*) from enrollments) as enrollments, (select count(*) from assessments) as assessments, (select count(*) from group_bookings) as group_bookings`.execute(
            db,
          )
        ).rows[0]!;
      const plan = await loadPlan(db);
      const before = await count();
      const load = await loadRun(plan);
      const after = await count();
      const sorted = [...load.times].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      record(
        `load: ${load.times.length} requests, 20 users, ${LOAD_SECONDS} s`,
        `p50 ${ms(percentile(sorted, 50))}, p95 ${ms(p95)}, p99 ${ms(percentile(sorted, 99))}`,
        `p95 ≤ ${LIMITS.p95Ms} ms`,
        p95 <= LIMITS.p95Ms,
      );
      for (const [kind, times] of [...load.byKind].sort(([a], [b]) => a.localeCompare(b))) {
        const own = [...times].sort((a, b) => a - b);
        record(
          `  ${kind} (${own.length})`,
          `p50 ${ms(percentile(own, 50))}, p95 ${ms(percentile(own, 95))}, max ${ms(own[own.length - 1]!)}`,
          "for reading",
          true,
        );
      }
      record("load: errors", `${load.errors.length}${load.errors.length ? ` (first: ${load.errors[0]})` : ""}`, "0", load.errors.length === 0);
      for (const key of ["enrollments", "assessments", "group_bookings"] as const) {
        const added = Number(after[key]) - Number(before[key]);
        record(`counts: ${key} added`, `${added} rows for ${load.created[key]} accepted writes`, "equal", added === load.created[key]);
      }
    }

    if (PARTS.has("exports")) {
      // 3. exports: a year's AVETMISS, each CSV's first byte and end
      const admin = { Cookie: cookies.admin!, "Accept-Encoding": "identity" };
      const year = new Date().getUTCFullYear() - 1;
      const avetmiss = await timed(ports[0]!, `/admin/reports/avetmiss.zip?year=${year}`, admin);
      record(
        `AVETMISS ${year} (zip, ${(avetmiss.bytes / 1e6).toFixed(1)} MB)`,
        `${ms(avetmiss.total)} (status ${avetmiss.status})`,
        `≤ ${LIMITS.avetmissMs / 1000} s`,
        avetmiss.status === 200 && avetmiss.total <= LIMITS.avetmissMs,
      );
      const today = new Date().toISOString().slice(0, 10);
      const csvs: Array<[string, string]> = [
        ["students", "/admin/export.csv"],
        ["audit", "/admin/audit.csv"],
        ["Xero", `/admin/finance/xero.csv?from=${year}-01-01&to=${today}`],
        ["HRW", "/admin/reports/hrw.csv"],
        ["complaints", "/admin/complaints.csv"],
      ];
      for (const [name, csvPath] of csvs) {
        const t = await timed(ports[0]!, csvPath, admin);
        record(
          `CSV ${name} (${(t.bytes / 1e6).toFixed(1)} MB)`,
          `first byte ${ms(t.firstByte)}, all ${ms(t.total)} (status ${t.status})`,
          `first byte ≤ ${LIMITS.csvFirstByteMs} ms`,
          t.status === 200 && t.firstByte <= LIMITS.csvFirstByteMs,
        );
      }
    }

    // 4. peak memory of every worker
    for (const [i, server] of servers.entries()) {
      for (const pid of workerPids(server.pid!)) {
        const peak = peakRssMb(pid);
        record(`peak RSS, server ${i + 1} worker ${pid}`, `${peak.toFixed(0)} MB`, `≤ ${LIMITS.rssMb} MB`, peak <= LIMITS.rssMb);
      }
    }
  } finally {
    stopAll();
    await db.destroy();
  }

  if (PARTS.has("verify")) {
    // 5. the whole trail verified
    const started = performance.now();
    const verify = spawnSync(process.execPath, [builtScript(BUILD_DIR, "audit-verify")], { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8" });
    const verifyMs = performance.now() - started;
    record(
      "audit:verify",
      `${ms(verifyMs)}: ${(verify.stdout || verify.stderr).trim().slice(0, 90)}`,
      `≤ ${LIMITS.auditVerifyMs / 1000} s, intact`,
      verify.status === 0 && verifyMs <= LIMITS.auditVerifyMs,
    );
  }

  const width = Math.max(...table.map((r) => r.what.length));
  console.log(
    `\nbench:national — ${learners.toLocaleString("en-AU")} learners, PostgreSQL, 2 servers × 2 workers (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`,
  );
  for (const r of table) console.log(`${r.ok ? "ok  " : "MISS"}  ${r.what.padEnd(width)}  ${r.value}  [${r.limit}]`);
  const misses = table.filter((r) => !r.ok).length;
  console.log(misses ? `\n${misses} miss(es) against CONTRACT 23.` : "\nEvery figure within CONTRACT 23.");
  return misses ? 1 : 0;
}

main()
  .then((code) => process.exit(code))
  .catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    stopAll();
    process.exit(1);
  });
