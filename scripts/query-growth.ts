/**
 * npm run test:queries — the N+1 guard: every page's SQL statement count must not grow with the
 * data. Starts the product with QUERY_COUNT=1 (each answer carries X-Query-Count, the statements
 * its request ran: app/http/query-count.server.ts) on a fresh demo database, asks for every page
 * of bench:pages' list as its role, adds LEARNERS more learners (each with two enrolments, one
 * in the trainer's busiest class, a result recorded by the trainer, one in a hundred a worker on
 * the employer's booking), asks again, and fails naming each page whose count went up. A page that reads a list row by row (a query
 * per learner, per enrolment) grows with them; a page of fixed queries does not.
 *
 * Builds into BUILD_DIR (.build-queries; SKIP_BUILD=1 reuses it). SQLite by default
 * (tests/.tmp/query-growth.db, made afresh); DATABASE_URL=postgres://… runs on that database,
 * wiped first (`prepare --reset`). QUERY_GROWTH_PORT (3250). Each page is asked twice at each
 * size and the lower count kept, so a write a request makes only now and then (a session's
 * renewal) is not taken for growth.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openDatabase, type DB } from "../db/connection";
import { isPostgresUrl } from "../db/dialect";
import { busiestClassOf, employerBooking, LOGIN_EMAILS, pagesAtSize, signInEveryLogin, untimedRoutes, type Login, type PageRequest } from "./bench-pages";
import { builtScript, hasBuild } from "./build.mjs";
import { benchEnv, raw, run, startChild, stopAll, stopChildrenOnExit, waitForServer } from "./bench-server";

const LEARNERS = Number(process.env.QUERY_GROWTH_LEARNERS || 500);
const PORT = Number(process.env.QUERY_GROWTH_PORT || 3250);
const BUILD_DIR = process.env.BUILD_DIR || ".build-queries";
const DB_FILE = path.resolve("tests/.tmp/query-growth.db");
const POSTGRES_URL = process.env.DATABASE_URL && isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
const DATABASE_URL = POSTGRES_URL ?? `file:${DB_FILE}`;

/** The statement count of each page as its login sees it (the lower of two requests), in the pages' order. */
export async function countPages(port: number, pages: PageRequest[], cookies: Record<Login, string | null>): Promise<number[]> {
  const counts: number[] = [];
  const wrong: string[] = [];
  for (const page of pages) {
    const cookie = cookies[page.login];
    let least = Infinity;
    for (let k = 0; k < 2; k++) {
      const r = await raw(port, page.url, { headers: cookie ? { Cookie: cookie } : {} });
      if (r.status !== (page.status ?? 200)) wrong.push(`${page.url} as ${page.login} gave ${r.status}`);
      const header = r.headers["x-query-count"];
      if (typeof header !== "string") throw new Error(`${page.url} answered without X-Query-Count: is QUERY_COUNT=1 reaching the server?`);
      least = Math.min(least, Number(header));
    }
    counts.push(least);
  }
  if (wrong.length) throw new Error(`pages that did not answer as expected:\n  ${[...new Set(wrong)].join("\n  ")}`);
  return counts;
}

/**
 * Prints the five pages with the most statements and each page whose count went up between
 * `before` and `after` (counts of `pages`, in its order); answers how many went up.
 */
export function reportGrowth(title: string, pages: PageRequest[], before: number[], after: number[]): number {
  const key = (i: number) => `${pages[i]!.login} ${pages[i]!.url}`;
  const grown = after.map((n, i) => i).filter((i) => after[i]! > before[i]!);
  console.log(`\n${title} (${pages.length} pages):`);
  const most = after
    .map((n, i) => i)
    .sort((a, b) => after[b]! - after[a]!)
    .slice(0, 5);
  for (const i of most) console.log(`  ${String(before[i]).padStart(4)} -> ${String(after[i]).padStart(4)}  ${key(i)}`);
  for (const i of grown) console.log(`GREW  ${before[i]} -> ${after[i]}  ${key(i)}`);
  return grown.length;
}

/**
 * The product as npm start runs it, on one worker, counting each request's statements
 * (QUERY_COUNT=1) and with the background runner off (no job's statements in a page's count);
 * answers once it serves.
 */
export async function startCountingServer(env: NodeJS.ProcessEnv, port: number) {
  const child = startChild(process.execPath, ["scripts/start.mjs"], {
    env: { ...env, QUERY_COUNT: "1", JOBS: "off", PORT: String(port), WEB_CONCURRENCY: "1" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitForServer(port);
  return child;
}

/**
 * LEARNERS more learners where the pages look: each enrolled in the trainer's busiest class (its
 * roll, the trainer's lists) and in another course, with a result recorded by the trainer, one
 * in a hundred a worker on the employer's booking. Plain inserts, in one transaction: seconds, not the
 * product's rules (what the pages read, not how it got there).
 */
async function addLearners(db: DB, count: number): Promise<void> {
  const trainer = await db.selectFrom("users").select("id").where("email", "=", LOGIN_EMAILS.trainer).executeTakeFirstOrThrow();
  // the class bench:pages times the trainer's class page on
  const busiestClass = await busiestClassOf(db, trainer.id);
  const booking = await employerBooking(db);
  const other = await db
    .selectFrom("courses")
    .select("id")
    .where("id", "<>", busiestClass.course_id)
    .where("is_active", "=", 1)
    .orderBy("name")
    .executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i += 100) {
      const users = Array.from({ length: Math.min(100, count - i) }, (_, k) => ({
        id: crypto.randomUUID(),
        email: `growth-${i + k}@example.com`,
        full_name: `Growth Learner ${i + k}`,
        password_hash: "not-a-password",
        role: "student" as const,
        phone: "0400 000 000",
        is_active: 1,
        approval_status: "approved" as const,
        created_at: now,
        updated_at: now,
      }));
      await trx.insertInto("users").values(users).execute();
      const enrollments = users.flatMap((u) => [
        {
          id: crypto.randomUUID(),
          student_id: u.id,
          course_id: busiestClass.course_id,
          class_id: busiestClass.id,
          status: "in_progress" as const,
          progress_percentage: 40,
          enrollment_date: now,
          updated_at: now,
        },
        {
          id: crypto.randomUUID(),
          student_id: u.id,
          course_id: other.id,
          status: "enrolled" as const,
          progress_percentage: 0,
          enrollment_date: now,
          updated_at: now,
        },
      ]);
      await trx.insertInto("enrollments").values(enrollments).execute();
      await trx
        .insertInto("assessments")
        .values(
          enrollments
            .filter((e) => e.class_id)
            .map((e) => ({
              id: crypto.randomUUID(),
              enrollment_id: e.id,
              student_id: e.student_id,
              course_id: e.course_id,
              assessment_type: "practical",
              status: "passed" as const,
              score: 80,
              max_score: 100,
              assessment_date: now,
              feedback: null,
              assessed_by: trainer.id,
              created_at: now,
            })),
        )
        .execute();
      // the first of each hundred also named on the employer's booking, sharing their results:
      // the employer's overview, booking and CSV list each worker
      const worker = users[0]!;
      const enrollment = enrollments.find((e) => e.student_id === worker.id && e.class_id)!;
      await trx
        .insertInto("booking_workers")
        .values({
          id: crypto.randomUUID(),
          booking_id: booking.id,
          full_name: worker.full_name,
          email: worker.email,
          user_id: worker.id,
          enrollment_id: enrollment.id,
          consent: 1,
          consent_at: now,
          invited_at: now,
          accepted_at: now,
        })
        .execute();
    }
  });
}

async function main() {
  const started = Date.now();
  // the bench's production environment on this check's own build and database
  const env: NodeJS.ProcessEnv = { ...benchEnv(), BUILD_DIR, DATABASE_URL };
  if (process.env.SKIP_BUILD === "1" && hasBuild(BUILD_DIR)) console.log(`Reusing the build in ${BUILD_DIR}.`);
  else run(process.execPath, ["scripts/build.mjs"], env);
  if (POSTGRES_URL) run(process.execPath, [builtScript(BUILD_DIR, "prepare"), "--reset"], env);
  else for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) fs.rmSync(f, { force: true });
  stopChildrenOnExit();
  await startCountingServer(env, PORT);
  const db = openDatabase(DATABASE_URL);
  try {
    const pages = await pagesAtSize(db);
    const untimed = untimedRoutes(pages);
    if (untimed.length) throw new Error(`pages with no request (add one to pagesAtSize in scripts/bench-pages.ts): ${untimed.join(", ")}`);
    const cookies = await signInEveryLogin(PORT);
    const before = await countPages(PORT, pages, cookies);
    await addLearners(db, LEARNERS);
    const after = await countPages(PORT, pages, cookies);
    const grown = reportGrowth(`Statements per page, demo then demo + ${LEARNERS} learners (${POSTGRES_URL ? "PostgreSQL" : "SQLite"})`, pages, before, after);
    console.log(`\n${grown ? "FAIL" : "PASS"}  no page's statement count grows with the data (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    process.exitCode = grown ? 1 : 0;
  } finally {
    await db.destroy();
    stopAll();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    stopAll();
    process.exit(1);
  });
}
