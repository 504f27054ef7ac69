/**
 * npm run bench:profile — where one page's time goes, against the framework's floor.
 *
 *   BENCH_PROFILE_PAGES="/login,/courses@student,/student/overview@student" npm run bench:profile
 *
 * Uses what npm run bench leaves behind: the build in BUILD_DIR (.build-bench), the large data
 * set and the floor app in tests/.tmp/floor-app (run the bench once first). For each page it
 * starts one product worker and, for comparison, one floor worker (whose /login is the page
 * every product page is held against), each alone on core 0 under V8's sampling profiler
 * (--cpu-prof), loads it with autocannon from the last core for WARM seconds (V8 optimises the
 * server's code), then for MEASURE seconds, and stops it. Only the samples taken in the measured
 * window count (the profile's clock is the machine's monotonic clock, which this process reads
 * too). It prints, per request, the CPU time in each package and the functions that spend the
 * most, for the page and for the floor side by side.
 *
 * A profile measures shares of CPU, not throughput: the sampler itself costs a few percent, and
 * the ratio of two pages' milliseconds per request is what to compare with the bench's ratios.
 * Not part of npm test.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { benchEnv, BUILD_DIR, forgetRequestCounts, signIn, startChild, stopChildrenOnExit, waitForServer } from "./bench-server";

const PORT = Number(process.env.BENCH_PORT || 3280);
const FLOOR_DIR = path.resolve("tests/.tmp/floor-app");
const WARM = Number(process.env.BENCH_PROFILE_WARM || 30);
const MEASURE = Number(process.env.BENCH_PROFILE_SECONDS || 15);
const TOP = Number(process.env.BENCH_PROFILE_TOP || 25);
const OUT = path.resolve("tests/.tmp/profiles");
const LOGINS: Record<string, string> = { student: "student@example.com", trainer: "trainer@example.com", admin: "admin@example.com" };
const CORES = os.availableParallelism();
const PIN = process.platform === "linux" && CORES >= 2 && spawnSync("taskset", ["-V"]).status === 0;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Summary {
  requests: number;
  /** CPU milliseconds a request, by package and by function. */
  packages: Map<string, number>;
  functions: Map<string, number>;
  total: number;
}

/** Which package a function belongs to: a node_modules package, the app's build, Node itself, or V8's own buckets. */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith("node:")) return "node";
  if (url.includes(`${path.sep}build${path.sep}`) || url.includes(BUILD_DIR)) return "app (server build)";
  return path.relative(process.cwd(), url.replace(/^file:\/\//, "")) || url;
}

function summarise(profile: Profile, from: number, to: number, requests: number): Summary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i]!;
    t += dt;
    if (t < from || t > to) continue;
    const node = byId.get(profile.samples[i]!)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") continue;
    const ms = dt / 1000;
    total += ms;
    const pkg = packageOf(url, functionName);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    const fn = `${functionName || "(anonymous)"} ${pkg}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + ms);
  }
  const perRequest = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [k, v / requests]));
  return { requests, packages: perRequest(packages), functions: perRequest(functions), total: total / requests };
}

/** Monotonic microseconds: the clock V8's profiler stamps its samples with. */
const now = () => Number(process.hrtime.bigint() / 1000n);

async function profileServer(label: string, options: { cwd: string; buildIndex: string; url: string; cookie?: string; env: NodeJS.ProcessEnv }) {
  const dir = path.join(OUT, `${label.replace(/[^a-z0-9]+/gi, "-")}-${Date.now()}`);
  fs.mkdirSync(dir, { recursive: true });
  const node = [
    process.execPath,
    "--max-semi-space-size=64",
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
    path.resolve("scripts/serve-worker.mjs"),
    options.buildIndex,
  ];
  const [cmd, args] = PIN ? ["taskset", ["-c", "0", ...node]] : [node[0]!, node.slice(1)];
  const child = startChild(cmd, args, { cwd: options.cwd, env: { ...options.env, PORT: String(PORT) }, stdio: ["ignore", "ignore", "inherit"] });
  await waitForServer(PORT, 240_000, "/login");
  const cookie = options.cookie?.startsWith("@") ? await signIn(PORT, LOGINS[options.cookie.slice(1)]!) : undefined;
  const headers: Record<string, string> = { "accept-encoding": "gzip", ...(cookie ? { cookie } : {}) };
  const url = `http://127.0.0.1:${PORT}${options.url}`;
  await autocannon({ url, connections: 10, duration: WARM, headers });
  const from = now();
  const result = await autocannon({ url, connections: 10, duration: MEASURE, headers });
  const to = now();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} answers not 2xx, ${result.errors} errors`);
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  const file = fs.readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
  if (!file) throw new Error(`${label}: no profile written in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Profile;
  return { summary: summarise(profile, from, to, result.requests.total), rps: result.requests.average };
}

function print(title: string, page: Awaited<ReturnType<typeof profileServer>>, floor: Awaited<ReturnType<typeof profileServer>>) {
  const p = page.summary;
  const f = floor.summary;
  console.log(
    `\n== ${title}: ${p.total.toFixed(2)} ms of CPU a request (${page.rps.toFixed(0)} req/s under the profiler); the floor's /login ${f.total.toFixed(2)} ms (${floor.rps.toFixed(0)} req/s): ${((f.total / p.total) * 100).toFixed(0)}% of the floor's pace`,
  );
  const keys = new Set([...p.packages.keys(), ...f.packages.keys()]);
  const rows = [...keys].map((k) => ({ k, page: p.packages.get(k) ?? 0, floor: f.packages.get(k) ?? 0 })).sort((a, b) => b.page - b.floor - (a.page - a.floor));
  console.log(`   ${"package".padEnd(40)} ${"page ms".padStart(8)} ${"floor ms".padStart(8)} ${"extra".padStart(8)}`);
  for (const r of rows.filter((r) => r.page > 0.01 || r.floor > 0.01)) {
    console.log(
      `   ${r.k.slice(0, 40).padEnd(40)} ${r.page.toFixed(3).padStart(8)} ${r.floor.toFixed(3).padStart(8)} ${(r.page - r.floor).toFixed(3).padStart(8)}`,
    );
  }
  console.log(`   top functions of the page (self time a request):`);
  for (const [k, v] of [...p.functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`   ${v.toFixed(3).padStart(7)} ms  ${k}`);
}

async function main() {
  if (!fs.existsSync(path.join(BUILD_DIR, "index.js")) || !fs.existsSync(path.join(FLOOR_DIR, "build", "index.js"))) {
    console.error(`No build in ${BUILD_DIR} or no floor app in ${FLOOR_DIR}: run npm run bench once first.`);
    process.exit(1);
  }
  stopChildrenOnExit();
  await forgetRequestCounts();
  const env = benchEnv();
  const pages = (process.env.BENCH_PROFILE_PAGES || "/login,/courses@student,/student/overview@student").split(",");
  const floor = await profileServer("floor", {
    cwd: FLOOR_DIR,
    buildIndex: "build/index.js",
    url: "/login",
    env: { ...process.env, NODE_ENV: "production" },
  });
  for (const spec of pages) {
    const [url, login] = spec.split("@");
    const page = await profileServer(spec, {
      cwd: process.cwd(),
      buildIndex: path.join(BUILD_DIR, "index.js"),
      url: url!,
      cookie: login ? `@${login}` : undefined,
      env,
    });
    print(spec, page, floor);
  }
}

await main();
