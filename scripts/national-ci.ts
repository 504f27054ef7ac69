/**
 * npm run test:national — the national volume's check in CI (issue 55, decision 044): a smaller
 * bench:national, 50,000 learners on PostgreSQL, that fails on any page over PAGE_LIMIT_MS and on
 * any page whose statement count grows with the data.
 *
 * On a database of its own on the server TEST_DATABASE_URL names (made here and dropped at the
 * end): npm start's demo data, every page of bench:pages counted as its login sees it
 * (QUERY_COUNT=1's X-Query-Count, the N+1 guard's countPages); then seed:large's national load
 * at LEARNERS (the demo seeded again under it), every page counted again and compared with the
 * demo's, position by position (the ids differ, the list does not), and every page timed warm as
 * its heaviest login, the fastest of RUNS after one unrecorded request: a CI machine busy with the
 * unit tests beside this part stretches single requests, while a slow page is slow in all three.
 * The timing server still counts statements: a tally per request, no measurable cost beside a
 * page's queries.
 *
 * Without TEST_DATABASE_URL (SQLite runs of npm test) it skips, saying so: the national load is
 * PostgreSQL's only. BUILD_DIR (.build-national; SKIP_BUILD=1 reuses it), NATIONAL_PORT (3260),
 * NATIONAL_LEARNERS (50,000), NATIONAL_DATABASE_PREFIX (portal_national) for the database's name.
 */
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { createDatabase, databaseUrl, dropDatabase, uniqueDatabaseName } from "../tests/support/postgres-test-server";
import { everyPage, PAGE_LIMIT_MS, reportPageTimes, signInEveryLogin, timePages, untimedRoutes, type PageRequest } from "./bench-pages";
import { benchEnv, bin, run, stopAll, stopChildrenOnExit } from "./bench-server";
import { countPages, reportGrowth, startCountingServer } from "./query-growth";
import { seedNational } from "./seed-national";

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
  if (demo.length !== national.length || differ.length) throw new Error(`the demo's pages and the national ones do not pair up (${demo.length} and ${national.length}; first apart: ${differ[0]?.url})`);
}

/** Runs the check on database `url`; true when it passes. */
async function check(url: string): Promise<boolean> {
  const started = Date.now();
  const env: NodeJS.ProcessEnv = { ...benchEnv(), BUILD_DIR, DATABASE_URL: url };

  // 1. the demo data, as npm start seeds it
  let server = await startCountingServer(env, PORT);
  const demoPages = await everyPage(url);
  const untimed = untimedRoutes(demoPages);
  if (untimed.length) throw new Error(`pages with no request (add one to pagesAtSize in scripts/bench-pages.ts): ${untimed.join(", ")}`);
  const before = await countPages(PORT, demoPages, await signInEveryLogin(PORT));
  await stop(server);
  console.log(`Demo counted: ${demoPages.length} pages (${seconds(started)}).`);

  // 2. the national volume: the schema made afresh, the demo seeded again, the bulk streamed
  await seedNational(url, { learners: LEARNERS, force: true });

  // 3. the same pages at volume: counted, then timed
  server = await startCountingServer(env, PORT);
  const pages = await everyPage(url);
  samePages(demoPages, pages);
  const cookies = await signInEveryLogin(PORT);
  const after = await countPages(PORT, pages, cookies);
  const grown = reportGrowth(`Statements per page, demo then ${LEARNERS.toLocaleString("en-AU")} learners (PostgreSQL)`, pages, before, after);
  const timings = await timePages(PORT, cookies, pages, RUNS);
  const fast = reportPageTimes(timings, { shown: 10, dialect: `PostgreSQL, ${LEARNERS.toLocaleString("en-AU")} learners` });
  await stop(server);

  console.log(`\n${grown ? "FAIL" : "PASS"}  no page's statement count grows from the demo to ${LEARNERS.toLocaleString("en-AU")} learners${grown ? ` (${grown} grew)` : ""}`);
  console.log(`${fast ? "PASS" : "FAIL"}  every page <= ${PAGE_LIMIT_MS} ms warm at ${LEARNERS.toLocaleString("en-AU")} learners (fastest of ${RUNS})`);
  console.log(`(${seconds(started)} in all)`);
  return !grown && fast;
}

async function main(): Promise<boolean> {
  if (!process.env.TEST_DATABASE_URL) {
    console.log(`National volume (${LEARNERS.toLocaleString("en-AU")} learners): skipped (TEST_DATABASE_URL is not set; the national load runs on PostgreSQL only).`);
    return true;
  }
  if (process.env.SKIP_BUILD === "1" && fs.existsSync(path.join(BUILD_DIR, "index.js"))) console.log(`Reusing the build in ${BUILD_DIR}.`);
  else run(bin("remix"), ["build"], { ...process.env, NODE_ENV: "production", BUILD_DIR });
  stopChildrenOnExit();
  const name = uniqueDatabaseName(process.env.NATIONAL_DATABASE_PREFIX || "portal_national");
  await createDatabase(name);
  try {
    return await check(databaseUrl(name));
  } finally {
    stopAll();
    await dropDatabase(name);
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
