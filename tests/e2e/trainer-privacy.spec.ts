import { DEMO, expect, requestsAloneRunOnce, test } from "./fixtures";
import { e2eDb } from "./e2e-db";
import { shown } from "./hrw-days";
import { routeModuleFiles, routeUrlPattern } from "../support/route-files";

/**
 * A trainer never reads a learner's sensitive details: signed in as the demo trainer, every
 * trainer page (each `$id` page for every id of the demo's records), each page's data
 * request (single fetch's `.data`) and every /api GET answer hold no date of birth, USI (except the one student's on the USI verification
 * page), address, licence number or emergency contact of any demo learner. The values come from
 * the database, so a learner added to the demo is covered too.
 *
 * The older `?_data=` requests are not asked: under single fetch they are answered without a
 * body (and a warning in the server's log each), so they could show nothing.
 *
 * Requests only, no browser: the JavaScript and no-JavaScript projects would fetch the same
 * bytes, so it runs in the JavaScript project (and on PostgreSQL where that project runs).
 */

interface Sensitive {
  value: string;
  what: string;
  learner: string;
  /** only looked for as a whole JSON string in data answers (a suburb or postcode: short, and shared with public places) */
  dataOnly?: boolean;
}

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/**
 * The demo's people and their enrolments. The journeys running beside this test add people of
 * their own (at @test.example and the like) with made-up details, as many as the run has
 * reached: their values are looked for on every page like the demo's, but their own `$id` pages
 * would only repeat the demo learners' pages, in a number that grows with the run.
 */
const DEMO_PERSON = "email like '%@example.com'";
const DEMO_LEARNERS = `select id from users where role = 'student' and ${DEMO_PERSON} order by id`;
const DEMO_ENROLLMENTS = `select id from enrollments where student_id in (${DEMO_LEARNERS}) order by id`;

/** Where each `$param` takes its ids from, by the segment before it. */
const ID_SOURCES: Record<string, string> = {
  students: DEMO_LEARNERS,
  candidates: DEMO_LEARNERS,
  usi: DEMO_LEARNERS,
  staff: `select id from users where role <> 'student' and ${DEMO_PERSON} order by id`,
  classes: "select id from classes order by id",
  courses: "select id from courses order by id",
  enrollments: DEMO_ENROLLMENTS,
  hrw: `select id from hrw_assessments where candidate_id in (${DEMO_LEARNERS}) order by id`,
  assessments: `select id from hrw_assessments where candidate_id in (${DEMO_LEARNERS}) order by id`,
  certificates: `select id from certificates where enrollment_id in (${DEMO_ENROLLMENTS}) order by id`,
  verify: `select verification_code as id from certificates where enrollment_id in (${DEMO_ENROLLMENTS}) order by id`,
  // /trainer/evidence/{kind}/{id}: both kinds, each with assessments of either kind (a mismatch is a 404)
  evidence: "select 'unit' as id union select 'hrw' as id",
  $kind: "select id from (select id from assessments order by id limit 15) a union select id from (select id from hrw_assessments order by id limit 15) h",
  // the round's records: the demo's own, and an unknown id where the demo holds none
  checklists: `select id from observation_checklists union select '${UNKNOWN_ID}' as id`,
  improvements: `select id from improvement_actions union select '${UNKNOWN_ID}' as id`,
  questions: `select id from questionnaire_questions union select '${UNKNOWN_ID}' as id`,
  "review-questions": `select id from review_questions union select '${UNKNOWN_ID}' as id`,
  appeals: `select id from complaints where kind = 'appeal' union select '${UNKNOWN_ID}' as id`,
  trainers: "select id from users where role <> 'student' order by id",
  "trainer-activities": `select id from trainer_activities union select '${UNKNOWN_ID}' as id`,
  // a learner's documents (White Card, photo ID): the demo student's, and one that does not exist
  "learner-documents": `select id from files union select '${UNKNOWN_ID}' as id`,
  "course-validations": `select course_id as id from course_validations union select '${UNKNOWN_ID}' as id`,
  "validation-plans": `select id from validation_plans union select '${UNKNOWN_ID}' as id`,
  complaints: `select id from complaints union select '${UNKNOWN_ID}' as id`,
  employers: `select id from employers union select '${UNKNOWN_ID}' as id`,
  bookings: `select id from group_bookings union select '${UNKNOWN_ID}' as id`,
  workers: `select id from booking_workers union select '${UNKNOWN_ID}' as id`,
  invoices: `select id from invoices union select '${UNKNOWN_ID}' as id`,
  webhooks: `select id from webhook_endpoints union select '${UNKNOWN_ID}' as id`,
  recognition: `select id from recognition_applications union select '${UNKNOWN_ID}' as id`,
};

/** A rendered PDF costs a browser on the server; one shows the route answers, and its bytes are not text to search. */
const ONE_ID_ONLY = new Set(["api+/certificates.$id.download.ts"]);

async function expand(file: string): Promise<string[]> {
  const pattern = routeUrlPattern(file);
  const parts = pattern.split("/");
  let urls = [""];
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.startsWith("$")) {
      urls = urls.map((u) => `${u}/${part}`);
      continue;
    }
    const source = ID_SOURCES[parts[i - 1]!];
    if (!source) throw new Error(`No demo ids for ${part} in ${file}: add where its ids come from to ID_SOURCES`);
    let ids = (await e2eDb().all<{ id: string }>(source)).map((r) => r.id);
    if (ONE_ID_ONLY.has(file)) ids = ids.slice(0, 1);
    // an admin's /api route refuses a trainer by role before it reads any record (the access
    // matrix proves the rule per route): a couple of ids show it, every id only repeats it
    if (file.startsWith("api+/admin.")) ids = ids.slice(0, 2);
    expect(ids.length, `demo ids for ${file}`).toBeGreaterThan(0);
    urls = urls.flatMap((u) => ids.map((id) => `${u}/${encodeURIComponent(id)}`));
  }
  return urls;
}

/** Every sensitive value of every demo learner, read from the database, with the forms a page may print a date in. */
async function sensitiveValues(): Promise<Sensitive[]> {
  const db = e2eDb();
  const out: Sensitive[] = [];
  const add = (value: string | null | undefined, what: string, learner: string, dataOnly = false) => {
    if (value && value.trim().length >= (dataOnly ? 3 : 4)) out.push({ value: value.trim(), what, learner, dataOnly });
  };
  const dates = (iso: string, what: string, learner: string) => {
    const [y, m, d] = iso.split("-");
    const at = new Date(`${iso}T12:00:00Z`);
    add(iso, what, learner);
    add(`${d}/${m}/${y}`, what, learner);
    for (const month of ["short", "long"] as const)
      add(at.toLocaleDateString("en-AU", { day: "numeric", month, year: "numeric", timeZone: "UTC" }), what, learner);
    // the portal's own way (three-letter months: "5 Jun 1991"), which en-AU's short form is not for June, July and September
    add(shown(iso), what, learner);
  };
  const publicPlaces = new Set(
    (await db.all<{ suburb: string | null; postcode: string | null }>("select suburb, postcode from delivery_locations")).flatMap((l) => [
      l.suburb,
      l.postcode,
    ]),
  );
  const learners = await db.all<Record<string, string | null>>(
    `select id, date_of_birth, usi, usi_claimed, address, address_building, address_unit, address_street_number, address_street_name,
            suburb, postcode, emergency_contact, license_number from users where role = 'student'`,
  );
  for (const l of learners) {
    const id = l.id!;
    if (l.date_of_birth) dates(l.date_of_birth, "date of birth", id);
    add(l.usi, "USI", id);
    add(l.usi_claimed, "USI", id);
    add(l.address, "address", id);
    add(l.address_building, "address (building)", id);
    add(l.address_unit ? `${l.address_unit}/${l.address_street_number ?? ""}` : null, "address (unit)", id);
    add(l.address_street_number && l.address_street_name ? `${l.address_street_number} ${l.address_street_name}` : null, "address (street)", id);
    add(l.address_street_name, "address (street name)", id);
    for (const part of [l.suburb, l.postcode]) if (part && !publicPlaces.has(part)) add(part, "address (suburb or postcode)", id, true);
    add(l.emergency_contact, "emergency contact", id);
    add(l.license_number, "licence number", id);
  }
  for (const check of await db.all<{ candidate_id: string; detail: string }>("select candidate_id, detail from hrw_candidate_checks")) {
    const detail = JSON.parse(check.detail) as { date_of_birth?: string; licence_number?: string };
    if (detail.date_of_birth) dates(detail.date_of_birth, "date of birth (sighted)", check.candidate_id);
    add(detail.licence_number, "licence number (sighted)", check.candidate_id);
  }
  return out;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

/**
 * The sensitive values an answer shows; `usiOf` is the student whose USI check page it is: that
 * page, and only that one, shows their USI and date of birth (to be checked against the USI
 * registry; each view audited).
 */
function leaks(body: string, values: Sensitive[], data: boolean, usiOf: string | null): string[] {
  const found: string[] = [];
  for (const s of values) {
    if ((s.what === "USI" || s.what.startsWith("date of birth")) && s.learner === usiOf) continue;
    if (s.dataOnly && !data) continue;
    if (patternOf(s).test(body)) found.push(`${s.what} of ${s.learner}: ${s.value}`);
  }
  return found;
}

/** Each value's forms (as written, HTML-escaped, inside JSON) as one pattern, made once: the walk tests thousands of answers. */
const patterns = new Map<Sensitive, RegExp>();
function patternOf(s: Sensitive): RegExp {
  let pattern = patterns.get(s);
  if (!pattern) {
    const forms = s.dataOnly ? [JSON.stringify(s.value)] : [s.value, escapeHtml(s.value), JSON.stringify(s.value).slice(1, -1)];
    pattern = new RegExp(`(?<![A-Za-z0-9])(?:${forms.map(escapeRegExp).join("|")})(?![A-Za-z0-9])`);
    patterns.set(s, pattern);
  }
  return pattern;
}

/**
 * Signs the demo trainer in; answers a GET as that trainer's browser sends it (the session
 * cookie, the test's client address). Node's own HTTP client: the walk reads thousands of
 * answers, and each one through Playwright's request context cost the test's worker four times
 * the CPU (its protocol carries every body across), with the same bytes on the wire.
 */
async function signInAsTrainer(baseURL: string, clientHeaders: Record<string, string>) {
  const answer = await fetch(new URL("/login", baseURL), {
    method: "POST",
    headers: clientHeaders,
    body: new URLSearchParams({ email: DEMO.trainer.email, password: DEMO.trainer.password }),
    redirect: "manual",
  });
  expect(answer.status, "the demo trainer signs in").toBe(302);
  const cookie = answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  return (url: string) => fetch(new URL(url, baseURL), { headers: { ...clientHeaders, Cookie: cookie }, redirect: "manual" });
}

test.describe("what a trainer reads about learners", () => {
  requestsAloneRunOnce();
  test("no trainer page, data request or /api answer holds a learner's sensitive details", async ({ baseURL, clientHeaders }) => {
    test.setTimeout(300_000);
    // the demo has no emergency contact or licence on file: give one learner each, so both kinds are looked for
    const db = e2eDb();
    const someone = (await db.get<{ id: string }>("select id from users where role = 'student' and email = ?", "liam.oconnor@example.com"))!;
    await db.run("update users set emergency_contact = ?, license_number = ? where id = ?", "Siobhan O'Connor 0499 111 222", "NSW-HRW-7730154", someone.id);
    const values = await sensitiveValues();
    for (const kind of [
      "date of birth",
      "USI",
      "address",
      "address (street)",
      "emergency contact",
      "licence number",
      "licence number (sighted)",
      "date of birth (sighted)",
    ]) {
      expect(
        values.some((v) => v.what === kind),
        `the demo data has a ${kind} to look for`,
      ).toBe(true);
    }
    const get = await signInAsTrainer(baseURL!, clientHeaders);
    const files = routeModuleFiles().filter((f) => /^(trainer|api)\+\//.test(f) && f !== "api+/$.ts");
    const students = (await db.all<{ id: string }>(DEMO_LEARNERS)).map((r) => r.id);
    const enrollments = (await db.all<{ id: string }>(DEMO_ENROLLMENTS)).map((r) => r.id);
    const problems: string[] = [];
    let checked = 0;

    const check = async (url: string, data: boolean, usiOf: string | null) => {
      const answer = await get(url);
      expect(answer.status, url).toBeLessThan(500);
      const type = answer.headers.get("content-type") ?? "";
      if (type.startsWith("application/pdf")) return void (await answer.arrayBuffer());
      const found = leaks(await answer.text(), values, data, usiOf);
      checked++;
      if (found.length) problems.push(`${url}: ${found.join("; ")}`);
    };

    const requests: { url: string; data: boolean; usiOf: string | null }[] = [];
    for (const file of files) {
      const api = file.startsWith("api+/");
      let urls = await expand(file);
      if (file === "trainer+/_layout.tsx") continue; // the layout: its loader answers with every trainer page below
      if (file === "trainer+/hrw_.book.tsx") urls = [...urls, "/trainer/hrw/book?q=a", ...students.map((id) => `/trainer/hrw/book?candidate=${id}`)];
      if (file === "trainer+/assessments.new.tsx") urls = [...urls, ...enrollments.map((id) => `/trainer/assessments/new?enrollment=${id}`)];
      if (file === "trainer+/students.tsx" || file === "trainer+/assessments.tsx") urls = [...urls, `${urls[0]}?q=a`];
      for (const url of urls) {
        const usiOf = file === "trainer+/usi.$studentId.tsx" ? decodeURIComponent(url.split("/").pop()!) : null;
        if (api) {
          requests.push({ url, data: true, usiOf: null });
          continue;
        }
        const [path, query = ""] = url.split("?");
        requests.push({ url, data: false, usiOf }, { url: `${path}.data${query ? `?${query}` : ""}`, data: true, usiOf });
      }
    }
    // a few at a time: the server answers while the next request is on its way
    for (let i = 0; i < requests.length; i += 6) await Promise.all(requests.slice(i, i + 6).map((r) => check(r.url, r.data, r.usiOf)));
    console.log(`trainer privacy: ${requests.length} answers read`);
    expect(problems, `sensitive values in ${problems.length} of ${checked} answers`).toEqual([]);
    expect(checked).toBeGreaterThan(200);
  });
});
