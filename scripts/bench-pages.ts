/**
 * npm run bench:pages — one request of every page on the large data set (20,000 students,
 * 100,000 enrolments), warm, one worker: prints the slowest five and fails when a page takes
 * longer than PAGE_LIMIT_MS. `npm run bench` runs the same timing on its one-worker server.
 *
 * Builds into BUILD_DIR (SKIP_BUILD=1 reuses it), prepares the bench database as the bench does
 * (tests/.tmp/bench.db, or DATABASE_URL=postgres://… seeded on first run), starts the product
 * with one worker on BENCH_PORT (3180), signs in the demo logins and asks for every page, each
 * as the role that sees it: one unrecorded request, then PAGE_RUNS (5) timed ones. The fastest
 * counts, and the median is printed beside it: on a machine shared with other work the spread
 * is the other work's (the same page measured 23-1056 ms in five runs at a load average of 11
 * on two cores), while a page whose own work is slow is slow in every run. Every page
 * route in app/routes must have a request below or a reason in NOT_TIMED, so a new page is timed
 * from the day it lands. Not part of npm test.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql } from "kysely";
import { openDatabase, type DB } from "../db/connection";
import { routeModuleFiles, routeSource } from "../tests/support/route-files";
import {
  benchEnv,
  buildAndPrepare,
  forgetRequestCounts,
  DATABASE_URL,
  DIALECT,
  median,
  raw,
  signIn,
  startChild,
  stopAll,
  stopChildrenOnExit,
  waitForServer,
} from "./bench-server";

/** The most one request of any page may take at 20,000 students and 100,000 enrolments, warm, one worker. */
export const PAGE_LIMIT_MS = 250;
const RUNS = Math.max(1, Number(process.env.PAGE_RUNS || 5));

export type Login = "anonymous" | "student" | "trainer" | "admin" | "employer";
export const LOGIN_EMAILS: Record<Exclude<Login, "anonymous">, string> = {
  student: "student@example.com",
  trainer: "trainer@example.com",
  admin: "admin@example.com",
  employer: "employer@example.com",
};

export interface PageRequest {
  /** the route module's path under app/routes, without its extension */
  route: string;
  url: string;
  login: Login;
  /** the status the page answers with (200 unless named) */
  status?: number;
}

/**
 * The searches' term: a surname the demo's learners (Mia Nguyen) and the large data sets' both
 * carry, so each search lists rows at every size, and the N+1 guard compares a full list with a
 * full list (an empty one skips its rows' query, which would count as growth).
 */
const SEARCH = "nguyen";

/** Page routes with no request of their own, and why. */
export const NOT_TIMED: Record<string, string> = {
  "_landing+/_layout": "layout of / and /forgot-password, rendered with them",
  "admin+/_layout": "layout of every /admin page, rendered with them",
  "student+/_layout": "layout of every /student page, rendered with them",
  "trainer+/_layout": "layout of every /trainer page, rendered with them",
  "employer+/_layout": "layout of every /employer page, rendered with them",
  "complaints+/_layout": "layout of the public complaint pages, rendered with them",
  "verify+/_layout": "layout of /verify pages, rendered with them",
  "_auth+/login_.two-step": "needs a password accepted a moment before for an account with two-step sign-in; reads one session row",
};

/** The trainer's class with the most enrolments: its pages are timed at their worst. */
export function busiestClassOf(db: DB, trainerId: string) {
  return db
    .selectFrom("classes")
    .leftJoin("enrollments", "enrollments.class_id", "classes.id")
    .select(["classes.id", "classes.course_id"])
    .where("classes.trainer_id", "=", trainerId)
    .groupBy(["classes.id", "classes.course_id"])
    .orderBy(sql`count(enrollments.id)`, "desc")
    .orderBy("classes.id")
    .executeTakeFirstOrThrow();
}

/** The demo employer's first booking, the one its pages are timed on. */
export async function employerBooking(db: DB) {
  const bookings = db
    .selectFrom("group_bookings")
    .innerJoin("users", "users.employer_id", "group_bookings.employer_id")
    .select("group_bookings.id")
    .where("users.email", "=", LOGIN_EMAILS.employer)
    .orderBy("group_bookings.id");
  // one with a worker who accepted (its pages show their enrolment): a booking the load run of
  // bench:national made on a reused database has none yet
  const accepted = await bookings
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("booking_workers")
          .select("booking_workers.id")
          .whereRef("booking_workers.booking_id", "=", "group_bookings.id")
          .where("booking_workers.enrollment_id", "is not", null),
      ),
    )
    .executeTakeFirst();
  return accepted ?? (await bookings.executeTakeFirstOrThrow());
}

/**
 * Every page, with ids from the bench database: the demo learner's own records, and for the
 * staff pages that show one record the record with the most behind it (the busiest course and
 * class), so each page is timed at its worst.
 */
export async function pagesAtSize(db: DB): Promise<PageRequest[]> {
  const userId = async (email: string) => (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
  const student = await userId(LOGIN_EMAILS.student);
  const trainer = await userId(LOGIN_EMAILS.trainer);
  const enrollment = await db.selectFrom("enrollments").select("id").where("student_id", "=", student).orderBy("enrollment_date").executeTakeFirstOrThrow();
  const busiestCourse = await db
    .selectFrom("enrollments")
    .select("course_id")
    .groupBy("course_id")
    .orderBy(sql`count(*)`, "desc")
    .orderBy("course_id")
    .executeTakeFirstOrThrow();
  const busiestClass = await busiestClassOf(db, trainer);
  const openCourse = await db
    .selectFrom("courses")
    .select("id")
    .where("is_active", "=", 1)
    .where("id", "not in", db.selectFrom("enrollments").select("course_id").where("student_id", "=", student))
    .orderBy("name")
    .executeTakeFirstOrThrow();
  const location = await db.selectFrom("delivery_locations").select("id").orderBy("created_at").executeTakeFirstOrThrow();
  const assessment = await db
    .selectFrom("hrw_assessments")
    .select(["id", "candidate_id"])
    .where("assessor_id", "=", trainer)
    .orderBy("assessment_date")
    .executeTakeFirstOrThrow();
  const certificate = await db
    .selectFrom("certificates")
    .select("verification_code")
    .where("student_id", "=", student)
    .orderBy("issue_date")
    .executeTakeFirstOrThrow();
  // the round's registers: the demo organisation's own records (the large set adds learners and
  // enrolments, which these pages join), each chosen by what it holds, not by its random id, so
  // every database seeded with the demo times (and the N+1 guard counts) the same record
  const complaint = await db.selectFrom("complaints").select("id").orderBy("reference").orderBy("id").executeTakeFirstOrThrow();
  const improvement = await db
    .selectFrom("improvement_actions")
    .select("id")
    .orderBy("created_at")
    .orderBy("description")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const validationPlan = await db
    .selectFrom("validation_plans")
    .innerJoin("courses", "courses.id", "validation_plans.course_id")
    .select("validation_plans.id")
    .orderBy("courses.unit_code")
    .orderBy("validation_plans.planned_on")
    .orderBy("validation_plans.id")
    .executeTakeFirstOrThrow();
  // the first number is the demo's: the large set's invoices continue the series after it
  const invoice = await db.selectFrom("invoices").select("id").orderBy("number").executeTakeFirstOrThrow();
  const employer = await db.selectFrom("users").select("employer_id").where("email", "=", LOGIN_EMAILS.employer).executeTakeFirstOrThrow();
  const unitAssessment = await db.selectFrom("assessments").select("id").where("student_id", "=", student).orderBy("assessment_date").executeTakeFirstOrThrow();
  const trainerAssessment = await db
    .selectFrom("assessments")
    .select("id")
    .where("assessed_by", "=", trainer)
    .orderBy("assessment_date", "desc")
    .executeTakeFirstOrThrow();
  const booking = await employerBooking(db);
  // a worker who accepted: the page shows their enrolment, attendance and (with consent) results;
  // one who consented, the same one whatever the ids (the other leaves the results unread)
  const worker = await db
    .selectFrom("booking_workers")
    .select("id")
    .where("booking_id", "=", booking.id)
    .where("enrollment_id", "is not", null)
    .orderBy(sql`coalesce(consent, 0)`, "desc")
    .orderBy("accepted_at")
    .orderBy("id")
    .executeTakeFirstOrThrow();

  // the round's recognition: the demo learner's own application (the office's pages: else the first)
  const ownRecognition = await db.selectFrom("recognition_applications").select("id").where("student_id", "=", student).orderBy("id").executeTakeFirst();
  // else the one with the most behind its page, the same one whatever its random id: an RPL not
  // yet decided (its assessors, referees, sessions and locations), then any RPL, the oldest first
  const recognition =
    ownRecognition ??
    (await db
      .selectFrom("recognition_applications")
      .select("id")
      .orderBy(sql`case when kind = 'rpl' and status = 'applied' then 0 when kind = 'rpl' then 1 else 2 end`)
      .orderBy("applied_at")
      .orderBy("id")
      .executeTakeFirst());
  const webhook = await db.selectFrom("webhook_endpoints").select("id").orderBy("id").executeTakeFirst();
  const noSuchRecord = "00000000-0000-4000-8000-000000000000";

  const pages: PageRequest[] = [];
  const add = (login: Login, route: string, ...urls: string[]) => {
    for (const url of urls) pages.push({ route, url, login });
  };
  add("anonymous", "_landing+/_index", "/");
  add("anonymous", "courses", "/courses", "/courses?page=2", "/courses?q=crane");
  add("anonymous", "courses_.$id", `/courses/${busiestCourse.course_id}`);
  add("anonymous", "courses_.$id_.review", `/courses/${openCourse.id}/review`);
  add("anonymous", "complaints+/new", "/complaints/new");
  add("anonymous", "complaints+/policy", "/complaints/policy");
  // a mailed link's page with a token that is not one: the same lookup and page a live one reads
  pages.push({ route: "_auth+/invitation.$token", url: "/invitation/not-a-token", login: "anonymous", status: 404 });
  pages.push({ route: "_auth+/employer-invitation.$token", url: "/employer-invitation/not-a-token", login: "anonymous", status: 404 });
  pages.push({ route: "questionnaire.$token", url: "/questionnaire/not-a-token", login: "anonymous", status: 404 });
  pages.push({ route: "referee-report.$token", url: "/referee-report/not-a-token", login: "anonymous", status: 404 });
  add("anonymous", "policies.$slug", "/policies/terms", "/policies/privacy");
  add("anonymous", "_auth+/login", "/login");
  add("anonymous", "_auth+/register", "/register");
  add("anonymous", "_landing+/forgot-password", "/forgot-password");
  add("anonymous", "verify+/_index", "/verify");
  add("anonymous", "verify+/$code", `/verify/${certificate.verification_code}`);
  pages.push({ route: "_auth+/reset-password.$token", url: "/reset-password/not-a-token", login: "anonymous", status: 404 });
  pages.push({ route: "$", url: "/no-such-page", login: "anonymous", status: 404 });

  add("student", "courses", "/courses");
  add("student", "enroll.$courseId", `/enroll/${openCourse.id}`);
  add("student", "student+/overview", "/student/overview");
  add("student", "student+/courses", "/student/courses");
  add("student", "student+/certificates", "/student/certificates");
  add("student", "student+/notifications", "/student/notifications");
  add("student", "student+/calendar", "/student/calendar");
  add("student", "student+/profile", "/student/profile");
  add("student", "student+/profile.edit", "/student/profile/edit");
  add("student", "student+/profile.enrollment", "/student/profile/enrollment");
  add("student", "_auth+/account.security", "/account/security");
  add("student", "student+/appeals", "/student/appeals");
  add("student", "student+/appeals_.$kind.$id", `/student/appeals/unit/${unitAssessment.id}`);
  add("student", "student+/evidence", "/student/evidence");
  add("student", "student+/invoices", "/student/invoices");
  add("student", "student+/employers", "/student/employers");
  add("student", "student+/recognition", "/student/recognition");
  // another learner's application answers 404 after the same lookup
  pages.push({
    route: "student+/recognition_.$id",
    url: `/student/recognition/${ownRecognition?.id ?? noSuchRecord}`,
    login: "student",
    status: ownRecognition ? undefined : 404,
  });

  add("trainer", "trainer+/overview", "/trainer/overview");
  add("trainer", "trainer+/students", "/trainer/students", `/trainer/students?q=${SEARCH}`);
  add(
    "trainer",
    "trainer+/assessments",
    "/trainer/assessments",
    "/trainer/assessments?status=passed",
    `/trainer/assessments?q=${SEARCH}`,
    "/trainer/assessments?page=100",
  );
  add(
    "trainer",
    "trainer+/assessments.new",
    "/trainer/assessments/new",
    `/trainer/assessments/new?q=${SEARCH}`,
    `/trainer/assessments/new?enrollment=${enrollment.id}`,
  );
  add("trainer", "trainer+/certificates", "/trainer/certificates");
  add("trainer", "trainer+/enrollments.$id", `/trainer/enrollments/${enrollment.id}`);
  add("trainer", "trainer+/classes._index", "/trainer/classes");
  add("trainer", "trainer+/classes.$id", `/trainer/classes/${busiestClass.id}`);
  add("trainer", "trainer+/calendar", "/trainer/calendar");
  add("trainer", "trainer+/hrw", "/trainer/hrw");
  add("trainer", "trainer+/hrw_.$id", `/trainer/hrw/${assessment.id}`);
  add("trainer", "trainer+/hrw_.book", "/trainer/hrw/book", `/trainer/hrw/book?q=${SEARCH}`);
  add("trainer", "trainer+/hrw_.candidates.$id", `/trainer/hrw/candidates/${assessment.candidate_id}`);
  add("trainer", "trainer+/usi.$studentId", `/trainer/usi/${student}`);
  add("trainer", "_auth+/account.security", "/account/security");
  add("trainer", "trainer+/credentials", "/trainer/credentials");
  add("trainer", "trainer+/evidence.$kind.$id", `/trainer/evidence/unit/${trainerAssessment.id}`);

  add("admin", "admin+/overview", "/admin/overview");
  add(
    "admin",
    "admin+/students",
    "/admin/students",
    `/admin/students?q=${SEARCH}`,
    "/admin/students?issue=usi-clash",
    "/admin/students?issue=missing-contact",
    "/admin/students?page=50",
  );
  add("admin", "admin+/students.$id", `/admin/students/${student}`);
  add("admin", "admin+/students.$id_.edit", `/admin/students/${student}/edit`);
  add("admin", "admin+/students.new", "/admin/students/new");
  add("admin", "admin+/courses", "/admin/courses");
  add("admin", "admin+/courses.$id", `/admin/courses/${busiestCourse.course_id}`, `/admin/courses/${busiestClass.course_id}`);
  add("admin", "admin+/courses.$id_.edit", `/admin/courses/${busiestCourse.course_id}/edit`);
  add("admin", "admin+/courses.$id_.classes.new", `/admin/courses/${busiestClass.course_id}/classes/new`);
  add("admin", "admin+/courses.$id_.classes.$classId", `/admin/courses/${busiestClass.course_id}/classes/${busiestClass.id}`);
  add("admin", "admin+/courses.new", "/admin/courses/new");
  add("admin", "admin+/enrollments.$id", `/admin/enrollments/${enrollment.id}`);
  add("admin", "admin+/locations", "/admin/locations");
  add("admin", "admin+/locations_.$id", `/admin/locations/${location.id}`);
  add("admin", "admin+/reports", "/admin/reports");
  add("admin", "admin+/reports_.hrw", "/admin/reports/hrw");
  add("admin", "admin+/staff", "/admin/staff");
  add("admin", "admin+/staff_.$id.hrw", `/admin/staff/${trainer}/hrw`);
  // moved to /admin/hrw/rules (timed below): what is left is the permanent redirect
  pages.push({ route: "admin+/hrw-states", url: "/admin/hrw-states", login: "admin", status: 301 });
  add("admin", "admin+/audit", "/admin/audit");
  add("admin", "_auth+/account.security", "/account/security");
  add("admin", "admin+/hrw.rules", "/admin/hrw/rules");
  add("admin", "admin+/mail", "/admin/mail", "/admin/mail?state=failed");
  add("admin", "admin+/checklists", "/admin/checklists");
  add("admin", "admin+/retention", "/admin/retention");
  add("admin", "admin+/complaints._index", "/admin/complaints", "/admin/complaints?overdue=yes");
  add("admin", "admin+/complaints.$id", `/admin/complaints/${complaint.id}`);
  add("admin", "admin+/complaints.settings", "/admin/complaints/settings");
  add("admin", "admin+/credentials", "/admin/credentials");
  add("admin", "admin+/credentials_.$id", `/admin/credentials/${trainer}`);
  add("admin", "admin+/validations", "/admin/validations");
  add("admin", "admin+/validations_.$id", `/admin/validations/${validationPlan.id}`);
  add("admin", "admin+/improvements._index", "/admin/improvements", "/admin/improvements?overdue=1");
  add("admin", "admin+/improvements.$id", `/admin/improvements/${improvement.id}`);
  add("admin", "admin+/improvements.new", "/admin/improvements/new");
  add("admin", "admin+/questionnaires._index", "/admin/questionnaires");
  add("admin", "admin+/questionnaires.report", "/admin/questionnaires/report");
  add("admin", "admin+/employers", "/admin/employers");
  add("admin", "admin+/employers_.$id", `/admin/employers/${employer.employer_id}`);
  add("admin", "admin+/finance", "/admin/finance", "/admin/finance?status=overdue");
  add("admin", "admin+/finance_.$id", `/admin/finance/${invoice.id}`);
  add("admin", "admin+/finance_.settings", "/admin/finance/settings");
  add("admin", "admin+/review-questions", "/admin/review-questions");
  add("admin", "admin+/recognition._index", "/admin/recognition");
  pages.push({
    route: "admin+/recognition.$id",
    url: `/admin/recognition/${recognition?.id ?? noSuchRecord}`,
    login: "admin",
    status: recognition ? undefined : 404,
  });
  add("admin", "admin+/webhooks", "/admin/webhooks");
  // the demo registers no endpoint: an unknown one answers 404 after the same lookup
  pages.push({ route: "admin+/webhooks_.$id", url: `/admin/webhooks/${webhook?.id ?? noSuchRecord}`, login: "admin", status: webhook ? undefined : 404 });

  add("employer", "employer+/overview", "/employer/overview");
  add("employer", "employer+/bookings.new", "/employer/bookings/new");
  add("employer", "employer+/bookings.$id", `/employer/bookings/${booking.id}`);
  add("employer", "employer+/workers.$id", `/employer/workers/${worker.id}`);
  add("employer", "employer+/invoices", "/employer/invoices");
  add("employer", "_auth+/account.security", "/account/security");
  return pages;
}

/** Page routes (modules in app/routes with a default export) that have no request and no reason. */
export function untimedRoutes(pages: PageRequest[], routesDir = path.resolve("app/routes")): string[] {
  const timed = new Set(pages.map((p) => p.route));
  return routeModuleFiles(routesDir)
    .filter((f) => /^export default/m.test(routeSource(f, routesDir)))
    .map((f) => f.replace(/\.tsx?$/, ""))
    .filter((route) => !timed.has(route) && !(route in NOT_TIMED));
}

export interface PageTiming {
  url: string;
  login: Login;
  /** the fastest run */
  ms: number;
  median: number;
  runs: number[];
}

/** A session cookie for each demo login on `port` (none for the anonymous visitor). */
export async function signInEveryLogin(port: number): Promise<Record<Login, string | null>> {
  const cookies: Record<Login, string | null> = { anonymous: null, student: null, trainer: null, admin: null, employer: null };
  for (const [login, email] of Object.entries(LOGIN_EMAILS)) cookies[login as Login] = await signIn(port, email);
  return cookies;
}

/** Times every page as its login sees it: one unrecorded request, then `runs` timed ones. */
export async function timePages(
  port: number,
  cookies: Record<Login, string | null>,
  pages: PageRequest[],
  runs = RUNS,
  answeredWrong?: string[],
): Promise<PageTiming[]> {
  const timings: PageTiming[] = [];
  // every page that answers other than expected, named together: one run shows them all (into
  // answeredWrong when given, for a caller that reports them with the rest of its table)
  const wrong: string[] = answeredWrong ?? [];
  for (const page of pages) {
    const cookie = cookies[page.login];
    const headers: Record<string, string> = { "Accept-Encoding": "gzip", ...(cookie ? { Cookie: cookie } : {}) };
    const once = async () => {
      const started = performance.now();
      const r = await raw(port, page.url, { headers });
      const ms = performance.now() - started;
      if (r.status !== (page.status ?? 200)) throw new Error(`${page.url} as ${page.login} gave ${r.status}`);
      return ms;
    };
    try {
      await once();
    } catch (error) {
      wrong.push((error as Error).message);
      continue;
    }
    const times: number[] = [];
    for (let k = 0; k < runs; k++) times.push(await once());
    timings.push({ url: page.url, login: page.login, ms: Math.min(...times), median: median(times), runs: times });
  }
  if (wrong.length && !answeredWrong) throw new Error(`pages that did not answer as expected:\n  ${wrong.join("\n  ")}`);
  return timings;
}

/**
 * Prints the slowest `shown` pages (and any other page over the limit); true when every page is
 * within it. `dialect` names the database the pages read (this process's DATABASE_URL unless told).
 */
export function reportPageTimes(timings: PageTiming[], { shown = 5, dialect = DIALECT } = {}): boolean {
  const sorted = [...timings].sort((a, b) => b.ms - a.ms);
  const over = sorted.filter((t) => t.ms > PAGE_LIMIT_MS);
  const line = (t: PageTiming) =>
    `${t.ms > PAGE_LIMIT_MS ? "SLOW" : "ok  "}  ${t.ms.toFixed(0).padStart(5)} ms (median ${t.median.toFixed(0).padStart(4)})  ${t.login.padEnd(9)} ${t.url}`;
  console.log(
    `\nEvery page, one request warm, one worker, ${dialect}: ${timings.length} pages, ${over.length} over ${PAGE_LIMIT_MS} ms (fastest of ${timings[0]?.runs.length ?? RUNS}; ` +
      `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores). The slowest ${shown}:`,
  );
  for (const t of sorted.slice(0, Math.max(shown, over.length))) console.log(line(t));
  return over.length === 0;
}

/** Every page with its ids from the bench database, or `url`'s (pagesAtSize on a connection of its own). */
export async function everyPage(url = DATABASE_URL): Promise<PageRequest[]> {
  const db = openDatabase(url);
  try {
    return await pagesAtSize(db);
  } finally {
    await db.destroy();
  }
}

/** Signs in the demo logins on `port`, finds the pages' ids and times every page. */
export async function timeEveryPage(port: number): Promise<{ timings: PageTiming[]; pass: boolean }> {
  const pages = await everyPage();
  const untimed = untimedRoutes(pages);
  if (untimed.length) throw new Error(`pages with no timed request (add one to pagesAtSize, or a reason to NOT_TIMED): ${untimed.join(", ")}`);
  const timings = await timePages(port, await signInEveryLogin(port), pages);
  return { timings, pass: reportPageTimes(timings) };
}

const CACHE_ROUNDS = 50;

/**
 * The anonymous catalogue from the page cache, one request at a time: alone, and with a
 * `GET /api/verify/AAAA` (an unknown code, which counts the client's lookups: a write no
 * cached page shows) before each. Both are medians of CACHE_ROUNDS; a response from the store
 * carries an Age header, a render does not. Passes when every request after a write still
 * came from the store.
 */
export async function timeCacheThroughWrites(port: number) {
  const courses = async () => {
    const started = performance.now();
    const r = await raw(port, "/courses", { headers: { "Accept-Encoding": "gzip" } });
    if (r.status !== 200) throw new Error(`/courses gave ${r.status}`);
    return { ms: performance.now() - started, stored: r.headers["age"] !== undefined };
  };
  await courses();
  const alone: number[] = [];
  for (let k = 0; k < CACHE_ROUNDS; k++) alone.push((await courses()).ms);
  const afterWrite: number[] = [];
  let stored = 0;
  for (let k = 0; k < CACHE_ROUNDS; k++) {
    await raw(port, "/api/verify/AAAA");
    const r = await courses();
    afterWrite.push(r.ms);
    if (r.stored) stored++;
  }
  const result = { rounds: CACHE_ROUNDS, alone: median(alone), afterWrite: median(afterWrite), stored, pass: stored === CACHE_ROUNDS };
  console.log(
    `\nCached /courses, one request (median of ${CACHE_ROUNDS}), ${DIALECT}: ${result.alone.toFixed(1)} ms alone; ` +
      `${result.afterWrite.toFixed(1)} ms with a GET /api/verify/AAAA before each (${stored} of ${CACHE_ROUNDS} from the page cache)`,
  );
  return result;
}

async function main() {
  const started = Date.now();
  const port = Number(process.env.BENCH_PORT || 3180);
  const env = benchEnv();
  buildAndPrepare(env);
  await forgetRequestCounts();
  stopChildrenOnExit();
  console.log(`Starting the product on port ${port} (1 worker)…`);
  startChild(process.execPath, ["scripts/start.mjs"], { env: { ...env, PORT: String(port), WEB_CONCURRENCY: "1" }, stdio: ["ignore", "ignore", "inherit"] });
  await waitForServer(port);
  const { timings, pass } = await timeEveryPage(port);
  const cache = await timeCacheThroughWrites(port);
  const file = process.env.BENCH_RESULTS || "bench-pages-results.json";
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), dialect: DIALECT, limitMs: PAGE_LIMIT_MS, timings, cache }, null, 2) + "\n");
  console.log(`\n${pass ? "PASS" : "FAIL"}  every page <= ${PAGE_LIMIT_MS} ms`);
  console.log(`${cache.pass ? "PASS" : "FAIL"}  cached /courses stays in the page cache through a write it does not show`);
  console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s in all)`);
  stopAll();
  process.exit(pass && cache.pass ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.stack : error);
    stopAll();
    process.exit(1);
  });
}
