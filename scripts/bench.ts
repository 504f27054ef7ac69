/**
 * npm run bench — the portal under load on a large data set, against a bare node:http server
 * answering with the same bytes, in the same run.
 *
 * 1. builds the app into BUILD_DIR (.build-bench);
 * 2. prepares tests/.tmp/bench.db with npm run seed:large when missing (migrates it otherwise);
 * 3. starts the production server (remix-serve, NODE_ENV=production) on BENCH_PORT (3180);
 * 4. signs in the three demo logins, renders a stored certificate once, then fetches every URL
 *    once with its cookie and gzip; a bare node:http server in a child process on
 *    BENCH_PORT+1 answers each URL with exactly those bytes and headers;
 * 5. drives both with autocannon (BENCH_CONNECTIONS=10 for BENCH_DURATION=4 s each, in
 *    BENCH_ROUNDS=3 rounds that alternate which server goes first; medians are reported) and
 *    prints requests/s, p50 and p99 of each and the ratios, plus each page's gzipped HTML, CSS
 *    and JS transfer size; checks the targets (PASS/MISS) and writes bench-results.json.
 *
 * SKIP_BUILD=1 reuses an existing build; BENCH_ONLY=<regex> loads only the cases it names
 * (targets whose case did not run are reported as not measured). Not part of npm test (it takes a few minutes).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";

const BUILD_DIR = process.env.BUILD_DIR || ".build-bench";
const DB_FILE = path.resolve("tests/.tmp/bench.db");
const PORT = Number(process.env.BENCH_PORT || 3180);
const BARE_PORT = PORT + 1;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 10);
const DURATION = Number(process.env.BENCH_DURATION || 4);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS || 3));
const RESULTS_FILE = process.env.BENCH_RESULTS || "bench-results.json";
const PASSWORD = "password123";

interface Captured {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

// ---------------------------------------------------------------- bare server (child mode)

// ---------------------------------------------------------------- helpers

const children: ChildProcess[] = [];
function stopAll() {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
}

const bin = (name: string) => path.resolve("node_modules", ".bin", name);

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status})`);
}

/** GET/POST without decompressing, so sizes are what travels on the wire. */
function raw(
  port: number,
  urlPath: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Captured> {
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

async function waitForServer(port: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await raw(port, "/favicon.svg");
      return;
    } catch {
      if (Date.now() > until) throw new Error(`server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

async function signIn(email: string): Promise<string> {
  const res = await raw(PORT, "/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, password: PASSWORD }).toString(),
  });
  const setCookie = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  const session = setCookie.map((c) => c.split(";")[0]!).find((c) => c.startsWith("__session="));
  if (!session) throw new Error(`sign-in as ${email} failed (${res.status})`);
  return session;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// ---------------------------------------------------------------- main

interface Case {
  name: string;
  url: string;
  cookie?: string;
  page?: boolean;
}

async function main() {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    FAST_PASSWORD_HASH: "true",
    LOG_LEVEL: "silent",
    BUILD_DIR,
    DATABASE_URL: `file:${DB_FILE}`,
    SESSION_SECRET: process.env.SESSION_SECRET || "bench-session-secret-bench-session-secret",
  };

  if (process.env.SKIP_BUILD === "1" && fs.existsSync(path.join(BUILD_DIR, "index.js"))) {
    console.log(`Reusing the build in ${BUILD_DIR}.`);
  } else {
    console.log(`Building into ${BUILD_DIR}…`);
    run(bin("remix"), ["build"], env);
  }
  if (!fs.existsSync(DB_FILE)) {
    console.log(`Seeding the large data set into ${DB_FILE}…`);
    run(bin("tsx"), ["scripts/seed-large.ts"], env);
  } else {
    run(bin("tsx"), ["scripts/prepare.ts", "--no-seed"], env);
  }

  console.log(`Starting the production server on port ${PORT}…`);
  const server = spawn(bin("remix-serve"), [path.join(BUILD_DIR, "index.js")], {
    env: { ...env, PORT: String(PORT) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(server);
  process.on("exit", stopAll);
  process.on("SIGINT", () => {
    stopAll();
    process.exit(130);
  });
  await waitForServer(PORT);

  const [student, trainer, admin] = [
    await signIn("student@example.com"),
    await signIn("trainer@example.com"),
    await signIn("admin@example.com"),
  ];

  // A stored certificate: the demo student's first, rendered once before measuring.
  const mine = await raw(PORT, "/api/certificates/my", { headers: { Cookie: student } });
  const certificates = JSON.parse(mine.body.toString("utf8")) as Array<{ id: string }>;
  const certificateId = certificates[0]?.id;
  if (!certificateId) throw new Error("the demo student has no certificate");
  const downloadUrl = `/api/certificates/${certificateId}/download`;
  const firstRender = await raw(PORT, downloadUrl, { headers: { Cookie: student } });
  if (firstRender.status !== 200) throw new Error(`certificate download gave ${firstRender.status}`);

  const cases: Case[] = [
    { name: "anonymous catalogue (cached)", url: "/courses", page: true },
    { name: "anonymous landing (cached)", url: "/", page: true },
    { name: "signed-in catalogue (uncached)", url: "/courses", cookie: student, page: true },
    { name: "/student/overview", url: "/student/overview", cookie: student, page: true },
    { name: "/admin/overview", url: "/admin/overview", cookie: admin, page: true },
    { name: "/admin/students?q=smith", url: "/admin/students?q=smith", cookie: admin, page: true },
    { name: "/trainer/overview", url: "/trainer/overview", cookie: trainer, page: true },
    { name: "/api/courses", url: "/api/courses", cookie: student },
    { name: "/api/admin/students", url: "/api/admin/students", cookie: admin },
    { name: "stored certificate download", url: downloadUrl, cookie: student },
    // Floors, for reading the figures above: the smallest uncached page (one form, no query)
    // and the smallest /api call (one query). No page or call can cost less than these.
    { name: "floor: /login page", url: "/login", page: true },
    { name: "floor: /api/auth/me", url: "/api/auth/me", cookie: student },
  ];
  const headersFor = (c: Case): Record<string, string> => ({
    "Accept-Encoding": "gzip",
    ...(c.cookie ? { Cookie: c.cookie } : {}),
  });

  // Capture every answer once; the bare server replays those bytes. Keys are "cookie-index url"
  // on the bare side, so the same URL can answer differently per login.
  const bareTable: Record<string, { status: number; headers: Record<string, string | string[]>; body: string }> = {};
  const captured = new Map<Case, Captured>();
  const bareUrl = (c: Case, i: number) => `/${i}${c.url}`;
  for (const [i, c] of cases.entries()) {
    const r = await raw(PORT, c.url, { headers: headersFor(c) });
    if (r.status !== 200) throw new Error(`${c.name}: ${c.url} gave ${r.status}`);
    captured.set(c, r);
    const headers = { ...r.headers };
    delete headers["transfer-encoding"];
    delete headers["connection"];
    delete headers["keep-alive"];
    delete headers["date"];
    headers["content-length"] = String(r.body.length);
    bareTable[bareUrl(c, i)] = { status: r.status, headers, body: r.body.toString("base64") };
  }
  const tableFile = path.resolve("tests/.tmp/bench-bare.json");
  fs.mkdirSync(path.dirname(tableFile), { recursive: true });
  fs.writeFileSync(tableFile, JSON.stringify(bareTable));
  const bare = spawn(process.execPath, [...process.execArgv, process.argv[1]!, "--bare", tableFile, String(BARE_PORT)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  children.push(bare);
  await new Promise<void>((resolve, reject) => {
    bare.once("message", () => resolve());
    bare.once("exit", (code) => reject(new Error(`bare server exited (${code})`)));
  });

  // Page weight: gzipped HTML + the stylesheets and scripts it names.
  const weights: Array<{ name: string; url: string; html: number; css: number; js: number }> = [];
  for (const c of cases.filter((x) => x.page)) {
    if (weights.some((w) => w.url === c.url && c.name.startsWith("anonymous") === w.name.startsWith("anonymous"))) continue;
    const r = captured.get(c)!;
    const html = zlibSize(r);
    const text = decoded(r);
    const css = [...text.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
    const js = [
      ...[...text.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
      ...[...text.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]!),
      ...[...text.matchAll(/import\s*(?:\*\s*as\s*\w+\s*from\s*)?"(\/build\/[^"]+\.js)"/g)].map((m) => m[1]!),
    ];
    const sizeOf = async (urls: string[]) => {
      let total = 0;
      for (const u of new Set(urls)) {
        const a = await raw(PORT, u, { headers: { "Accept-Encoding": "gzip" } });
        if (a.status !== 200) throw new Error(`${u} gave ${a.status}`);
        total += a.body.length;
      }
      return total;
    };
    weights.push({ name: c.name, url: c.url, html, css: await sizeOf(css), js: await sizeOf(js) });
  }

  // Load.
  const results: Array<{
    name: string;
    url: string;
    app: { rps: number; p50: number; p99: number; non2xx: number; errors: number };
    bare: { rps: number; p50: number; p99: number; non2xx: number; errors: number };
    ratio: number;
    p99Ratio: number;
    rounds: Array<{ app: Load; bare: Load }>;
  }> = [];
  console.log(`\nLoad: ${CONNECTIONS} connections, ${DURATION} s per run, median of ${ROUNDS} rounds\n`);
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
  for (const [i, c] of cases.entries()) {
    if (only && !only.test(c.name)) continue;
    // Rounds alternate which server goes first, so a burst of load from elsewhere on the machine
    // lands on both sides alike; each figure is the median over the rounds.
    const rounds: Array<{ app: Load; bare: Load }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      await settle();
      const appRun = () => load(`http://127.0.0.1:${PORT}${c.url}`, headersFor(c));
      const bareRun = () => load(`http://127.0.0.1:${BARE_PORT}${bareUrl(c, i)}`, headersFor(c));
      if (round % 2 === 0) {
        const app = await appRun();
        rounds.push({ app, bare: await bareRun() });
      } else {
        const bare = await bareRun();
        rounds.push({ app: await appRun(), bare });
      }
    }
    const app = medianLoad(rounds.map((r) => r.app));
    const b = medianLoad(rounds.map((r) => r.bare));
    const row = {
      name: c.name,
      url: c.url,
      app,
      bare: b,
      ratio: median(rounds.map((r) => r.app.rps / r.bare.rps)),
      p99Ratio: median(rounds.map((r) => r.app.p99 / Math.max(r.bare.p99, 1))),
      rounds,
    };
    results.push(row);
    console.log(
      `${c.name.padEnd(32)} app ${app.rps.toFixed(0).padStart(6)} req/s p50 ${String(app.p50).padStart(4)} ms p99 ${String(app.p99).padStart(5)} ms` +
        ` | bare ${b.rps.toFixed(0).padStart(6)} req/s p50 ${String(b.p50).padStart(3)} ms p99 ${String(b.p99).padStart(4)} ms` +
        ` | ${(row.ratio * 100).toFixed(1).padStart(5)}% of bare${app.non2xx || app.errors ? `  (non-2xx ${app.non2xx}, errors ${app.errors})` : ""}`,
    );
  }

  console.log("\nPage weight (gzip):");
  for (const w of weights) {
    console.log(
      `${w.name.padEnd(32)} HTML ${kb(w.html).padStart(8)}  CSS ${kb(w.css).padStart(8)}  JS ${kb(w.js).padStart(8)}  HTML+CSS ${kb(w.html + w.css).padStart(8)}  all ${kb(w.html + w.css + w.js).padStart(8)}`,
    );
  }

  type Result = (typeof results)[number];
  const percentOf = (r: Result) => `${(r.ratio * 100).toFixed(1)}%`;
  /** A load target on one case; "not measured" when BENCH_ONLY skipped the case. */
  const loadTarget = (name: string, target: string, value: (r: Result) => string, pass: (r: Result) => boolean) => {
    const r = results.find((x) => x.name === name);
    return r ? { target, value: value(r), pass: pass(r) } : { target, value: "not measured", pass: false };
  };
  const targets = [
    loadTarget("signed-in catalogue (uncached)", "signed-in catalogue (uncached) >= 15% of bare req/s", percentOf, (r) => r.ratio >= 0.15),
    ...results
      .filter((r) => r.name.startsWith("anonymous"))
      .map((r) => ({ target: `${r.name} >= 60% of bare req/s`, value: percentOf(r), pass: r.ratio >= 0.6 })),
    loadTarget(
      "/admin/students?q=smith",
      "/admin/students?q= p99 < 10x bare p99",
      (r) => `${r.app.p99} ms vs ${r.bare.p99} ms (${r.p99Ratio.toFixed(1)}x)`,
      (r) => r.app.p99 < 10 * Math.max(r.bare.p99, 1),
    ),
    loadTarget("stored certificate download", "stored certificate download >= 50% of bare req/s", percentOf, (r) => r.ratio >= 0.5),
    ...weights.map((w) => ({ target: `${w.url} HTML+CSS < 60 KB gzip`, value: kb(w.html + w.css), pass: w.html + w.css < 60 * 1024 })),
    ...weights.map((w) => ({ target: `${w.url} all with JS < 160 KB gzip`, value: kb(w.html + w.css + w.js), pass: w.html + w.css + w.js < 160 * 1024 })),
  ];
  const seenTargets = new Set<string>();
  console.log("\nTargets:");
  for (const t of targets) {
    if (seenTargets.has(t.target + t.value)) continue;
    seenTargets.add(t.target + t.value);
    console.log(`${t.pass ? "PASS" : "MISS"}  ${t.target}: ${t.value}`);
  }

  fs.writeFileSync(
    RESULTS_FILE,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        connections: CONNECTIONS,
        durationSeconds: DURATION,
        rounds: ROUNDS,
        database: DB_FILE,
        load: results,
        pageWeight: weights,
        targets,
      },
      null,
      2,
    ) + "\n",
  );
  console.log(`\nWrote ${RESULTS_FILE} (${((Date.now() - started) / 1000).toFixed(0)} s in all).`);
  stopAll();
  process.exit(0);
}

function decoded(r: Captured): string {
  const enc = r.headers["content-encoding"];
  return (enc === "gzip" ? zlibGunzip(r.body) : r.body).toString("utf8");
}

function zlibGunzip(b: Buffer): Buffer {
  return zlib.gunzipSync(b);
}
/** The gzipped size of a captured body (compressed here when the server sent it plain). */
function zlibSize(r: Captured): number {
  return r.headers["content-encoding"] === "gzip" ? r.body.length : zlib.gzipSync(r.body).length;
}

/** Waits until the app answers a static file quickly again (requests left over from the last run are done). */
async function settle() {
  for (let i = 0; i < 120; i++) {
    const t = performance.now();
    await raw(PORT, "/favicon.svg");
    if (performance.now() - t < 50) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

type Load = Awaited<ReturnType<typeof load>>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Each figure's median over the rounds; errors and non-2xx answers are summed. */
function medianLoad(runs: Load[]): Load {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

// ---------------------------------------------------------------- entry (after every declaration)

if (process.argv[2] === "--bare") {
  const file = process.argv[3]!;
  const port = Number(process.argv[4]);
  const table = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, { status: number; headers: Record<string, string | string[]>; body: string }>;
  const responses = new Map(Object.entries(table).map(([url, r]) => [url, { ...r, body: Buffer.from(r.body, "base64") }]));
  http
    .createServer((req, res) => {
      const r = responses.get(req.url ?? "/");
      if (!r) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(r.status, r.headers);
      res.end(r.body);
    })
    .listen(port, () => process.send?.("ready"));
} else {
  main().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    stopAll();
    process.exit(1);
  });
}
