/**
 * npm start: build when there is no build, migrate and seed, then serve with remix-serve on
 * WEB_CONCURRENCY workers (scripts/serve.mjs; default one per core).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const buildDir = process.env.BUILD_DIR || "build";
const bin = (name) => path.resolve("node_modules", ".bin", name);
const run = (cmd, args, env = process.env) => {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

process.env.NODE_ENV ||= "production";

if (!fs.existsSync(path.join(buildDir, "index.js"))) {
  console.log("No build found: building…");
  run(bin("remix"), ["build"]);
}
// prepare reports which accounts still have the demo password; the server holds itself to
// loopback while there are any (app/http/demo-lock.server.ts) without checking them again
const report = path.join(os.tmpdir(), `portal-prepare-${process.pid}-${Date.now()}.json`);
run(bin("tsx"), ["scripts/prepare.ts"], { ...process.env, PREPARE_REPORT: report });
try {
  process.env.DEMO_ACCOUNTS = JSON.stringify(JSON.parse(fs.readFileSync(report, "utf8")).demoAccounts);
  fs.rmSync(report, { force: true });
} catch {
  delete process.env.DEMO_ACCOUNTS; // no report: each server checks for itself
}

const server = spawn(process.execPath, [path.resolve("scripts/serve.mjs"), path.join(buildDir, "index.js")], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
