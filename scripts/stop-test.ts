/**
 * The server stops when told, as a process manager or a container runtime tells it: `npm start`
 * is started in a process group of its own, serves, and is sent a signal; the port must close
 * and no process of the group may remain (nothing re-parented to init, serving on).
 *
 * 1. SIGTERM to npm's own pid (what `systemctl stop` and `docker stop` send);
 * 2. SIGINT to npm's own pid (Ctrl-C);
 * 3. SIGTERM to the process npm runs (scripts/start.mjs);
 * 4. SIGKILL to npm's own pid: start.mjs finds its parent gone and drains.
 *
 * npm run test:stop     (STOP_PORT, default 3222; BUILD_DIR as for npm start)
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const port = Number(process.env.STOP_PORT ?? 3222);
const base = `http://127.0.0.1:${port}`;
const dbFile = path.resolve("tests/.tmp/stop.db");
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(port),
  DATABASE_URL: `file:${dbFile}`,
  SESSION_SECRET: "stop-test-secret-stop-test-secret-stop-0001",
  FAST_PASSWORD_HASH: "true",
  LOG_LEVEL: "silent",
  WEB_CONCURRENCY: "2",
  OUTBOX_DIR: path.resolve("tests/.tmp/stop-outbox"),
};
delete env.APP_URL;
delete env.SMTP_URL;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const failures: string[] = [];
let passed = 0;
function check(ok: boolean, what: string) {
  if (ok) passed++;
  else failures.push(what);
  console.log(`${ok ? "✓" : "✘"} ${what}`);
}

const up = () =>
  fetch(`${base}/login`).then(
    (r) => r.status === 200,
    () => false,
  );

/** Every process of a process group (ps, so zombies awaiting their parent count too). */
function groupPids(pgid: number): number[] {
  const out = spawnSync("ps", ["-eo", "pid=,pgid="], { encoding: "utf8" }).stdout;
  return out
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number))
    .filter(([pid, group]) => group === pgid && pid !== undefined && !Number.isNaN(pid))
    .map(([pid]) => pid!);
}

function childOf(pid: number): number | undefined {
  const out = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" }).stdout.trim();
  return out ? Number(out.split(/\s+/)[0]) : undefined;
}

async function startNpm(): Promise<ChildProcess> {
  // its own process group, so every process it starts can be found afterwards
  const npm = spawn("npm", ["start"], { env, stdio: ["ignore", "ignore", "inherit"], detached: true });
  for (let i = 0; i < 1200; i++) {
    if (await up()) return npm;
    if (npm.exitCode !== null) break;
    await sleep(250);
  }
  try {
    process.kill(-npm.pid!, "SIGKILL");
  } catch {
    /* gone */
  }
  throw new Error("npm start did not serve");
}

async function stopsWhen(what: string, send: (npm: ChildProcess) => void) {
  const npm = await startNpm();
  const pgid = npm.pid!;
  const before = groupPids(pgid).length;
  const sent = Date.now();
  send(npm);
  let closed = false;
  let left: number[] = [];
  for (let i = 0; i < 120; i++) {
    closed = !(await up());
    left = groupPids(pgid);
    if (closed && left.length === 0) break;
    await sleep(250);
  }
  check(
    closed && left.length === 0,
    `${what}: the port closes and none of the ${before} processes remains (${((Date.now() - sent) / 1000).toFixed(1)} s${left.length ? `; left: ${left.join(", ")}` : ""})`,
  );
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* gone */
    }
  }
}

async function main() {
  fs.mkdirSync(path.dirname(dbFile), { recursive: true });
  for (const s of ["", "-wal", "-shm"]) fs.rmSync(dbFile + s, { force: true });

  await stopsWhen("SIGTERM to npm start's pid", (npm) => npm.kill("SIGTERM"));
  await stopsWhen("SIGINT to npm start's pid", (npm) => npm.kill("SIGINT"));
  await stopsWhen("SIGTERM to the process npm start runs (scripts/start.mjs)", (npm) => process.kill(childOf(npm.pid!)!, "SIGTERM"));
  await stopsWhen("SIGKILL to npm start's pid (its server finds its parent gone)", (npm) => npm.kill("SIGKILL"));

  console.log(`stop: ${passed} passed, ${failures.length} failed`);
  if (failures.length) process.exit(1);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
