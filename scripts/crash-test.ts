/**
 * Crash safety (issue 10): start the production server, drive a stream of writes (registrations
 * and enrolments) recording which were acknowledged, SIGKILL the server at random moments,
 * restart it, and check that the database passes PRAGMA integrity_check and that every
 * acknowledged write is present exactly once.
 *
 * npm run test:crash [-- --cycles 20]
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

const cycles = Number(process.argv[process.argv.indexOf("--cycles") + 1]) || 20;
const port = Number(process.env.CRASH_PORT ?? 3190);
const buildDir = process.env.BUILD_DIR ?? "build";
const dbFile = path.resolve("tests/.tmp/crash.db");
const base = `http://127.0.0.1:${port}`;
const bin = (name: string) => path.resolve("node_modules", ".bin", name);
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production" as const,
  PORT: String(port),
  DATABASE_URL: `file:${dbFile}`,
  SESSION_SECRET: "crash-secret-crash-secret-crash-secret-0001",
  FAST_PASSWORD_HASH: "true",
  TRUST_PROXY: "true",
  LOG_LEVEL: "silent",
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function prepare() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(dbFile + s, { force: true });
  if (!fs.existsSync(path.join(buildDir, "index.js"))) {
    const b = spawnSync(bin("remix"), ["build"], { stdio: "inherit", env: { ...env, BUILD_DIR: buildDir } });
    if (b.status !== 0) throw new Error("build failed");
  }
  const p = spawnSync(bin("tsx"), ["scripts/prepare.ts"], { stdio: "inherit", env });
  if (p.status !== 0) throw new Error("prepare failed");
}

async function startServer(): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.resolve("node_modules/@remix-run/serve/dist/cli.js"), path.join(buildDir, "index.js")], {
    env,
    stdio: "ignore",
  });
  for (let i = 0; i < 200; i++) {
    try {
      const r = await fetch(`${base}/login`);
      if (r.ok) return server;
    } catch {
      /* not up yet */
    }
    await sleep(50);
  }
  server.kill("SIGKILL");
  throw new Error("server did not start");
}

interface Acked {
  registrations: Set<string>;
  enrolments: Set<string>; // `${email} ${courseId}`
}

/** One simulated learner: register, sign in, enrol; records each acknowledged step. */
async function learner(courseIds: string[], acked: Acked, client: string): Promise<void> {
  const email = `crash-${crypto.randomUUID().slice(0, 12)}@test.example`;
  const headers = { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client };
  const reg = await fetch(`${base}/register`, {
    method: "POST",
    headers,
    redirect: "manual",
    body: new URLSearchParams({ full_name: "Crash Tester", email, password: "password123", confirm_password: "password123", role: "student" }),
  });
  if (reg.status !== 302) return;
  acked.registrations.add(email);
  const login = await fetch(`${base}/login`, { method: "POST", headers, redirect: "manual", body: new URLSearchParams({ email, password: "password123" }) });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith("__session="))?.split(";")[0];
  if (login.status !== 302 || !cookie) return;
  const picks = [...courseIds].sort(() => Math.random() - 0.5).slice(0, 3);
  for (const courseId of picks) {
    const enrol = await fetch(`${base}/enroll/${courseId}`, {
      method: "POST",
      headers: { ...headers, Cookie: cookie },
      redirect: "manual",
      body: new URLSearchParams({ terms: "on" }),
    });
    if (enrol.status === 302 && (enrol.headers.get("location") ?? "").startsWith("/student")) acked.enrolments.add(`${email} ${courseId}`);
  }
}

async function main() {
  prepare();
  const setup = new SQLite(dbFile, { readonly: true });
  const courseIds = (setup.prepare("select id from courses where is_active = 1").all() as Array<{ id: string }>).map((r) => r.id);
  setup.close();

  const acked: Acked = { registrations: new Set(), enrolments: new Set() };
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
    await sleep(400 + Math.random() * 1200);
    server.kill("SIGKILL");
    running = false;
    await Promise.all(workers);
    await new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r(null) : server.once("exit", r)));
    process.stdout.write(`cycle ${cycle}: killed; ${acked.registrations.size} registrations and ${acked.enrolments.size} enrolments acknowledged so far\n`);
  }

  const db = new SQLite(dbFile);
  const integrity = db.pragma("integrity_check", { simple: true });
  const lost: string[] = [];
  const doubled: string[] = [];
  const countUser = db.prepare("select count(*) as n from users where email = ?");
  const countEnrolment = db.prepare(
    "select count(*) as n from enrollments e join users u on u.id = e.student_id where u.email = ? and e.course_id = ?",
  );
  for (const email of acked.registrations) {
    const { n } = countUser.get(email) as { n: number };
    if (n === 0) lost.push(`registration ${email}`);
    if (n > 1) doubled.push(`registration ${email}`);
  }
  for (const key of acked.enrolments) {
    const [email, courseId] = key.split(" ");
    const { n } = countEnrolment.get(email, courseId) as { n: number };
    if (n === 0) lost.push(`enrolment ${key}`);
    if (n > 1) doubled.push(`enrolment ${key}`);
  }
  db.close();

  console.log(
    `crash test: ${cycles} crashes survived, ${attempts} learner journeys attempted, ` +
      `${acked.registrations.size + acked.enrolments.size} acknowledged writes checked, integrity ${String(integrity)}, ` +
      `${lost.length} lost, ${doubled.length} doubled`,
  );
  const ok = integrity === "ok" && lost.length === 0 && doubled.length === 0 && acked.enrolments.size > 0;
  console.log(ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
  if (!ok) {
    for (const l of [...lost, ...doubled].slice(0, 20)) console.error(l);
    if (acked.enrolments.size === 0) console.error("no enrolment was acknowledged: the write stream did not run");
    process.exit(1);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
