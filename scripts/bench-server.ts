/**
 * What the benches share: the build, the large data set, the product started as npm start runs
 * it, and plain HTTP requests to it (no decompression, so sizes are what travels on the wire).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { openDatabase } from "../db/connection";
import { isPostgresUrl } from "../db/dialect";
import { builtScript, hasBuild } from "./build.mjs";

export const BUILD_DIR = process.env.BUILD_DIR || ".build-bench";
export const DB_FILE = path.resolve("tests/.tmp/bench.db");
/** DATABASE_URL=postgres://… benches PostgreSQL (seeded on first run) instead of DB_FILE. */
export const POSTGRES_URL = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
export const DATABASE_URL = POSTGRES_URL ?? `file:${DB_FILE}`;
export const DIALECT = POSTGRES_URL ? "PostgreSQL" : "SQLite";
export const PASSWORD = "password123";

export const bin = (name: string) => path.resolve("node_modules", ".bin", name);

export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
}

/** The environment the product runs in under a bench: production, quiet, on the bench database. */
export function benchEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    FAST_PASSWORD_HASH: "true",
    LOG_LEVEL: "silent",
    BUILD_DIR,
    DATABASE_URL,
    SESSION_SECRET: process.env.SESSION_SECRET || "bench-session-secret-bench-session-secret",
  };
}

/**
 * Builds into BUILD_DIR (SKIP_BUILD=1 reuses a build there) and prepares the large data set:
 * seeded on first run, migrated otherwise.
 */
export function buildAndPrepare(env: NodeJS.ProcessEnv) {
  if (process.env.SKIP_BUILD === "1" && hasBuild(BUILD_DIR)) {
    console.log(`Reusing the build in ${BUILD_DIR}.`);
  } else {
    console.log(`Building into ${BUILD_DIR}…`);
    run(process.execPath, ["scripts/build.mjs"], env);
  }
  if (POSTGRES_URL) {
    console.log("Seeding the large data set into PostgreSQL unless it has data…");
    run(bin("tsx"), ["scripts/seed-large.ts", "--if-empty"], env);
  } else if (!fs.existsSync(DB_FILE)) {
    console.log(`Seeding the large data set into ${DB_FILE}…`);
    run(bin("tsx"), ["scripts/seed-large.ts"], env);
  } else {
    run(process.execPath, [builtScript(BUILD_DIR, "prepare"), "--no-seed"], env);
  }
}

/**
 * Starts the run with no request counted: the bench database outlives a run, and a run's own
 * requests from this machine (its verification lookups, say) would otherwise leave the next run
 * within ten minutes refused with 429 where it times a page.
 */
export async function forgetRequestCounts(): Promise<void> {
  const db = openDatabase(DATABASE_URL);
  try {
    await db.deleteFrom("request_limits").execute();
  } finally {
    await db.destroy();
  }
}

const children: ChildProcess[] = [];
export function stopAll() {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
}
/** Stops every child when this process ends or is interrupted. */
export function stopChildrenOnExit() {
  process.on("exit", stopAll);
  process.on("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
}

/** Starts a child this process stops when it ends. */
export function startChild(cmd: string, args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const child = spawn(cmd, args, options);
  children.push(child);
  return child;
}

export interface Captured {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** GET/POST without decompressing, so sizes are what travels on the wire. */
export function raw(port: number, urlPath: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, method: options.method ?? "GET", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string | string[]>, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (options.body) req.end(options.body);
    else req.end();
  });
}

export async function waitForServer(port: number, timeoutMs = 240_000, probe = "/favicon.svg") {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await raw(port, probe);
      return;
    } catch {
      if (Date.now() > until) throw new Error(`server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Signs in with the demo password and answers the session cookie ("__session=…"). */
export async function signIn(port: number, email: string): Promise<string> {
  const res = await raw(port, "/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
  });
  const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  const session = setCookie.map((c) => c.split(";")[0]!).find((c) => c.startsWith("__session="));
  if (!session) throw new Error(`sign-in as ${email} failed (${res.status})`);
  return session;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
