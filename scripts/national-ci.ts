/**
 * npm run test:national — the national volume's check in CI (issue 55, decision 044): a smaller
 * bench:national, 50,000 learners on PostgreSQL, that fails on any page over PAGE_LIMIT_MS and on
 * any page whose statement count grows with the data.
 *
 * Two databases of its own on the server TEST_DATABASE_URL names, made here and dropped at the
 * end. On one, npm start's demo data: every page of bench:pages counted as its login sees it
 * (QUERY_COUNT=1's X-Query-Count, the N+1 guard's countPages). Meanwhile seed:large's national
 * load fills the other with LEARNERS (the demo seeded under them; the demo's side mostly waits
 * on its server, so the two together take little longer than the load). On the national one,
 * every page counted again and compared with the demo's, position by position (the ids differ,
 * the list does not), and every page timed warm as its heaviest login, the fastest of RUNS after
 * one unrecorded request: a CI machine busy with the unit tests beside this part stretches single
 * requests, while a slow page is slow in all three.
 * The timing server still counts statements: a tally per request, no measurable cost beside a
 * page's queries.
 *
 * Without TEST_DATABASE_URL (SQLite runs of npm test) it skips, saying so: the national load is
 * PostgreSQL's only. BUILD_DIR (.build-national; SKIP_BUILD=1 reuses it), NATIONAL_PORT (3260),
 * NATIONAL_LEARNERS (50,000), NATIONAL_DATABASE_PREFIX (portal_national) for the databases' names.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";
import { everyPage, PAGE_LIMIT_MS, reportPageTimes, signInEveryLogin, timePages, untimedRoutes, type PageRequest } from "./bench-pages";
import { hasBuild } from "./build.mjs";
import { benchEnv, bin, run, startChild, stopAll, stopChildrenOnExit } from "./bench-server";
import { countPages, reportGrowth, startCountingServer } from "./query-growth";

const LEARNERS = Number(process.env.NATIONAL_LEARNERS || 50_000);
const PORT = Number(process.env.NATIONAL_PORT || 3260);
const BUILD_DIR = process.env.BUILD_DIR || ".build-national";
const RUNS = 3;

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

async function stop(server: ChildProcess) {
  if (server.exitCode === null) {
    server.kill("SIGTERM");
    await once(server, "exit");
  }
}

/** The demo's page list and the national one pair up: the same login and route at each place. */
function samePages(demo: PageRequest[], national: PageRequest[]) {
  const differ = national.filter((p, i) => demo[i]?.route !== p.route || demo[i]?.login !== p.login);
  if (demo.length !== national.length || differ.length)
    throw new Error(`the demo's pages and the national ones do not pair up (${demo.length} and ${national.length}; first apart: ${differ[0]?.url})`);
}

/** Runs the check: the demo on database `demoUrl`, the national volume on `nationalUrl`; true when it passes. */
async function check(demoUrl: string, nationalUrl: string): Promise<boolean> {
  const started = Date.now();
  const env = (url: string): NodeJS.ProcessEnv => ({ ...benchEnv(), BUILD_DIR, DATABASE_URL: url });
  // a process of its own: its row generation would hold this one's event loop for seconds, and
  // a kept-alive socket to the demo's server closed meanwhile is a request lost
  const seeder = startChild(bin("tsx"), ["scripts/seed-large.ts", "--learners", String(LEARNERS)], {
    env: { ...process.env, DATABASE_URL: nationalUrl },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const seeded = once(seeder, "exit").then(([code]) => {
    if (code !== 0) throw new Error(`seed:large --learners ${LEARNERS} failed (${code})`);
  });
  seeded.catch(() => {}); // awaited below; a failure before then is the demo's to report

  // 1. the demo data, as npm start seeds it
  let server = await startCountingServer(env(demoUrl), PORT);
  const demoPages = await everyPage(demoUrl);
  const untimed = untimedRoutes(demoPages);
  if (untimed.length) throw new Error(`pages with no request (add one to pagesAtSize in scripts/bench-pages.ts): ${untimed.join(", ")}`);
  const before = await countPages(PORT, demoPages, await signInEveryLogin(PORT));
  await stop(server);
  console.log(`Demo counted: ${demoPages.length} pages (${seconds(started)}).`);

  // 2. the same pages at the national volume: counted, then timed
  await seeded;
  server = await startCountingServer(env(nationalUrl), PORT);
  const pages = await everyPage(nationalUrl);
  samePages(demoPages, pages);
  const cookies = await signInEveryLogin(PORT);
  const after = await countPages(PORT, pages, cookies);
  const grown = reportGrowth(`Statements per page, demo then ${LEARNERS.toLocaleString("en-AU")} learners (PostgreSQL)`, pages, before, after);
  const timings = await timePages(PORT, cookies, pages, RUNS);
  const fast = reportPageTimes(timings, { shown: 10, dialect: `PostgreSQL, ${LEARNERS.toLocaleString("en-AU")} learners` });
  await stop(server);

  console.log(
    `\n${grown ? "FAIL" : "PASS"}  no page's statement count grows from the demo to ${LEARNERS.toLocaleString("en-AU")} learners${grown ? ` (${grown} grew)` : ""}`,
  );
  console.log(`${fast ? "PASS" : "FAIL"}  every page <= ${PAGE_LIMIT_MS} ms warm at ${LEARNERS.toLocaleString("en-AU")} learners (fastest of ${RUNS})`);
  console.log(`(${seconds(started)} in all)`);
  return !grown && fast;
}

async function main(): Promise<boolean> {
  if (!process.env.TEST_DATABASE_URL) {
    console.log(
      `National volume (${LEARNERS.toLocaleString("en-AU")} learners): skipped (TEST_DATABASE_URL is not set; the national load runs on PostgreSQL only).`,
    );
    return true;
  }
  if (process.env.SKIP_BUILD === "1" && hasBuild(BUILD_DIR)) console.log(`Reusing the build in ${BUILD_DIR}.`);
  else run(process.execPath, ["scripts/build.mjs"], { ...process.env, NODE_ENV: "production", BUILD_DIR });
  stopChildrenOnExit();
  const name = uniqueDatabaseName(process.env.NATIONAL_DATABASE_PREFIX || "portal_national");
  const names = [`${name}_demo`, `${name}_volume`];
  for (const n of names) await createDatabase(n);
  try {
    return await check(databaseUrl(names[0]!), databaseUrl(names[1]!));
  } finally {
    stopAll();
    for (const n of names) await dropDatabase(n);
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (error) => {
    console.error(error instanceof Error ? error.stack : error);
    stopAll();
    process.exit(1);
  },
);
