/**
 * The server Playwright tests against: the production build (rebuilt unless E2E_SKIP_BUILD=1),
 * a fresh database seeded with the demo data, fast password hashing, and a trusted
 * X-Forwarded-For so each test can be its own client for the rate limits.
 *
 * The database is a SQLite file per port, or, when E2E_DATABASE_URL names one on a PostgreSQL
 * server, that database dropped and created afresh.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { builtScript, ensureBuild } from "../../scripts/build.mjs";

const port = process.env.E2E_PORT ?? "3100";
const buildDir = process.env.BUILD_DIR ?? "build";
const dbFile = path.resolve(`tests/.tmp/e2e-${port}.db`);

const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: port,
  BUILD_DIR: buildDir,
  DATABASE_URL: process.env.E2E_DATABASE_URL ?? `file:${dbFile}`,
  SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
  FAST_PASSWORD_HASH: "true",
  TRUST_PROXY: "true",
  LOG_LEVEL: "silent",
  OUTBOX_DIR: path.resolve(`tests/.tmp/outbox-${port}`),
};

fs.mkdirSync(path.dirname(dbFile), { recursive: true });
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(dbFile + suffix, { force: true });
if (process.env.E2E_DATABASE_URL) await recreatePostgresDatabase(process.env.E2E_DATABASE_URL);
fs.rmSync(env.OUTBOX_DIR, { recursive: true, force: true });
// a lock a journey held on this server's question bank when an earlier run was stopped
// (tests/e2e/standards-learner.spec.ts)
fs.rmSync(path.resolve(`tests/.tmp/question-bank-${port}.lock`), { recursive: true, force: true });

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: ["ignore", "ignore", "inherit"], env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (process.env.E2E_SKIP_BUILD !== "1") run(process.execPath, [path.resolve("scripts/build.mjs")]);
else ensureBuild(buildDir, env);
run(process.execPath, [builtScript(buildDir, "prepare")]);

// one worker, as npm start runs each: remix-serve with the background runner (its mail lands in OUTBOX_DIR)
const server = spawn(process.execPath, [path.resolve("scripts/serve-worker.mjs"), path.join(buildDir, "index.js")], {
  stdio: ["ignore", "ignore", "inherit"],
  env,
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));

/** Drops (ending any connection left by an earlier run) and creates the database a URL names. */
async function recreatePostgresDatabase(url) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const quoted = `"${name.replaceAll('"', '""')}"`;
  target.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${quoted} with (force)`);
    await admin.query(`create database ${quoted}`);
  } finally {
    await admin.end();
  }
}
