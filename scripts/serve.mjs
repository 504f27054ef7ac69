/**
 * The production server on every core: a node:cluster primary that forks WEB_CONCURRENCY
 * workers (default: the machine's available parallelism), each running remix-serve on the same
 * port. Run after the database is migrated (scripts/start.mjs does both).
 *
 *   node scripts/serve.mjs [build/index.js]
 *
 * - A worker that dies is replaced; one that keeps dying soon after starting is replaced after a
 *   growing pause (1 s, 2 s, 4 s … 30 s), so a broken build does not spin the machine.
 * - SIGTERM or SIGINT drains: each worker stops accepting connections, finishes the requests it
 *   holds and exits; after DRAIN_SECONDS whatever is left is killed. The primary exits 0.
 * - Workers share nothing in memory: what one caches is checked against the database's change
 *   counter on every hit (app/http/page-cache.server.ts), so a write in one is seen by all.
 */
import cluster from "node:cluster";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DRAIN_SECONDS = 10;
const QUICK_DEATH_MS = 5_000;
const MAX_PAUSE_MS = 30_000;

/** WEB_CONCURRENCY as a worker count, or a sentence saying what is wrong with it. */
export function workerCount(raw = process.env.WEB_CONCURRENCY, cores = os.availableParallelism()) {
  if (raw === undefined || raw.trim() === "") return { count: cores };
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > 256) {
    return { error: `WEB_CONCURRENCY must be a whole number of workers from 1 to 256 (got "${raw}")` };
  }
  return { count: Number(raw) };
}

/**
 * V8 flags for each worker, each written out because it is a decision; a size given in
 * NODE_OPTIONS (or the primary's own flags) wins. CONTRACT 23 allows a worker 300 MB at any time
 * (docs/decisions/044-national-volume.md):
 * - the young generation's semi-spaces at 16 MB, V8's own default: 64 MB semi-spaces collected
 *   a page's garbage a quarter as often, but a worker fills what it is given (idle at the
 *   500,000-learner set a worker held 289 MB with 64 MB semi-spaces, 227 MB with 32, 199 MB with 16);
 * - the old generation at 160 MB: uncapped, V8 kept the garbage of a long download or the
 *   AVETMISS check and a worker reached 450-620 MB; capped at 128 MB a year's zip peaked at
 *   206 MB and the readiness check at 231 MB, each as fast. Nothing holds a large result whole
 *   (every export streams), so a request that needs more is a fault to find, not a limit to raise.
 */
export function workerFlags(nodeOptions = process.env.NODE_OPTIONS ?? "", execArgv = process.execArgv) {
  const flags = [...execArgv];
  const given = (flag) => new RegExp(flag).test(nodeOptions) || flags.some((f) => f.startsWith(flag));
  if (!given("--max-semi-space-size")) flags.push("--max-semi-space-size=16");
  if (!given("--max-old-space-size")) flags.push("--max-old-space-size=160");
  return flags;
}

function primary(buildPath) {
  const wanted = workerCount();
  if (wanted.error) {
    console.error(wanted.error);
    process.exit(1);
  }
  cluster.setupPrimary({ exec: fileURLToPath(new URL("./serve-worker.mjs", import.meta.url)), args: [buildPath], execArgv: workerFlags() });

  let draining = false;
  let pause = 0;
  const startedAt = new Map();
  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker.id, Date.now());
    // a worker that exits while the primary talks to it (draining as it starts) breaks the pipe:
    // its exit is handled below, the error itself is no reason for the primary to fall over
    worker.on("error", (error) => console.error(JSON.stringify({ event: "worker-error", pid: worker.process.pid, error: String(error) })));
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (draining) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    pause = lived < QUICK_DEATH_MS ? Math.min(MAX_PAUSE_MS, Math.max(1_000, pause * 2)) : 0;
    console.error(JSON.stringify({ event: "worker-exit", pid: worker.process.pid, code, signal, replaceInMs: pause }));
    setTimeout(() => !draining && fork(), pause);
  });

  const drain = (signal) => {
    if (draining) return;
    draining = true;
    console.log(JSON.stringify({ event: "draining", signal, workers: Object.keys(cluster.workers ?? {}).length }));
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    // remix-serve's own SIGTERM handling closes its server once the requests it holds are answered
    for (const worker of workers) worker?.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(0);
    }, DRAIN_SECONDS * 1000).unref();
  };
  process.on("SIGTERM", () => drain("SIGTERM"));
  process.on("SIGINT", () => drain("SIGINT"));

  console.log(JSON.stringify({ event: "cluster-start", workers: wanted.count, pid: process.pid }));
  for (let i = 0; i < wanted.count; i++) fork();
}

if (cluster.isPrimary && fileURLToPath(import.meta.url) === path.resolve(process.argv[1] ?? "")) {
  primary(path.resolve(process.argv[2] ?? path.join(process.env.BUILD_DIR || "build", "index.js")));
}
