/**
 * npm run lighthouse — Lighthouse 12 (mobile settings, its default) with Debian's Chromium on
 * the landing page, the catalogue and the student overview of the production build on the
 * large data set (the build and database npm run bench prepares; run that first, or this
 * builds and seeds them the same way). Prints performance and accessibility scores and writes
 * lighthouse-results.json.
 *
 * CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_PORT (default 3183).
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { builtScript, ensureBuild } from "./build.mjs";

const BUILD_DIR = process.env.BUILD_DIR || ".build-bench";
const DB_FILE = path.resolve("tests/.tmp/bench.db");
const PORT = Number(process.env.LIGHTHOUSE_PORT || 3183);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const bin = (name: string) => path.resolve("node_modules", ".bin", name);

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  FAST_PASSWORD_HASH: "true",
  LOG_LEVEL: "silent",
  BUILD_DIR,
  DATABASE_URL: `file:${DB_FILE}`,
  SESSION_SECRET: process.env.SESSION_SECRET || "bench-session-secret-bench-session-secret",
  PORT: String(PORT),
};

function run(cmd: string, args: string[]) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
}

function post(urlPath: string, body: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: PORT, path: urlPath, method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" } },
      (res) => {
        res.resume();
        resolve(([] as string[]).concat(res.headers["set-cookie"] ?? []));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function waitForServer() {
  for (let i = 0; i < 240; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      http
        .get({ host: "127.0.0.1", port: PORT, path: "/favicon.svg" }, (res) => {
          res.resume();
          resolve(true);
        })
        .on("error", () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server did not start");
}

async function main() {
  ensureBuild(BUILD_DIR, env);
  if (!fs.existsSync(DB_FILE)) run(bin("tsx"), ["scripts/seed-large.ts"]);
  else run(process.execPath, [builtScript(BUILD_DIR, "prepare"), "--no-seed"]);

  const server = spawn(process.execPath, [path.resolve("node_modules/@remix-run/serve/dist/cli.js"), path.join(BUILD_DIR, "index.js")], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = () => server.exitCode === null && server.kill("SIGTERM");
  process.on("exit", stop);
  try {
    await waitForServer();
    const cookies = await post("/login", new URLSearchParams({ email: "student@example.com", password: "password123" }).toString());
    const session = cookies.map((c) => c.split(";")[0]!).find((c) => c.startsWith("__session="));
    if (!session) throw new Error("could not sign in as the demo student");

    const pages = [
      { name: "landing /", url: "/" },
      { name: "catalogue /courses", url: "/courses" },
      { name: "student overview", url: "/student/overview", cookie: session },
    ];
    const results: Array<{ page: string; performance: number; accessibility: number; lcpMs: number; tbtMs: number; cls: number }> = [];
    for (const p of pages) {
      const out = path.resolve("tests/.tmp/lighthouse.json");
      const args = [
        `http://127.0.0.1:${PORT}${p.url}`,
        "--only-categories=performance,accessibility",
        "--output=json",
        `--output-path=${out}`,
        "--quiet",
        "--chrome-flags=--headless --no-sandbox --disable-gpu",
        ...(p.cookie ? [`--extra-headers=${JSON.stringify({ Cookie: p.cookie })}`] : []),
      ];
      const r = spawnSync(bin("lighthouse"), args, { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CHROME_PATH: CHROMIUM } });
      if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`lighthouse failed on ${p.url}`);
      const report = JSON.parse(fs.readFileSync(out, "utf8"));
      if (report.finalDisplayedUrl && !String(report.finalDisplayedUrl).endsWith(p.url)) {
        console.warn(`note: ${p.url} ended at ${report.finalDisplayedUrl}`);
      }
      const row = {
        page: p.name,
        performance: Math.round((report.categories.performance.score ?? 0) * 100),
        accessibility: Math.round((report.categories.accessibility.score ?? 0) * 100),
        lcpMs: Math.round(report.audits["largest-contentful-paint"].numericValue),
        tbtMs: Math.round(report.audits["total-blocking-time"].numericValue),
        cls: Number(report.audits["cumulative-layout-shift"].numericValue.toFixed(3)),
      };
      results.push(row);
      console.log(
        `${row.page.padEnd(22)} performance ${String(row.performance).padStart(3)}  accessibility ${String(row.accessibility).padStart(3)}  (LCP ${row.lcpMs} ms, TBT ${row.tbtMs} ms, CLS ${row.cls})`,
      );
    }
    fs.writeFileSync("lighthouse-results.json", JSON.stringify({ at: new Date().toISOString(), formFactor: "mobile", results }, null, 2) + "\n");
    console.log("Wrote lighthouse-results.json");
  } finally {
    stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
