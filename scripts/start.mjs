/**
 * npm start: build when there is no build, migrate and seed (the build's own `prepare`,
 * scripts/build.mjs), then serve with remix-serve on
 * WEB_CONCURRENCY workers (scripts/serve.mjs; default one per core), each running the
 * background runner (scripts/serve-worker.mjs). Run it as `npm start` or `node scripts/start.mjs`
 * (under systemd or in a container: README, "Deployment"); either stops on SIGTERM or SIGINT.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { builtScript, ensureBuild } from "./build.mjs";

const buildDir = process.env.BUILD_DIR || "build";
const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

process.env.NODE_ENV ||= "production";

ensureBuild(buildDir);
// prepare reports which accounts still have the demo password; the server holds itself to
// loopback while there are any (app/http/demo-lock.server.ts) without checking them again
const report = path.join(os.tmpdir(), `portal-prepare-${process.pid}-${Date.now()}.json`);
run(process.execPath, [builtScript(buildDir, "prepare")], { ...process.env, PREPARE_REPORT: report });
try {
  process.env.DEMO_ACCOUNTS = JSON.stringify(JSON.parse(fs.readFileSync(report, "utf8")).demoAccounts);
  fs.rmSync(report, { force: true });
} catch {
  delete process.env.DEMO_ACCOUNTS; // no report: each server checks for itself
}

const server = spawn(process.execPath, [path.resolve("scripts/serve.mjs"), path.join(buildDir, "index.js")], { stdio: "inherit", env: process.env });

// Stopping: SIGTERM or SIGINT drains the server (scripts/serve.mjs: requests answered, the
// sends in progress recorded, then every worker exits) and this process exits with it. npm
// passes the signal it is sent on to this process (the start script execs node, so no shell
// stands between them to swallow it). And a process whose parent is gone (npm killed outright,
// a terminal closed) was started by someone no longer there to stop it: it drains too, rather
// than serve on, re-parented to init.
let stopping = false;
const stop = (signal, why) => {
  if (stopping) return;
  stopping = true;
  if (why) console.log(JSON.stringify({ event: "stopping", reason: why }));
  server.kill(signal);
};
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => stop(signal));
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop("SIGTERM", "the process that started npm start is gone"), 1_000).unref();
server.on("exit", (code) => process.exit(code ?? 0));
