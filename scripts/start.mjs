/**
 * npm start: build when there is no build, migrate and seed, then serve with remix-serve on
 * WEB_CONCURRENCY workers (scripts/serve.mjs; default one per core).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
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
run(bin("tsx"), ["scripts/prepare.ts"]);

const server = spawn(process.execPath, [path.resolve("scripts/serve.mjs"), path.join(buildDir, "index.js")], { stdio: "inherit", env: process.env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
