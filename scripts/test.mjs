/**
 * npm test: every part of the suite, packed onto the machine's cores (docs/decisions/026).
 *
 * The parts are the npm scripts a reader can run one at a time (typecheck, lint, test:unit,
 * test:e2e, test:crash, test:workers, test:stop, test:servers, test:uploads, test:queries,
 * test:national) plus the production build they share: built once here, the browser journeys and
 * the server scripts all run on it
 * (E2E_SKIP_BUILD=1 and BUILD_DIR). Parts in one stage run at the same time, each on its own
 * ports and database; a stage starts when the one before has ended. A part that keeps a core
 * busy shares its stage only with parts that mostly wait (for a server to start, a signal's
 * drain, a mail delivery poll), so none of them runs slower than alone by more than a little.
 *
 * Every part runs even when an earlier one failed (CI shows them all); a part's output is
 * printed whole when it ends, then a summary of every part with its time, and the exit code
 * is non-zero when any failed.
 *
 *   npm test                 (TEST_DATABASE_URL adds the PostgreSQL projects and scripts)
 *   npm test -- unit e2e     (only the named parts, and the build when they need it)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hasBuild } from "./build.mjs";

const bin = (name) => path.resolve("node_modules", ".bin", name);
const tsx = (script) => [bin("tsx"), [script]];
const buildDir = process.env.BUILD_DIR ?? "build";

/** What each part runs; `build: true` when it needs the production build. */
const PARTS = {
  // TypeScript 7, the compiler's native port: the same checks as the editor's TypeScript 5 in a
  // third of the CPU time (docs/decisions/047-typescript-7-checks-the-types.md)
  typecheck: { command: [process.execPath, [path.resolve("node_modules/typescript-native/bin/tsc"), "--noEmit", "--singleThreaded"]] },
  // the linter, then Prettier's check of the layout (npm run format writes it)
  lint: { command: ["sh", ["-c", `"${bin("eslint")}" . && "${bin("prettier")}" --check --log-level warn .`]] },
  // the app and the scripts of a deployment (npm run build)
  build: { command: [process.execPath, [path.resolve("scripts/build.mjs")]] },
  unit: { command: [bin("vitest"), ["run"]] },
  e2e: { command: [bin("playwright"), ["test"]], build: true },
  crash: { command: tsx("scripts/crash-test.ts"), build: true },
  workers: { command: tsx("scripts/workers-test.ts"), build: true },
  stop: { command: tsx("scripts/stop-test.ts"), build: true },
  servers: { command: tsx("scripts/several-servers.ts"), build: true },
  uploads: { command: tsx("scripts/upload-torture.ts"), build: true },
  // the N+1 guard: every page's statement count the same on the demo and with 500 more learners
  queries: { command: tsx("scripts/query-growth.ts"), build: true },
  // the national volume at 50,000 learners on PostgreSQL: every page's statement count the same
  // as on the demo, every page within 250 ms warm (skips without TEST_DATABASE_URL)
  national: { command: tsx("scripts/national-ci.ts"), build: true },
  // its own PostgreSQL cluster, restarted four ways under writes (skips without TEST_DATABASE_URL)
  restart: { command: tsx("scripts/pg-restart-test.ts"), build: true },
};

/**
 * The order. Measured on two cores (docs/decisions/026): the typecheck, the linter and the build
 * are single-threaded for most of their time, so the three together fill both cores; the unit
 * tests and the browser journeys fill both cores alone. Beside the unit tests sit the parts that
 * mostly wait: the stop test (npm start and its drains), the upload torture test (about 20 s,
 * half of it its server starting), the N+1 guard (about 40 s of one thread), the crash loop
 * (70 s of CPU in four and a half minutes: servers starting, kills, mail and webhook polls; its
 * waits allow for a busy machine). With TEST_DATABASE_URL the national volume runs alone after
 * the journeys (under two minutes, half of it PostgreSQL loading 50,000 learners): beside the
 * unit tests it stretched them from 8 to 11 minutes, more than it takes alone. The
 * several-servers and workers scripts each run alone: they
 * kill and replace workers and time their answers, which a machine busy with another of them
 * stretches past their limits.
 */
const STAGES = [["typecheck", "lint", "build"], ["unit", "stop", "uploads", "queries", "crash"], ["e2e"], ["national"], ["servers"], ["workers"], ["restart"]];

/**
 * CPU time of this process's finished children, in seconds: the processes it and they waited for.
 * A process whose parent did not wait for it is not in this figure: a browser's renderers and
 * Playwright's browsers end that way, so it leaves out most of a browser's work (see cpuGroup).
 */
function childrenCpuSeconds() {
  try {
    const fields = fs.readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime + cstime, in USER_HZ ticks
  } catch {
    return NaN; // not Linux
  }
}

/** A part's CPU: every process it started, and (as earlier runs printed it) the ones waited for. */
const cpuText = (all, waited) => (all === null ? `${Math.round(waited)} s CPU` : `${Math.round(all)} s CPU (${Math.round(waited)} s waited for)`);

const minutes = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0")}`;

/**
 * The CPU time of every process a part started, whoever reaped it: the runner joins a CPU
 * accounting group of its own (cgroup v1's cpuacct, else v2's cpu.stat) before it starts the
 * part, every process the part starts is in that group for life, and the group counts what
 * they used even after they are gone. Null where no such group can be made (not Linux, not
 * allowed): then only the waited-for figure is printed.
 */
function cpuGroup(name) {
  const kinds = [
    { root: "/sys/fs/cgroup/cpuacct", seconds: (dir) => Number(fs.readFileSync(path.join(dir, "cpuacct.usage"), "utf8")) / 1e9 },
    ...["/sys/fs/cgroup/unified", "/sys/fs/cgroup"].map((root) => ({
      root,
      seconds: (dir) => Number(/^usage_usec (\d+)$/m.exec(fs.readFileSync(path.join(dir, "cpu.stat"), "utf8"))?.[1]) / 1e6,
    })),
  ];
  for (const { root, seconds } of kinds) {
    const group = { dir: path.join(root, `npm-test-${name}-${process.pid}`), root, seconds: () => seconds(group.dir) };
    try {
      fs.mkdirSync(group.dir);
      fs.writeFileSync(path.join(group.dir, "cgroup.procs"), String(process.pid));
      if (!Number.isFinite(group.seconds())) throw new Error("no CPU figure");
      return group;
    } catch {
      leaveCpuGroup(group);
    }
  }
  return null;
}

/**
 * The runner goes back to the parent group and removes its own; a process of the part still
 * running keeps the group, and the run removes it at its end (where one is left, it does no harm).
 */
function leaveCpuGroup({ dir, root }) {
  try {
    fs.writeFileSync(path.join(root, "cgroup.procs"), String(process.pid));
    fs.rmdirSync(dir);
  } catch {
    /* not made, not joined, or a straggler of the part's still runs in it */
  }
}

/**
 * A part runs under a copy of this script (`--part NAME`) that waits for it and then writes the
 * CPU time the part used to descriptor 3: every process it started (cpuGroup), and the ones
 * waited for alone (childrenCpuSeconds, the figure earlier runs printed). Parts that run at the
 * same time are measured apart.
 */
if (process.argv[2] === "--part") {
  const name = process.argv[3];
  const group = cpuGroup(name);
  const [cmd, args] = PARTS[name].command;
  const child = spawn(cmd, args, { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("close", (code, signal) => {
    const all = group?.seconds() ?? null;
    if (group) leaveCpuGroup(group);
    fs.writeSync(3, JSON.stringify({ cpu: childrenCpuSeconds(), all, group: group && fs.existsSync(group.dir) ? group.dir : null }));
    process.exit(code ?? (signal ? 1 : 0));
  });
} else {
  await main();
}

/**
 * Runs one part. The stage's first part shows its output as it comes (CI's log moves while the
 * longest parts run); the others' output is kept and printed whole when each ends, so parts
 * running together never interleave their lines.
 */
function runPart(name, results, live) {
  const started = Date.now();
  // the build made in the first stage: the browser journeys, the server scripts and the unit
  // test of the browser bundle (scripts/bundle.test.ts) read it rather than build again
  const env = { ...process.env, BUILD_DIR: buildDir, E2E_SKIP_BUILD: "1", SKIP_BUILD: "1", TEST_BUILD_DIR: buildDir };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [process.argv[1], "--part", name], { env, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    const output = [];
    let report = "";
    if (live) process.stdout.write(`\n===== ${name} =====\n`);
    const seen = [];
    const keep = (chunk) => {
      seen.push(chunk);
      return live ? process.stdout.write(chunk) : output.push(chunk);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.stdio[3].on("data", (chunk) => (report += chunk));
    const stopChild = (signal) => child.kill(signal);
    process.on("SIGINT", stopChild);
    process.on("SIGTERM", stopChild);
    child.on("close", (code, signal) => {
      process.off("SIGINT", stopChild);
      process.off("SIGTERM", stopChild);
      const ms = Date.now() - started;
      const ok = code === 0;
      let cpu = NaN;
      let all = null;
      let group = null;
      try {
        ({ cpu, all, group } = JSON.parse(report));
      } catch {
        /* the part's runner died before reporting */
      }
      process.stdout.write(
        `\n===== ${name}: ${ok ? "passed" : "FAILED"} (${minutes(ms)} wall, ${cpuText(all, cpu)}, load ${os.loadavg()[0].toFixed(1)}) =====\n`,
      );
      process.stdout.write(Buffer.concat(output));
      results.push({ name, ok, ms, cpu, all, group, code: code ?? signal, failures: ok ? [] : failureLines(Buffer.concat(seen).toString("utf8")) });
      resolve(ok);
    });
  });
}

/**
 * The lines of a failed part's output that name what failed (a failed test, an error's first
 * line), each once and at most 30: the summary at the end of a long CI log repeats them, since
 * a CI report may keep only the log's tail.
 */
function failureLines(text) {
  // the terminal's colour codes (ESC [ ... m) out of the way of the patterns
  // (vitest marks a failed test with a leading "×"; "20× 400" in a passing line is a count)
  const plain = text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
  const lines = plain
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => /✘|^\s*×|\bFAIL\b|^\s*\d+\) |Error: |\d+ failed|FAILED/.test(line));
  return [...new Set(lines)].slice(-30);
}

/** The parts named on the command line (all when none), and the build when one of them needs it. */
function wantedParts() {
  const asked = process.argv.slice(2);
  for (const name of asked) if (!(name in PARTS)) throw new Error(`npm test: no part named ${name} (parts: ${Object.keys(PARTS).join(", ")})`);
  if (asked.length === 0) return new Set(Object.keys(PARTS)); // the whole suite builds afresh
  const wanted = new Set(asked);
  // a named part reuses a build already there
  if (asked.some((name) => PARTS[name].build) && !hasBuild(buildDir)) wanted.add("build");
  return wanted;
}

async function main() {
  const wanted = wantedParts();
  const results = [];
  const started = Date.now();
  for (const stage of STAGES) {
    const parts = stage.filter((name) => wanted.has(name));
    if (parts.length === 0) continue;
    console.log(`npm test: ${parts.join(" + ")} (${minutes(Date.now() - started)} in, load ${os.loadavg()[0].toFixed(1)})`);
    await Promise.all(parts.map((name, i) => runPart(name, results, i === 0)));
  }
  // the groups a part's stragglers kept (a browser closing, esbuild's service), empty by now
  for (const { group } of results) {
    try {
      if (group) fs.rmdirSync(group);
    } catch {
      /* still in use: it does no harm */
    }
  }
  const failed = results.filter((r) => !r.ok);
  console.log("\n===== npm test =====");
  for (const r of results) {
    console.log(`${r.ok ? "passed" : "FAILED"}  ${r.name.padEnd(9)} ${minutes(r.ms)} wall, ${cpuText(r.all, r.cpu)}${r.ok ? "" : ` (exit ${r.code})`}`);
  }
  for (const r of failed) {
    console.log(`\nwhat failed in ${r.name}:`);
    for (const line of r.failures) console.log(`  ${line.trim().slice(0, 300)}`);
  }
  const cpu = results.reduce((sum, r) => sum + r.cpu, 0);
  const all = results.every((r) => r.all !== null) ? results.reduce((sum, r) => sum + r.all, 0) : null;
  console.log(
    `${results.length - failed.length} of ${results.length} parts passed in ${minutes(Date.now() - started)} ` +
      `(${cpuText(all, cpu)} on ${os.availableParallelism()} cores; load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
  );
  process.exit(failed.length ? 1 : 0);
}
