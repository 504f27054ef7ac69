/**
 * Two servers, one PostgreSQL database: start two production servers on different ports
 * against one database with the same SESSION_SECRET and check they behave as one portal:
 * a session made on one works on the other; a write on one shows on the other at once, the
 * page cache included; sign-in rate limits count across both; parallel enrolments in one course
 * through both servers make exactly one enrolment; 20 learners booking a 5-seat class at once
 * through both servers get exactly 5 seats; 500 messages queued in the outbox are delivered by
 * the two servers' runners to a local SMTP sink, each exactly once.
 *
 * TEST_DATABASE_URL=postgres://… npm run test:servers   (needs a build: npm run build)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import assert from "node:assert/strict";
import path from "node:path";
import { RATE_LIMITS } from "../app/security/rate-limits.server";
import { builtScript, ensureBuild } from "./build.mjs";
import { awaitBulkMail, queueBulkMail } from "../tests/support/bulk-mail";
import { startMailSink, type MailSink } from "../tests/support/mail-sink";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";

const buildDir = process.env.BUILD_DIR ?? "build";
const ports = [Number(process.env.SERVERS_PORT ?? 3180), Number(process.env.SERVERS_PORT ?? 3180) + 1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sink: MailSink;

function serverEnv(url: string, port: number): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // each server's runner delivers the outbox to the test's SMTP sink
    SMTP_URL: sink.url,
    APP_URL: `http://127.0.0.1:${port}`,
    JOBS_INTERVAL_SECONDS: "1",
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: url,
    SESSION_SECRET: "several-servers-secret-several-servers-secret",
    FAST_PASSWORD_HASH: "true",
    TRUST_PROXY: "true",
    LOG_LEVEL: "silent",
  };
}

async function start(url: string, port: number): Promise<ChildProcess> {
  // one server process as npm start's workers run: remix-serve and the background runner
  const server = spawn(process.execPath, [path.resolve("scripts/serve-worker.mjs"), path.join(buildDir, "index.js")], {
    env: serverEnv(url, port),
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/login`)).ok) return server;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  server.kill("SIGKILL");
  throw new Error(`server on ${port} did not start`);
}

const [a, b] = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string];
const form = (fields: Record<string, string>, client: string) => ({
  method: "POST",
  redirect: "manual" as const,
  headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client, Origin: a },
  body: new URLSearchParams(fields),
});
const api = (method: string, token: string | null, body?: unknown, client = "203.0.113.9") => ({
  method,
  headers: {
    "Content-Type": "application/json",
    "X-Forwarded-For": client,
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  },
  body: body === undefined ? undefined : JSON.stringify(body),
});

/** The password of the learners this test registers: one the password rule accepts (the demo's is too common). */
const LEARNER_PASSWORD = "Parallel-Hoist-Rigging-42";

async function token(base: string, email: string, password = "password123"): Promise<string> {
  const r = await fetch(`${base}/api/auth/login`, api("POST", null, { email, password }, `198.51.100.${Math.floor(Math.random() * 200)}`));
  assert.equal(r.status, 200, `sign-in of ${email} on ${base}`);
  return ((await r.json()) as { access_token: string }).access_token;
}

async function checks(url: string): Promise<void> {
  // A session cookie made on A is a session on B.
  const login = await fetch(`${a}/login`, form({ email: "admin@example.com", password: "password123" }, "192.0.2.1"));
  assert.equal(login.status, 302, "sign-in on A redirects");
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const onB = await fetch(`${b}/admin/overview`, { headers: { Cookie: cookie }, redirect: "manual" });
  assert.equal(onB.status, 200, "A's session cookie opens the admin overview on B");
  console.log("ok  a session made on one server works on the other");

  // B stores the anonymous catalogue; a course renamed through A shows on B's next request.
  const admin = await token(a, "admin@example.com");
  const courses = (await (await fetch(`${b}/api/courses`)).json()) as Array<{ id: string; name: string }>;
  const course = courses[0]!;
  // B stores the page once its change feed is listening (until then every version is new).
  let cached = await fetch(`${b}/courses`);
  for (let i = 0; i < 50 && !cached.headers.has("age"); i++) {
    await sleep(100);
    cached = await fetch(`${b}/courses`);
  }
  assert.ok(cached.headers.has("age"), "B answers the catalogue from its page cache");
  assert.ok((await cached.text()).includes(course.name));
  const renamed = `${course.name.slice(0, 60)} (renamed ${Date.now()})`;
  const put = await fetch(`${a}/api/admin/courses/${course.id}`, api("PUT", admin, { name: renamed }));
  assert.equal(put.status, 200, "rename on A");
  const after = await fetch(`${b}/courses`);
  assert.ok((await after.text()).includes(renamed.replaceAll("&", "&amp;")), "B shows A's rename at once");
  console.log("ok  a write on one server shows on the other at once, page cache included");

  // Failed sign-ins for one email, alternating servers, are counted together.
  const email = "student@example.com";
  for (let i = 0; i < RATE_LIMITS.signInAccount.limit; i++) {
    const r = await fetch(`${i % 2 ? b : a}/api/auth/login`, api("POST", null, { email, password: "wrong-password" }, `192.0.2.${10 + i}`));
    assert.equal(r.status, 401, `failure ${i + 1} is a 401`);
  }
  for (const base of [a, b]) {
    const r = await fetch(`${base}/api/auth/login`, api("POST", null, { email, password: "password123" }, "192.0.2.99"));
    assert.equal(r.status, 429, `the email is refused on ${base} after failures on both`);
  }
  console.log(`ok  ${RATE_LIMITS.signInAccount.limit} failures split over both servers close the email on both`);

  // Parallel enrolments of one learner in one course, half through each server: exactly one.
  const learner = await fetch(
    `${a}/api/auth/register`,
    api("POST", null, { full_name: "Pat Parallel", email: "pat.parallel@test.example", password: LEARNER_PASSWORD }),
  );
  assert.equal(learner.status, 201, "register the learner");
  const learnerToken = await token(b, "pat.parallel@test.example", LEARNER_PASSWORD);
  const target = courses[1]!;
  const statuses = await Promise.all(
    Array.from({ length: 12 }, (_, i) => fetch(`${i % 2 ? b : a}/api/enrollments`, api("POST", learnerToken, { course_id: target.id })).then((r) => r.status)),
  );
  assert.deepEqual(statuses.filter((s) => s === 201).length, 1, `one 201 among ${statuses.join(",")}`);
  assert.ok(
    statuses.every((s) => s === 201 || s === 409),
    `the rest are 409: ${statuses.join(",")}`,
  );
  const mine = (await (await fetch(`${a}/api/enrollments/my`, api("GET", learnerToken))).json()) as Array<{ course_id?: string; course?: { id: string } }>;
  assert.equal(mine.length, 1, "one enrolment stored");
  console.log("ok  12 parallel enrolments through both servers make exactly one");

  // 20 learners book a 5-seat class at the same moment, half through each server: exactly 5 seats.
  const trainerToken = await token(a, "trainer@example.com");
  const trainerId = ((await (await fetch(`${a}/api/auth/me`, api("GET", trainerToken))).json()) as { id: string }).id;
  const classCourse = courses[2]!;
  const day = new Date(Date.now() + 40 * 864e5).toISOString().slice(0, 10);
  const created = await fetch(
    `${a}/api/admin/courses/${classCourse.id}/classes`,
    api("POST", admin, { start_date: day, end_date: day, sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainerId, seats: 5 }),
  );
  assert.equal(created.status, 201, "a 5-seat class added on A");
  const classId = ((await created.json()) as { id: string }).id;
  const learners = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const email = `seat.${i}.${Date.now()}@test.example`;
      const client = `198.18.${i}.1`;
      const r = await fetch(
        `${i % 2 ? b : a}/api/auth/register`,
        api("POST", null, { full_name: `Seat Seeker ${i}`, email, password: LEARNER_PASSWORD }, client),
      );
      assert.equal(r.status, 201, `register learner ${i}`);
      const login = await fetch(`${a}/api/auth/login`, api("POST", null, { email, password: LEARNER_PASSWORD }, client));
      return ((await login.json()) as { access_token: string }).access_token;
    }),
  );
  const booked = await Promise.all(
    learners.map((t, i) =>
      fetch(`${i % 2 ? b : a}/api/enrollments`, api("POST", t, { course_id: classCourse.id, class_id: classId })).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { detail?: string },
      })),
    ),
  );
  assert.equal(booked.filter((r) => r.status === 201).length, 5, `five 201s among ${booked.map((r) => r.status).join(",")}`);
  assert.ok(
    booked.every((r) => r.status === 201 || (r.status === 409 && r.body.detail === "This class is full")),
    "the rest are 409 This class is full",
  );
  const listed = (await (await fetch(`${b}/api/courses/${classCourse.id}/classes`)).json()) as Array<{ id: string; seats_left: number }>;
  assert.equal(listed.find((c) => c.id === classId)?.seats_left, 0, "the class shows no seats left");
  console.log("ok  20 learners booking 5 seats at once through both servers get exactly 5");

  // 500 messages in the outbox, two servers' runners delivering: each arrives once.
  const keys = await queueBulkMail(url, 500, "servers-bulk");
  const outcome = await awaitBulkMail(url, sink, keys);
  assert.deepEqual([outcome.lost.length, outcome.doubled.length], [0, 0], `${outcome.lost.length} lost, ${outcome.doubled.length} doubled`);
  console.log(`ok  2 servers deliver 500 queued messages in ${outcome.seconds.toFixed(1)} s, each once (sent by ${outcome.workers} servers)`);
}

async function main() {
  if (!process.env.TEST_DATABASE_URL) {
    console.log("Several servers: skipped (set TEST_DATABASE_URL to a PostgreSQL server to run it).");
    return false;
  }
  sink = await startMailSink();
  const name = uniqueDatabaseName("portal_servers");
  await createDatabase(name);
  const url = databaseUrl(name);
  const servers: ChildProcess[] = [];
  try {
    ensureBuild(buildDir);
    const prepared = spawnSync(process.execPath, [builtScript(buildDir, "prepare")], {
      stdio: ["ignore", "ignore", "inherit"],
      env: serverEnv(url, ports[0]!),
    });
    if (prepared.status !== 0) throw new Error("prepare failed");
    servers.push(...(await Promise.all(ports.map((port) => start(url, port)))));
    await checks(url);
    return true;
  } finally {
    for (const server of servers) server.kill("SIGTERM");
    await sleep(300);
    await dropDatabase(name);
    await sink.close();
  }
}

main().then(
  (ran) => ran && console.log("Two servers on one database behave as one portal."),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
