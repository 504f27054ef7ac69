/**
 * The cluster (scripts/serve.mjs) as an operator meets it, against the production build:
 *
 * 1. a bad WEB_CONCURRENCY is one clear line and exit code 1;
 * 2. two workers share one port and one database: after a course is renamed through one request,
 *    every later request for the cached anonymous catalogue shows the new name, whichever worker
 *    answers (Linux's cluster hands new connections to the workers in turn, and each request here
 *    is its own connection, so both workers answer both before and after the write);
 * 2b. the seat rule across workers on SQLite: 20 learners booking a 5-seat class at the same
 *    moment, spread over both workers, get exactly 5 seats;
 * 3. a worker killed with SIGKILL is replaced, and the port keeps answering meanwhile;
 * 4. SIGTERM drains: a request in flight (its body half sent) is answered, then the primary
 *    exits 0 and the port closes;
 * 5. the outbox with four workers: 500 messages queued in the database are delivered by the
 *    workers' runners to a local SMTP sink, each exactly once, none lost.
 *
 * npm run test:workers
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import http from "node:http";
import { builtScript, ensureBuild } from "./build.mjs";
import { awaitBulkMail, queueBulkMail } from "../tests/support/bulk-mail";
import { startMailSink } from "../tests/support/mail-sink";

const port = Number(process.env.WORKERS_PORT ?? 3213);
const buildDir = process.env.BUILD_DIR ?? "build";
const dbFile = path.resolve("tests/.tmp/workers.db");
const base = `http://127.0.0.1:${port}`;
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(port),
  BUILD_DIR: buildDir,
  DATABASE_URL: `file:${dbFile}`,
  SESSION_SECRET: "workers-secret-workers-secret-workers-0001",
  FAST_PASSWORD_HASH: "true",
  TRUST_PROXY: "true",
  LOG_LEVEL: "silent",
  WEB_CONCURRENCY: "2",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures: string[] = [];
let passed = 0;
function check(ok: boolean, what: string) {
  if (ok) passed++;
  else failures.push(what);
  console.log(`${ok ? "✓" : "✘"} ${what}`);
}

/** One request on a connection of its own (no keep-alive), so the cluster picks a worker for it. */
function request(method: string, urlPath: string, options: { body?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${base}${urlPath}`, { method, agent: false, headers: { Connection: "close", ...options.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    // an answer that never comes fails the step instead of hanging the whole npm test
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${urlPath}: no answer in 60 s`)));
    req.on("error", reject);
    req.end(options.body);
  });
}

function workerPids(primary: number): number[] {
  const out = spawnSync("pgrep", ["-P", String(primary)], { encoding: "utf8" }).stdout;
  return out.split(/\s+/).filter(Boolean).map(Number);
}

/** The learners this test registers need a password the password rule accepts (the demo's is too common). */
const SEEKER_PASSWORD = "Seat-Seeker-Rigging-42";

async function startCluster(workers = 2, extra: Record<string, string> = {}): Promise<ChildProcess> {
  const cluster = spawn(process.execPath, ["scripts/serve.mjs", path.join(buildDir, "index.js")], {
    env: { ...env, WEB_CONCURRENCY: String(workers), ...extra },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    const up = await request("GET", "/login").then(
      (r) => r.status === 200,
      () => false,
    );
    if (up && workerPids(cluster.pid!).length === workers) return cluster;
    await sleep(100);
  }
  cluster.kill("SIGKILL");
  throw new Error(`the cluster did not start ${workers} workers`);
}

function exited(child: ChildProcess, ms: number): Promise<number | null | "timeout"> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve("timeout"), ms);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

async function main() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(dbFile + s, { force: true });
  ensureBuild(buildDir, env);
  if (spawnSync(process.execPath, [builtScript(buildDir, "prepare")], { stdio: ["ignore", "ignore", "inherit"], env }).status !== 0)
    throw new Error("prepare failed");

  // 1. a bad worker count
  const bad = spawnSync(process.execPath, ["scripts/serve.mjs"], { env: { ...env, WEB_CONCURRENCY: "two" }, encoding: "utf8" });
  check(bad.status === 1 && bad.stderr.trim().split("\n").length === 1 && /WEB_CONCURRENCY/.test(bad.stderr), "WEB_CONCURRENCY=two: one line, exit code 1");

  const cluster = await startCluster();
  try {
    check(workerPids(cluster.pid!).length === 2, "WEB_CONCURRENCY=2 starts two workers");

    // 2. a write through one worker is seen by the other's page cache at once
    const login = await request("POST", "/api/auth/login", {
      body: JSON.stringify({ email: "admin@example.com", password: "password123" }),
      headers: { "Content-Type": "application/json", Accept: "application/json" },
    });
    const token = (JSON.parse(login.body) as { access_token: string }).access_token;
    const catalogue = await request("GET", "/courses");
    const before = /Licence to perform dogging \(DG\)/.test(catalogue.body);
    const warmed = await Promise.all(Array.from({ length: 10 }, (_, i) => sleep(i * 20).then(() => request("GET", "/courses"))));
    check(before && warmed.every((r) => r.status === 200 && r.body.includes("Licence to perform dogging (DG)")), "both workers serve the catalogue (cached)");
    const courses = await request("GET", "/api/courses?search=dogging", { headers: { Accept: "application/json" } });
    const dogging = JSON.parse(courses.body) as { courses?: Array<{ id: string; name: string }> } | Array<{ id: string; name: string }>;
    const list = Array.isArray(dogging) ? dogging : (dogging.courses ?? []);
    const course = list.find((c) => c.name === "Licence to perform dogging (DG)");
    if (!course) throw new Error("the demo dogging course was not found over /api");
    const renamed = "Licence to perform dogging (DG) — renamed by a worker";
    const put = await request("PUT", `/api/admin/courses/${course.id}`, {
      body: JSON.stringify({ name: renamed }),
      headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer ${token}` },
    });
    check(put.status === 200, `the course is renamed through one worker (PUT answered ${put.status})`);
    const after = [];
    for (let i = 0; i < 12; i++) after.push(await request("GET", "/courses"));
    const fresh = after.filter((r) => r.body.includes(renamed)).length;
    check(fresh === after.length, `every later catalogue shows the new name, whichever worker answers (${fresh} of ${after.length})`);

    // 2b. 20 simultaneous bookings of a 5-seat class, whichever worker answers each: exactly 5
    const json = (t: string | null) => ({ "Content-Type": "application/json", Accept: "application/json", ...(t ? { Authorization: `Bearer ${t}` } : {}) });
    const trainerLogin = await request("POST", "/api/auth/login", {
      body: JSON.stringify({ email: "trainer@example.com", password: "password123" }),
      headers: json(null),
    });
    const trainerToken = (JSON.parse(trainerLogin.body) as { access_token: string }).access_token;
    const trainerId = (JSON.parse((await request("GET", "/api/auth/me", { headers: json(trainerToken) })).body) as { id: string }).id;
    const day = new Date(Date.now() + 40 * 864e5).toISOString().slice(0, 10);
    const added = await request("POST", `/api/admin/courses/${course.id}/classes`, {
      body: JSON.stringify({
        start_date: day,
        end_date: day,
        sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }],
        trainer_id: trainerId,
        seats: 5,
      }),
      headers: json(token),
    });
    const classId = (JSON.parse(added.body) as { id: string }).id;
    const seekers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const email = `seat.${i}@workers.example`;
        const headers = { ...json(null), "X-Forwarded-For": `198.18.${i}.2` };
        await request("POST", "/api/auth/register", { body: JSON.stringify({ full_name: `Seat Seeker ${i}`, email, password: SEEKER_PASSWORD }), headers });
        const r = await request("POST", "/api/auth/login", { body: JSON.stringify({ email, password: SEEKER_PASSWORD }), headers });
        return (JSON.parse(r.body) as { access_token: string }).access_token;
      }),
    );
    const booked = await Promise.all(
      seekers.map((t) => request("POST", "/api/enrollments", { body: JSON.stringify({ course_id: course.id, class_id: classId }), headers: json(t) })),
    );
    const seated = booked.filter((r) => r.status === 201).length;
    const full = booked.filter((r) => r.status === 409 && r.body.includes("This class is full")).length;
    check(added.status === 201 && seated === 5 && full === 15, `20 bookings of a 5-seat class over two workers: ${seated} seated, ${full} told it is full`);

    // 3. SIGKILL one worker: it is replaced, and the port answers meanwhile
    const [victim] = workerPids(cluster.pid!);
    process.kill(victim!, "SIGKILL");
    await sleep(50);
    const during = [];
    for (let i = 0; i < 20; i++)
      during.push(
        await request("GET", "/login").then(
          (r) => r.status,
          () => 0,
        ),
      );
    check(
      during.every((s) => s === 200),
      `the port keeps answering after a worker is killed (${during.filter((s) => s === 200).length} of 20)`,
    );
    let replaced = false;
    for (let i = 0; i < 100 && !replaced; i++) {
      const pids = workerPids(cluster.pid!);
      replaced = pids.length === 2 && !pids.includes(victim!);
      if (!replaced) await sleep(100);
    }
    check(replaced, "the killed worker is replaced");

    // 4. SIGTERM drains a request in flight, then exits 0
    const answer = new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      let text = "";
      socket.on("data", (d) => (text += d.toString()));
      socket.on("close", () => resolve(text));
      socket.on("error", () => resolve(text));
      const body = "email=nobody%40example.com&password=wrong-password";
      socket.write(
        `POST /login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nX-Forwarded-For: 10.99.0.1\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
      );
      setTimeout(() => {
        cluster.kill("SIGTERM");
        setTimeout(() => socket.write(body.slice(10)), 700);
      }, 300);
    });
    const response = await answer;
    check(/^HTTP\/1\.1 (200|400|401|403|429)/.test(response), `a request in flight at SIGTERM is answered (${response.split("\r\n")[0] || "no answer"})`);
    const drainStarted = Date.now();
    const code = await exited(cluster, 15_000);
    check(code === 0, `the primary exits 0 after draining (${code}, ${((Date.now() - drainStarted) / 1000).toFixed(1)} s after the answer)`);
    const closed = await request("GET", "/login").then(
      () => false,
      () => true,
    );
    check(closed, "the port is closed after the drain");
  } finally {
    if (cluster.exitCode === null) cluster.kill("SIGKILL");
    for (const pid of workerPids(cluster.pid!)) process.kill(pid, "SIGKILL");
  }

  // 5. four workers, one SQLite database, 500 messages: each delivered once
  const sink = await startMailSink();
  const keys = await queueBulkMail(env.DATABASE_URL!, 500, "workers-bulk");
  const four = await startCluster(4, { SMTP_URL: sink.url, APP_URL: base, JOBS_INTERVAL_SECONDS: "1" });
  try {
    const outcome = await awaitBulkMail(env.DATABASE_URL!, sink, keys);
    check(
      outcome.lost.length === 0 && outcome.doubled.length === 0,
      `4 workers deliver 500 queued messages in ${outcome.seconds.toFixed(1)} s: ${outcome.delivered} delivered, ${outcome.lost.length} lost, ${outcome.doubled.length} doubled, sent by ${outcome.workers} workers`,
    );
  } finally {
    four.kill("SIGTERM");
    await exited(four, 15_000);
    for (const pid of workerPids(four.pid!)) process.kill(pid, "SIGKILL");
    await sink.close();
  }

  console.log(`workers: ${passed} passed, ${failures.length} failed`);
  if (failures.length) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
