/// <reference types="vite/client" />
import crypto from "node:crypto";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerBuild } from "@remix-run/node";
import { dataVersion, type DB } from "#db/connection";
import { call, type RouteModule } from "../support/api-calls";
import { issueApiToken } from "~/api/auth.server";
import { KNOWN_CLIENT, RATE_LIMITS } from "~/security/rate-limits.server";
import { createSession } from "~/auth/session.server";
import { gateRoutes } from "~/http/gate.server";
import { createTestDb, TEST_DIALECT, useAsAppDb } from "../support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../support/factories";

/**
 * Bad input everywhere: fast-check feeds every form action and
 * every /api route wrong types, missing and extra fields, empty, huge (over 1 MB), unicode,
 * SQL- and HTML-looking strings, malformed JSON and wrong content types, through the same
 * gate the server puts around every route. Each generated input is invalid by
 * construction (a "poison" field that no schema accepts, or an unknown record), so success
 * can never be the answer: every answer must be a 4xx with a message (never a 5xx, a stack
 * trace or SQL text) and the database must be exactly as before. Read-only routes (GET, the
 * report "export" and signing out without a session) may answer 2xx/3xx but change nothing.
 */

let db: DB;
let cleanup: () => Promise<void>;
const who = {} as Record<"student" | "trainer" | "admin", { cookie: string; token: string }>;
let ids: { student: string; course: string; enrollment: string; location: string };
let inputsTried = 0;

const routeModules = import.meta.glob<RouteModule>(["../../app/routes/**/*.{ts,tsx}", "!../../app/routes/**/*.test.*", "!../../app/routes/**/*.server.ts"], {
  eager: true,
});
/** The route module behind the gate exactly as app/http/index.ts puts it. */
function guarded(file: string): RouteModule {
  const module = routeModules[`../../app/routes/${file}`];
  if (!module) throw new Error(`no route ${file}`);
  const routes = gateRoutes({ r: { id: "r", path: "", module } } as unknown as ServerBuild["routes"]);
  return routes.r!.module as unknown as RouteModule;
}

/** Every table of the test database, by name, on either dialect. */
let tables: string[] | undefined;
async function tableNames(): Promise<string[]> {
  // read once: no route creates a table, and introspection is a dozen catalogue queries
  tables ??= (await db.introspection.getTables()).map((t) => t.name).sort();
  return tables;
}

/** Table row counts plus a hash of every row of every table (sign-in and reset rate limits excepted). */
// audit_log records refused sign-ins by design (docs/decisions/010-staff-sign-in-and-audit.md)
// (and audit_head, the chain's head, moves with every entry)
const NOT_DATA = new Set(["audit_log", "audit_head", "kysely_migration", "kysely_migration_lock"]);
// A well-formed sign-in or reset request with a wrong password or an unknown email counts
// against its rate limits by design; every other rate limit must stay as it was.
const COUNTED_BY_DESIGN = [
  RATE_LIMITS.signInAccount,
  RATE_LIMITS.signInKnownClient,
  RATE_LIMITS.signInClient,
  RATE_LIMITS.resetClient,
  RATE_LIMITS.resetEmail,
  RATE_LIMITS.resetStrangers,
  KNOWN_CLIENT,
].map((rule) => rule.name);
/**
 * The snapshot taken after the last input, which is the next input's "before": the inputs run
 * one at a time and nothing else writes between them. Cleared while a route runs, so an input
 * that throws before its "after" leaves the next one to take its own.
 */
let lastSnapshot: string | undefined;
async function snapshotBefore(): Promise<string> {
  const before = lastSnapshot ?? (await snapshot());
  lastSnapshot = undefined;
  return before;
}
async function snapshotAfter(): Promise<string> {
  lastSnapshot = await snapshot();
  return lastSnapshot;
}
/** The tables whose rows are the data (the others are derived or record refusals by design). */
async function dataTables(): Promise<string[]> {
  // Derived from rows hashed here, and kept by triggers: users_search (with its shadow tables)
  // indexes users, enrollment_counts counts enrollments.
  return (await tableNames()).filter((name) => !(NOT_DATA.has(name) || name.startsWith("users_search") || name === "enrollment_counts"));
}
/**
 * The last hash taken on SQLite and the data version it was taken at. The version moves with
 * every write the connection makes, even one rolled back (dataVersion), so while it stands still
 * the rows are the ones hashed: most invalid inputs are refused before any write, and hashing
 * every row of the seeded database again for each was most of this file's time.
 */
let hashed: { version: string; hash: string } | undefined;
async function snapshot(): Promise<string> {
  if (TEST_DIALECT === "postgres") return snapshotOnServer();
  const version = dataVersion(db);
  if (hashed?.version === version) return hashed.hash;
  const hash = crypto.createHash("sha256");
  for (const name of await dataTables()) {
    const rows =
      name === "request_limits"
        ? await db.selectFrom("request_limits").selectAll().where("rule", "not in", COUNTED_BY_DESIGN).execute()
        : (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db)).rows;
    hash.update(`${name}:${rows.length}:`);
    // Sorted, so the hash does not depend on the order the database returns rows in. A session's
    // last_seen_at is written by any request once it is 5 minutes stale, by design: a run longer
    // than that (PostgreSQL on a loaded machine) would see a read "change" it.
    const serialised = rows.map((row) =>
      JSON.stringify(row, (k, v) => (Buffer.isBuffer(v) ? v.length : name === "sessions" && k === "last_seen_at" ? undefined : v)),
    );
    for (const row of serialised.sort()) hash.update(row);
  }
  hashed = { version, hash: hash.digest("hex") };
  return hashed.hash;
}
/**
 * The same snapshot on PostgreSQL in one statement: each table's rows as text, sorted and hashed
 * by the server (one round trip per input instead of one per table).
 */
async function snapshotOnServer(): Promise<string> {
  const perTable = (await dataTables()).map((name) => {
    const limited = name === "request_limits" ? sql`WHERE t.rule NOT IN (${sql.join(COUNTED_BY_DESIGN)})` : sql``;
    // a session's last_seen_at left out, as above
    const row = name === "sessions" ? sql`(to_jsonb(t) - 'last_seen_at')::text` : sql`t::text`;
    return sql`${name} || ':' || (SELECT count(*) || ':' || md5(coalesce(string_agg(${row}, ',' ORDER BY ${row}), '')) FROM ${sql.table(name)} t ${limited})`;
  });
  const { rows } = await sql<{ h: string }>`SELECT concat_ws(' ', ${sql.join(perTable)}) AS h`.execute(db);
  return rows[0]!.h;
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  for (const role of ["student", "trainer", "admin"] as const) {
    const user = await makeUser(db, { role });
    who[role] = { cookie: (await createSession(db, user.id)).split(";")[0]!, token: await issueApiToken(db, user.id) };
  }
  const student = await makeUser(db, { role: "student" });
  const course = await makeCourse(db, { name: "Fuzz course" });
  const enrollment = await makeEnrollment(db, student.id, course.id, { status: "in_progress", progress: 30 });
  const location = await db.selectFrom("delivery_locations").select("id").orderBy("created_at").executeTakeFirstOrThrow();
  ids = { student: student.id, course: course.id, enrollment: enrollment.id, location: location.id };
});
afterAll(async () => cleanup());

describe("the snapshot", () => {
  it('sees a changed field and an added row, so "changes nothing" below can fail', async () => {
    const before = await snapshot();
    await db.updateTable("courses").set({ name: "Fuzz course 2" }).where("id", "=", ids.course).execute();
    const renamed = await snapshot();
    expect(renamed).not.toBe(before);
    await makeUser(db, { role: "student" });
    expect(await snapshot()).not.toBe(renamed);
  });
});

// ---- generators -------------------------------------------------------------------------

const nasty = fc.constantFrom(
  "",
  " ",
  "   \t\n ",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "Robert'); DROP TABLE enrollments;--",
  "1; UPDATE users SET role='admin'",
  '" UNION SELECT password_hash FROM users --',
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "\u0000",
  "\u202Eevil\u202C",
  "𝕏𝕐ℤ 漢字 العربية 🏗️👷‍♀️",
  "e\u0301\u0301\u0301",
  "null",
  "undefined",
  "NaN",
  "-1",
  "1e309",
  "99999999999999999999999",
  "true",
  "[]",
  "{}",
  "../../etc/passwd",
  "%00%0d%0a",
  "x".repeat(10_000),
);
const text = fc.oneof(nasty, fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }));
/** Printable text with control characters, line breaks and unpaired surrogates mixed in. */
const controlled = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("a", "Z", " ", "é", "e\u0301", "漢", "🏗️") },
    {
      weight: 2,
      arbitrary: fc.constantFrom("\u0000", "\u0007", "\b", "\t", "\n", "\r", "\r\n", "\u000b", "\u001b", "\u007f", "\u0085", "\u009f", "\uD800", "\uDFFF"),
    },
  ),
  minLength: 1,
  maxLength: 30,
});
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: text },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), text, { maxKeys: 3 }) },
);
const KNOWN_FIELDS = [
  "email",
  "password",
  "confirm_password",
  "full_name",
  "role",
  "phone",
  "address",
  "date_of_birth",
  "emergency_contact",
  "license_number",
  "is_active",
  "intent",
  "course_id",
  "user_id",
  "enrollment_id",
  "terms",
  "name",
  "unit_code",
  "description",
  "tier",
  "duration_hours",
  "price",
  "prerequisites",
  "learning_outcomes",
  "assessment_criteria",
  "status",
  "progress",
  "reopen",
  "assessment_type",
  "score",
  "max_score",
  "assessment_date",
  "feedback",
  "redirectTo",
  "__proto__",
  "constructor",
];
const fields = fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_FIELDS), fc.string({ maxLength: 12 })), value, { maxKeys: 10 });

type Body =
  { kind: "form" | "json"; fields: Record<string, unknown>; dropPoison: boolean } | { kind: "raw"; text: string; type: string | null } | { kind: "huge" };

const malformedJson = fc.constantFrom(
  "{",
  '{"email": ',
  "[1, 2",
  "not json",
  '{"a":1}}',
  "\u0000",
  "",
  "null",
  "[]",
  '"just a string"',
  "1e999",
  "{'single': 'quotes'}",
);
const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("form" as const), fields, dropPoison: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("json" as const), fields, dropPoison: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("raw" as const), text: malformedJson, type: fc.constant("application/json") }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("raw" as const),
      text: fc.oneof(malformedJson, text.map(String)),
      type: fc.constantFrom(
        "text/plain",
        "application/xml",
        "multipart/form-data",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded; charset=utf-16",
        "image/png",
        null,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "huge" as const }) },
);

// ---- targets ----------------------------------------------------------------------------

type Caller = "anonymous" | "student" | "trainer" | "admin";
interface Target {
  file: string;
  method: "POST" | "PUT";
  path: () => string;
  params?: () => Record<string, string>;
  as: Caller;
  /** fields that make the input invalid whatever else is sent */
  poison: Record<string, unknown>;
  /** true when leaving the poisoned field out is also invalid (a required field) */
  required: boolean;
  /** answers 2xx/3xx by design without writing anything (must still change nothing) */
  readOnly?: boolean;
  /** a row button on a list page: refuses with a redirect back and an error flash, by design */
  errorRedirect?: boolean;
}

const BAD_EMAIL = "not-an-email";
const targets: Target[] = [
  { file: "_auth+/login.tsx", method: "POST", path: () => "/login", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  { file: "_auth+/register.tsx", method: "POST", path: () => "/register", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  { file: "_landing+/forgot-password.tsx", method: "POST", path: () => "/forgot-password", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  {
    file: "_auth+/reset-password.$token.tsx",
    method: "POST",
    path: () => "/reset-password/not-a-token",
    params: () => ({ token: "not-a-token" }),
    as: "anonymous",
    poison: {},
    required: false,
  },
  {
    file: "_auth+/invitation.$token.tsx",
    method: "POST",
    path: () => "/invitation/not-a-token",
    params: () => ({ token: "not-a-token" }),
    as: "anonymous",
    poison: {},
    required: false,
  },
  {
    file: "_auth+/employer-invitation.$token.tsx",
    method: "POST",
    path: () => "/employer-invitation/not-a-token",
    params: () => ({ token: "not-a-token" }),
    as: "anonymous",
    poison: {},
    required: false,
  },
  { file: "_auth+/logout.tsx", method: "POST", path: () => "/logout", as: "anonymous", poison: {}, required: false, readOnly: true },
  {
    file: "enroll.$courseId.tsx",
    method: "POST",
    path: () => `/enroll/${ids.course}`,
    params: () => ({ courseId: ids.course }),
    as: "student",
    poison: { terms: "no" },
    required: true,
  },
  {
    file: "student+/profile.edit.tsx",
    method: "POST",
    path: () => "/student/profile/edit",
    as: "student",
    poison: { phone: "call me maybe" },
    required: false,
  },
  {
    file: "trainer+/certificates.tsx",
    method: "POST",
    path: () => "/trainer/certificates",
    as: "trainer",
    poison: { enrollment_id: "not-a-uuid" },
    required: true,
  },
  {
    file: "trainer+/assessments.new.tsx",
    method: "POST",
    path: () => "/trainer/assessments/new",
    as: "trainer",
    poison: { enrollment_id: "not-a-uuid" },
    required: true,
  },
  {
    file: "trainer+/enrollments.$id.tsx",
    method: "POST",
    path: () => `/trainer/enrollments/${ids.enrollment}`,
    params: () => ({ id: ids.enrollment }),
    as: "trainer",
    poison: { status: "graduated" },
    required: true,
  },
  {
    file: "admin+/overview.tsx",
    method: "POST",
    path: () => "/admin/overview",
    as: "admin",
    poison: { user_id: "not-a-uuid" },
    required: true,
    errorRedirect: true,
  },
  {
    file: "admin+/courses.tsx",
    method: "POST",
    path: () => "/admin/courses",
    as: "admin",
    poison: { course_id: "not-a-uuid" },
    required: true,
    errorRedirect: true,
  },
  { file: "admin+/staff.tsx", method: "POST", path: () => "/admin/staff", as: "admin", poison: { user_id: "not-a-uuid" }, required: true, errorRedirect: true },
  { file: "admin+/courses.new.tsx", method: "POST", path: () => "/admin/courses/new", as: "admin", poison: { unit_code: "!!" }, required: true },
  {
    file: "admin+/courses.$id_.edit.tsx",
    method: "POST",
    path: () => `/admin/courses/${ids.course}/edit`,
    params: () => ({ id: ids.course }),
    as: "admin",
    poison: { price: "a lot" },
    required: true,
  },
  { file: "admin+/students.new.tsx", method: "POST", path: () => "/admin/students/new", as: "admin", poison: { email: BAD_EMAIL }, required: true },
  {
    file: "admin+/students.$id_.edit.tsx",
    method: "POST",
    path: () => `/admin/students/${ids.student}/edit`,
    params: () => ({ id: ids.student }),
    as: "admin",
    poison: { email: BAD_EMAIL },
    required: true,
  },
  { file: "admin+/locations.tsx", method: "POST", path: () => "/admin/locations", as: "admin", poison: { identifier: "!!" }, required: true },
  {
    file: "admin+/locations_.$id.tsx",
    method: "POST",
    path: () => `/admin/locations/${ids.location}`,
    params: () => ({ id: ids.location }),
    as: "admin",
    poison: { postcode: "twenty" },
    required: false,
  },
  {
    file: "student+/profile.enrollment.tsx",
    method: "POST",
    path: () => "/student/profile/enrollment",
    as: "student",
    poison: { sex: "unknown" },
    required: false,
  },
  { file: "api+/auth.login.ts", method: "POST", path: () => "/api/auth/login", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  { file: "api+/auth.register.ts", method: "POST", path: () => "/api/auth/register", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  { file: "api+/auth.logout.ts", method: "POST", path: () => "/api/auth/logout", as: "anonymous", poison: {}, required: false },
  { file: "api+/enrollments.ts", method: "POST", path: () => "/api/enrollments", as: "student", poison: { course_id: "not-a-uuid" }, required: true },
  {
    file: "api+/admin.students.$id.ts",
    method: "PUT",
    path: () => `/api/admin/students/${ids.student}`,
    params: () => ({ id: ids.student }),
    as: "admin",
    poison: { email: BAD_EMAIL },
    required: false,
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "PUT",
    path: () => `/api/admin/courses/${ids.course}`,
    params: () => ({ id: ids.course }),
    as: "admin",
    poison: { price: "a lot" },
    required: false,
  },
  {
    file: "api+/admin.staff.$id.ts",
    method: "PUT",
    path: () => `/api/admin/staff/${ids.student}`,
    params: () => ({ id: ids.student }),
    as: "admin",
    poison: { is_active: "no" },
    required: true,
  },
  {
    file: "admin+/students.$id.tsx",
    method: "POST",
    path: () => `/admin/students/${ids.student}`,
    params: () => ({ id: ids.student }),
    as: "admin",
    poison: { certificate_id: "not-a-uuid" },
    required: true,
  },
  { file: "api+/assessments.ts", method: "POST", path: () => "/api/assessments", as: "trainer", poison: { enrollment_id: "not-a-uuid" }, required: true },
  {
    file: "api+/enrollments.$id.ts",
    method: "PUT",
    path: () => `/api/enrollments/${ids.enrollment}`,
    params: () => ({ id: ids.enrollment }),
    as: "trainer",
    poison: { status: "graduated" },
    required: false,
  },
  { file: "api+/certificates.ts", method: "POST", path: () => "/api/certificates", as: "trainer", poison: { enrollment_id: "not-a-uuid" }, required: true },
  {
    file: "api+/admin.certificates.$id.revoke.ts",
    method: "POST",
    path: () => `/api/admin/certificates/${ids.enrollment}/revoke`,
    params: () => ({ id: ids.enrollment }),
    as: "admin",
    poison: { reason: "" },
    required: true,
  },
  { file: "student+/employers.tsx", method: "POST", path: () => "/student/employers", as: "student", poison: { consent: "maybe" }, required: true },
  {
    file: "api+/credentials.my.activities.ts",
    method: "POST",
    path: () => "/api/credentials/my/activities",
    as: "trainer",
    poison: { hours: "a whole day" },
    required: true,
  },
  {
    file: "api+/admin.course-validations.$id.ts",
    method: "PUT",
    path: () => `/api/admin/course-validations/${ids.course}`,
    params: () => ({ id: ids.course }),
    as: "admin",
    poison: { risk_rating: "extreme" },
    required: true,
  },
  { file: "api+/complaints.ts", method: "POST", path: () => "/api/complaints", as: "anonymous", poison: { email: BAD_EMAIL }, required: true },
  { file: "api+/appeals.ts", method: "POST", path: () => "/api/appeals", as: "student", poison: { assessment_id: "not-a-uuid" }, required: true },
  { file: "api+/$.ts", method: "POST", path: () => "/api/no-such-thing", as: "admin", poison: {}, required: false },
];

/** GET routes: junk query strings and junk ids (read-only by nature). */
interface ReadTarget {
  file: string;
  path: (junk: string) => string;
  params?: (junk: string) => Record<string, string>;
  as: Caller;
}
const reads: ReadTarget[] = [
  {
    file: "api+/courses.ts",
    path: (j) => `/api/courses?search=${encodeURIComponent(j)}&tier=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}`,
    as: "anonymous",
  },
  { file: "api+/courses.ts", path: (j) => `/api/courses?include_inactive=${encodeURIComponent(j)}&limit=${encodeURIComponent(j)}`, as: "admin" },
  {
    file: "api+/admin.students.ts",
    path: (j) =>
      `/api/admin/students?q=${encodeURIComponent(j)}&search=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}&page_size=${encodeURIComponent(j)}`,
    as: "admin",
  },
  { file: "api+/admin.students.$id.ts", path: (j) => `/api/admin/students/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "admin" },
  { file: "api+/admin.courses.$id.ts", path: (j) => `/api/admin/courses/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "admin" },
  { file: "api+/certificates.$id.download.ts", path: (j) => `/api/certificates/${encodeURIComponent(j)}/download`, params: (j) => ({ id: j }), as: "student" },
  { file: "api+/certificates.my.ts", path: (j) => `/api/certificates/my?x=${encodeURIComponent(j)}`, as: "student" },
  { file: "api+/enrollments.my.ts", path: (j) => `/api/enrollments/my?x=${encodeURIComponent(j)}`, as: "student" },
  { file: "api+/dashboard.stats.ts", path: (j) => `/api/dashboard/stats?x=${encodeURIComponent(j)}`, as: "trainer" },
  { file: "api+/auth.me.ts", path: (j) => `/api/auth/me?x=${encodeURIComponent(j)}`, as: "student" },
  {
    file: "courses.tsx",
    path: (j) => `/courses?q=${encodeURIComponent(j)}&search=${encodeURIComponent(j)}&tier=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}`,
    as: "anonymous",
  },
  {
    file: "admin+/students.tsx",
    path: (j) =>
      `/admin/students?q=${encodeURIComponent(j)}&search=${encodeURIComponent(j)}&status=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}&issue=${encodeURIComponent(j)}`,
    as: "admin",
  },
  {
    file: "admin+/courses.tsx",
    path: (j) => `/admin/courses?search=${encodeURIComponent(j)}&status=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}`,
    as: "admin",
  },
  { file: "admin+/students.$id.tsx", path: (j) => `/admin/students/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "admin" },
  { file: "admin+/courses.$id.tsx", path: (j) => `/admin/courses/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "admin" },
  { file: "trainer+/enrollments.$id.tsx", path: (j) => `/trainer/enrollments/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "trainer" },
  { file: "trainer+/assessments.new.tsx", path: (j) => `/trainer/assessments/new?enrollment=${encodeURIComponent(j)}`, as: "trainer" },
  {
    file: "trainer+/students.tsx",
    path: (j) => `/trainer/students?q=${encodeURIComponent(j)}&search=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}`,
    as: "trainer",
  },
  {
    file: "trainer+/assessments.tsx",
    path: (j) =>
      `/trainer/assessments?q=${encodeURIComponent(j)}&search=${encodeURIComponent(j)}&status=${encodeURIComponent(j)}&page=${encodeURIComponent(j)}`,
    as: "trainer",
  },
  { file: "enroll.$courseId.tsx", path: (j) => `/enroll/${encodeURIComponent(j)}`, params: (j) => ({ courseId: j }), as: "student" },
  { file: "_auth+/reset-password.$token.tsx", path: (j) => `/reset-password/${encodeURIComponent(j)}`, params: (j) => ({ token: j }), as: "anonymous" },
  { file: "_auth+/invitation.$token.tsx", path: (j) => `/invitation/${encodeURIComponent(j)}`, params: (j) => ({ token: j }), as: "anonymous" },
  {
    file: "_auth+/employer-invitation.$token.tsx",
    path: (j) => `/employer-invitation/${encodeURIComponent(j)}`,
    params: (j) => ({ token: j }),
    as: "anonymous",
  },
  { file: "questionnaire.$token.tsx", path: (j) => `/questionnaire/${encodeURIComponent(j)}`, params: (j) => ({ token: j }), as: "anonymous" },
  { file: "api+/admin.avetmiss.ts", path: (j) => `/api/admin/avetmiss?year=${encodeURIComponent(j)}`, as: "admin" },
  { file: "admin+/reports.tsx", path: (j) => `/admin/reports?year=${encodeURIComponent(j)}`, as: "admin" },
  { file: "admin+/reports_.hrw[.]zip.ts", path: (j) => `/admin/reports/hrw.zip?state=${encodeURIComponent(j)}&year=${encodeURIComponent(j)}`, as: "admin" },
  { file: "admin+/reports.avetmiss[.]zip.ts", path: (j) => `/admin/reports/avetmiss.zip?year=${encodeURIComponent(j)}`, as: "admin" },
  {
    file: "admin+/reports.avetmiss.$file.ts",
    path: (j) => `/admin/reports/avetmiss/${encodeURIComponent(j)}?year=${encodeURIComponent(j)}`,
    params: (j) => ({ file: j }),
    as: "admin",
  },
  { file: "admin+/locations_.$id.tsx", path: (j) => `/admin/locations/${encodeURIComponent(j)}`, params: (j) => ({ id: j }), as: "admin" },
];

// ---- calling ----------------------------------------------------------------------------

function encode(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

function requestBody(target: Target, input: Body): { body: string; contentType: string | undefined } {
  if (input.kind === "huge") {
    const big = "x".repeat(1024 * 1024 + 10);
    return target.file.startsWith("api+/")
      ? { body: JSON.stringify({ ...target.poison, full_name: big }), contentType: "application/json" }
      : { body: `full_name=${big}`, contentType: "application/x-www-form-urlencoded" };
  }
  if (input.kind === "raw") return { body: input.text, contentType: input.type ?? undefined };
  const merged: Record<string, unknown> = { ...input.fields };
  for (const [key, bad] of Object.entries(target.poison)) {
    if (input.dropPoison && target.required) delete merged[key];
    else merged[key] = bad;
  }
  if (input.kind === "json") return { body: JSON.stringify(merged), contentType: "application/json" };
  const form = new URLSearchParams();
  for (const [key, v] of Object.entries(merged)) {
    if (Array.isArray(v)) for (const item of v) form.append(key, encode(item));
    else form.append(key, encode(v));
  }
  return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
}

const LEAKS = [/\n\s+at .+:\d+:\d+/, /SqliteError|SQLITE_[A-Z]+|no such (table|column)|near ".*": syntax error/i, /node_modules/, /password_hash/];

/** Calls the guarded route; a thrown non-Response error is what Remix would turn into a 500. */
async function answer(
  mod: RouteModule,
  method: string,
  path: string,
  options: Parameters<typeof call>[3],
): Promise<{ status: number; text: string; location: string | null }> {
  let response: unknown;
  try {
    response = await call(mod, method, path, options);
  } catch (error) {
    return { status: 500, text: String((error as Error)?.stack ?? error), location: null };
  }
  if (!(response instanceof Response)) return { status: 200, text: JSON.stringify(response ?? null), location: null };
  return { status: response.status, text: await response.text(), location: response.headers.get("Location") };
}

function credentials(as: Caller) {
  if (as === "anonymous") return {};
  // pages use the cookie; /api the bearer token
  return { cookie: who[as].cookie, token: who[as].token };
}

// ---- stored text --------------------------------------------------------------------------

/** Columns whose form field takes several lines; every other stored text is one line. */
// a pre-enrolment review question's context is a load chart or a form, laid out in lines
// a pre-enrolment review's advice is its outcome's line, then one line per group needing support (docs/decisions/028)
const MULTI_LINE_COLUMNS = new Set(["address", "description", "feedback", "context", "advice", "review_advice"]);
const CONTROL_BUT_LINE_FEED = /(?!\n)\p{Cc}/u;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** Every text value stored anywhere that holds a control character (or a line break where none belongs). */
async function dirtyStoredText(): Promise<string[]> {
  const found: string[] = [];
  for (const name of (await tableNames()).filter((t) => !t.startsWith("users_search"))) {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(db);
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== "string") continue;
        const dirty =
          CONTROL_BUT_LINE_FEED.test(value) ||
          LONE_SURROGATE.test(value) ||
          (value.includes("\n") && !MULTI_LINE_COLUMNS.has(column)) ||
          value !== value.normalize("NFC");
        if (dirty) found.push(`${name}.${column} = ${JSON.stringify(value).slice(0, 80)}`);
      }
    }
  }
  return found;
}

/** Writes that store free text, each with a valid payload whose text fields the property replaces. */
interface TextTarget {
  file: string;
  method: "POST" | "PUT";
  path: () => string;
  params?: () => Record<string, string>;
  as: Caller;
  kind: "form" | "json";
  valid: () => Record<string, unknown>;
  textFields: string[];
}
const unique = () => `text-${crypto.randomUUID()}@test.example`;
const textTargets: TextTarget[] = [
  {
    file: "_auth+/register.tsx",
    method: "POST",
    path: () => "/register",
    as: "anonymous",
    kind: "form",
    valid: () => ({ full_name: "Pat Lee", email: unique(), password: "Rigging-Kestrel-42", confirm_password: "Rigging-Kestrel-42", role: "student" }),
    textFields: ["full_name", "address", "emergency_contact"],
  },
  {
    file: "api+/auth.register.ts",
    method: "POST",
    path: () => "/api/auth/register",
    as: "anonymous",
    kind: "json",
    valid: () => ({ full_name: "Pat Lee", email: unique(), password: "Rigging-Kestrel-42", role: "student" }),
    textFields: ["full_name", "address", "emergency_contact"],
  },
  {
    file: "_auth+/login.tsx",
    method: "POST",
    path: () => "/login",
    as: "anonymous",
    kind: "form",
    valid: () => ({ email: unique(), password: "password123" }),
    textFields: ["email"],
  },
  {
    file: "student+/profile.edit.tsx",
    method: "POST",
    path: () => "/student/profile/edit",
    as: "student",
    kind: "form",
    valid: () => ({ phone: "0400 111 222", address: "1 Hook St", emergency_contact: "Sam" }),
    textFields: ["address", "emergency_contact"],
  },
  {
    file: "api+/admin.students.$id.ts",
    method: "PUT",
    path: () => `/api/admin/students/${ids.student}`,
    params: () => ({ id: ids.student }),
    as: "admin",
    kind: "json",
    valid: () => ({ full_name: "Pat Lee" }),
    textFields: ["full_name", "address", "emergency_contact", "license_number"],
  },
  {
    file: "api+/admin.courses.$id.ts",
    method: "PUT",
    path: () => `/api/admin/courses/${ids.course}`,
    params: () => ({ id: ids.course }),
    as: "admin",
    kind: "json",
    valid: () => ({ name: "Fuzz course" }),
    textFields: ["name", "description"],
  },
];

describe("stored text (property-based)", () => {
  it("no write stores a control character, a stray line break, an unpaired surrogate or un-normalised text", async () => {
    expect(await dirtyStoredText()).toEqual([]);
    for (const target of textTargets) {
      const mod = guarded(target.file);
      const isApi = target.file.startsWith("api+/");
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...target.textFields), controlled, async (field, value) => {
          inputsTried++;
          const payload: Record<string, unknown> = { ...target.valid(), [field]: value };
          const creds = credentials(target.as);
          const result = await answer(mod, target.method, target.path(), {
            body: target.kind === "json" ? JSON.stringify(payload) : new URLSearchParams(payload as Record<string, string>).toString(),
            contentType: target.kind === "json" ? "application/json" : "application/x-www-form-urlencoded",
            params: target.params?.() ?? {},
            token: isApi ? creds.token : null,
            cookie: isApi ? null : creds.cookie,
          });
          const where = `${target.method} ${target.path()} ${field}=${JSON.stringify(value)} → ${result.status}`;
          expect(result.status, `${where}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
          expect(await dirtyStoredText(), where).toEqual([]);
        }),
        { numRuns: 25, seed: 20261123 },
      );
    }
  }, 120_000);
});

describe("bad input everywhere (property-based)", () => {
  it("every form action and /api write answers any invalid input with a 4xx and changes nothing", async () => {
    for (const target of targets) {
      const mod = guarded(target.file);
      const isApi = target.file.startsWith("api+/");
      await fc.assert(
        fc.asyncProperty(body, async (input) => {
          inputsTried++;
          const before = await snapshotBefore();
          const { body: payload, contentType } = requestBody(target, input);
          const creds = credentials(target.as);
          const result = await answer(mod, target.method, target.path(), {
            body: payload,
            contentType,
            params: target.params?.() ?? {},
            token: isApi ? creds.token : null,
            cookie: isApi ? null : creds.cookie,
          });
          const after = await snapshotAfter();
          const where = `${target.method} ${target.path()} (${input.kind}) → ${result.status}`;
          expect(result.status, `${where}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
          if (target.readOnly) expect(result.status, where).toBeGreaterThanOrEqual(200);
          else if (target.errorRedirect && result.status < 400) {
            expect(result.status, where).toBe(302);
            expect(result.location, where).toBe(target.path());
          } else expect(result.status, `${where} ${result.location ?? ""}: ${result.text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
          if (input.kind === "huge") expect(result.status, where).toBe(413);
          for (const leak of LEAKS) expect(result.text, `${where} leaks ${leak}`).not.toMatch(leak);
          if (isApi && result.status >= 400) expect(typeof (JSON.parse(result.text) as { detail?: unknown }).detail, where).toBe("string");
          expect(after, `${where} changed the database`).toBe(before);
        }),
        { numRuns: 30, seed: 20261122 },
      );
    }
    // each input hashes every table once (its "after", the next one's "before"): the round's
    // 40 new tables took PostgreSQL's run past 120 s on a loaded machine
  }, 300_000);

  it("every read route answers junk ids and query strings without a 5xx, a leak or a write", async () => {
    for (const target of reads) {
      const mod = guarded(target.file);
      const isApi = target.file.startsWith("api+/");
      await fc.assert(
        fc.asyncProperty(text, async (junk) => {
          inputsTried++;
          const before = await snapshotBefore();
          const creds = credentials(target.as);
          const result = await answer(mod, "GET", target.path(junk), {
            params: target.params?.(junk) ?? {},
            token: isApi ? creds.token : null,
            cookie: isApi ? null : creds.cookie,
          });
          const where = `GET ${target.path(junk).slice(0, 120)} → ${result.status}`;
          expect(result.status, `${where}: ${result.text.slice(0, 300)}`).toBeLessThan(500);
          for (const leak of LEAKS) expect(result.text, `${where} leaks ${leak}`).not.toMatch(leak);
          expect(await snapshotAfter(), `${where} changed the database`).toBe(before);
        }),
        { numRuns: 15, seed: 20261122 },
      );
    }
    console.log(`bad input: ${inputsTried} inputs tried over ${targets.length} write routes and ${reads.length} read routes`);
  }, 120_000);
});
