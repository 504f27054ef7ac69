/**
 * A PostgreSQL restart costs seconds, never a process: the production server (scripts/start.mjs,
 * 2 workers) runs on a PostgreSQL cluster of this test's own (initdb and pg_ctl in a temporary
 * folder, on a port of its own: never the machine's shared server) while 8 clients register
 * learners and ask for password resets (each queues a mail, sent through a local SMTP sink). The
 * cluster is restarted four ways: a fast stop, an immediate stop (crash recovery follows), a stop
 * of 10 seconds, and the postmaster killed with SIGKILL. It then checks:
 * - every acknowledged registration is stored once (0 lost, 0 doubled);
 * - no worker exited and no stack trace was printed (the server's output is read whole);
 * - no request took over 10 s, and every 503 carried Retry-After;
 * - within 2 s of the cluster accepting connections again, a request succeeded;
 * - every acknowledged reset mail arrived exactly once, within a minute of the last recovery
 *   (MAIL_LEASE_SECONDS stays at its 120 s: a claim caught by a restart must be let go).
 *
 * Runs only where TEST_DATABASE_URL is set (a machine with PostgreSQL) and PostgreSQL's server
 * programs are found (PG_BIN, /usr/lib/postgresql/15/bin unless told). Run as root, the cluster
 * belongs to the postgres user (initdb refuses root).
 *
 * npm run test:pg-restart
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startMailSink } from "../tests/support/mail-sink";

const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";
const WRITERS = 8;
const SLOW_MS = 10_000;
const RECOVERY_MS = 2_000;
const MAIL_WAIT_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (!process.env.TEST_DATABASE_URL || !fs.existsSync(path.join(PG_BIN, "initdb"))) {
  console.log(`pg restart test: skipped (${process.env.TEST_DATABASE_URL ? `no ${PG_BIN}/initdb` : "TEST_DATABASE_URL is not set"})`);
  process.exit(0);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

const asRoot = process.getuid?.() === 0;
/** Runs one of PostgreSQL's programs, as the postgres user when this runs as root. */
function pgTool(name: string, args: string[]) {
  const cmd = path.join(PG_BIN, name);
  const r = asRoot ? spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" }) : spawnSync(cmd, args, { encoding: "utf8" });
  return { ok: r.status === 0, output: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "portal-pg-restart-"));
const data = path.join(dir, "data");
const pgPort = await freePort();
const appPort = Number(process.env.PG_RESTART_PORT ?? (await freePort()));
const base = `http://127.0.0.1:${appPort}`;
if (asRoot) spawnSync("chown", ["postgres", dir]);
fs.chmodSync(dir, 0o755);

function startCluster(): boolean {
  // -w: pg_ctl returns once the server accepts connections
  return pgTool("pg_ctl", [
    "-D",
    data,
    "-w",
    "-t",
    "60",
    "-l",
    path.join(dir, "pg.log"),
    "-o",
    `-p ${pgPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    "start",
  ]).ok;
}
function stopCluster(mode: "fast" | "immediate") {
  pgTool("pg_ctl", ["-D", data, "-w", "-m", mode, "stop"]);
}

const problems: string[] = [];
let server: ChildProcess | undefined;
let output = "";

try {
  const init = pgTool("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
  if (!init.ok) throw new Error(`initdb failed: ${init.output}`);
  if (!startCluster()) throw new Error(`the cluster did not start: ${fs.readFileSync(path.join(dir, "pg.log"), "utf8")}`);
  const url = `postgres://postgres@127.0.0.1:${pgPort}/postgres`;

  const sink = await startMailSink();
  // npm start as an operator runs it: build, migrate and seed, 2 workers
  server = spawn(process.execPath, [path.resolve("scripts/start.mjs")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: url,
      PORT: String(appPort),
      WEB_CONCURRENCY: "2",
      SESSION_SECRET: "restart-secret-restart-secret-restart-01",
      FAST_PASSWORD_HASH: "true",
      TRUST_PROXY: "true",
      APP_URL: base,
      SMTP_URL: sink.url,
      JOBS_INTERVAL_SECONDS: "1",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout!.on("data", (b: Buffer) => (output += b.toString()));
  server.stderr!.on("data", (b: Buffer) => (output += b.toString()));
  for (let i = 0; ; i++) {
    if (i > 1800) throw new Error(`the server did not start:\n${output.slice(-3000)}`);
    const ok = await fetch(`${base}/login`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(100);
  }

  const registered = new Set<string>();
  const resets = new Set<string>();
  let requests = 0;
  let unavailable = 0;
  let slowest = 0;
  /** One request, timed; its 503 must say when to come back. */
  const send = async (pathname: string, body?: Record<string, string>) => {
    const start = performance.now();
    requests++;
    try {
      const r = await fetch(`${base}${pathname}`, {
        method: body ? "POST" : "GET",
        redirect: "manual",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": `10.${1 + crypto.randomInt(250)}.${crypto.randomInt(250)}.${1 + crypto.randomInt(250)}`,
        },
        body: body ? new URLSearchParams(body) : undefined,
        signal: AbortSignal.timeout(SLOW_MS + 5_000),
      });
      const text = await r.text();
      if (r.status === 503) {
        unavailable++;
        if (!r.headers.get("Retry-After")) problems.push(`a 503 on ${pathname} without Retry-After`);
        // the /api answers its JSON error; a page, the error page
        if (pathname.startsWith("/api/") ? !text.startsWith('{"detail"') : !text.includes("</html>"))
          problems.push(`a 503 on ${pathname} that is not its error answer: ${text.slice(0, 80)}`);
      }
      return r.status;
    } catch (error) {
      problems.push(`${pathname}: no answer (${String(error)})`);
      return 0;
    } finally {
      const ms = performance.now() - start;
      slowest = Math.max(slowest, ms);
      if (ms > SLOW_MS) problems.push(`${pathname} took ${Math.round(ms)} ms`);
    }
  };
  const password = "Restart-Hoist-Rigging-42";
  const register = async () => {
    const email = `restart-${crypto.randomUUID().slice(0, 12)}@test.example`;
    const status = await send("/register", { full_name: "Restart Tester", email, password, confirm_password: password, role: "student" });
    if (status === 302) registered.add(email);
    return status === 302 ? email : null;
  };
  let running = true;
  const writers = Array.from({ length: WRITERS }, async () => {
    while (running) {
      const email = await register();
      if (email && (await send("/forgot-password", { email })) === 302) resets.add(email);
      else if (!email) await sleep(100);
      await send("/api/courses");
    }
  });

  const ways: [string, () => Promise<void>][] = [
    ["fast", async () => stopCluster("fast")],
    ["immediate", async () => stopCluster("immediate")],
    [
      "a 10-second stop",
      async () => {
        stopCluster("fast");
        await sleep(10_000);
      },
    ],
    [
      "postmaster killed",
      async () => {
        const pid = Number(fs.readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n")[0]);
        process.kill(pid, "SIGKILL");
        await sleep(500);
      },
    ],
  ];
  let lastRecovery = 0;
  for (const [way, stop] of ways) {
    await sleep(2_500);
    const before = registered.size;
    await stop();
    // after SIGKILL the old backends must notice and go before a new postmaster may start
    let started = false;
    for (let i = 0; i < 50 && !(started = startCluster()); i++) await sleep(200);
    if (!started) throw new Error(`the cluster did not start again after ${way}`);
    const ready = performance.now();
    let recovered = false;
    while (performance.now() - ready < RECOVERY_MS + SLOW_MS) {
      if ((await register()) !== null) {
        recovered = true;
        break;
      }
      await sleep(50);
    }
    const ms = performance.now() - ready;
    lastRecovery = Date.now();
    if (!recovered || ms > RECOVERY_MS) problems.push(`after ${way}: the first write succeeded ${Math.round(ms)} ms after the cluster accepted connections`);
    console.log(`${way}: ${registered.size - before} registrations acknowledged around it; a write succeeded ${Math.round(ms)} ms after recovery`);
  }
  await sleep(2_500);
  running = false;
  await Promise.all(writers);

  // every acknowledged reset mail, once, within a minute of the last recovery
  const copies = (email: string) => sink.received.filter((m) => m.to === email && m.key.startsWith("password-reset:")).length;
  while (Date.now() - lastRecovery < MAIL_WAIT_MS && [...resets].some((e) => copies(e) === 0)) await sleep(250);
  await sleep(1_500);
  const mailLost = [...resets].filter((e) => copies(e) === 0).length;
  const mailDoubled = [...resets].filter((e) => copies(e) > 1).length;
  if (mailLost) problems.push(`${mailLost} of ${resets.size} acknowledged reset mails did not arrive within a minute of recovery`);
  if (mailDoubled) problems.push(`${mailDoubled} reset mails arrived more than once`);

  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const counts = (
    await db.query<{ email: string; n: string }>("select email, count(*) as n from users where email = any($1) group by email", [[...registered]])
  ).rows;
  await db.end();
  const stored = new Map(counts.map((r) => [r.email, Number(r.n)]));
  const lost = [...registered].filter((e) => !stored.has(e)).length;
  const doubled = [...stored.values()].filter((n) => n > 1).length;
  if (lost || doubled) problems.push(`${lost} acknowledged registrations lost, ${doubled} doubled`);
  if (registered.size === 0 || resets.size === 0) problems.push("nothing was acknowledged: the writers did not run");

  const exits = output.split("\n").filter((l) => l.includes('"worker-exit"')).length;
  const traces = output.split("\n").filter((l) => /^\s+at .+[(:]/.test(l)).length;
  if (exits) problems.push(`${exits} worker exits`);
  if (traces) problems.push(`${traces} stack-trace lines in the server's output`);
  const lostLines = output.split("\n").filter((l) => l.includes('"database-connection-lost"')).length;
  console.log(
    `pg restart test: 4 restarts under ${WRITERS} writers, ${requests} requests (${unavailable} answered 503, slowest ${Math.round(slowest)} ms); ` +
      `${registered.size} registrations acknowledged: ${lost} lost, ${doubled} doubled; ${resets.size} reset mails: ${mailLost} lost, ${mailDoubled} doubled; ` +
      `${exits} worker exits, ${traces} stack-trace lines, ${lostLines} lost connections logged`,
  );
  await sink.close();
} catch (error) {
  problems.push(String(error instanceof Error ? error.message : error));
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      /* gone */
    }
    await new Promise((r) => (server!.exitCode !== null || server!.signalCode !== null ? r(null) : server!.once("exit", r)));
  }
  stopCluster("immediate");
  fs.rmSync(dir, { recursive: true, force: true });
}

if (problems.length) {
  for (const p of [...new Set(problems)].slice(0, 30)) console.error(p);
  if (process.env.PG_RESTART_LOG) fs.writeFileSync(process.env.PG_RESTART_LOG, output);
  process.exit(1);
}
console.log("pg restart test: passed");
