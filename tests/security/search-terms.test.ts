import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { call, caller, sessionCookie, type RouteModule } from "../support/api-calls";
import * as apiStudents from "~/routes/api+/admin.students";
import * as adminStudents from "~/routes/admin+/students";
import * as catalogue from "~/routes/courses";
import * as trainerAssessments from "~/routes/trainer+/assessments";
import * as trainerStudents from "~/routes/trainer+/students";
import { createTestDb, useAsAppDb } from "../support/test-db";
import { makeUser } from "../support/factories";

/**
 * Every search box and the /api search take any bytes: a NUL, FTS5 operators and quotes are
 * searched for as text (or dropped), never handed to the search index as syntax.
 */
let db: DB;
let cleanup: () => Promise<void>;
let admin: { cookie: string; token: string };
let trainerCookie: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  const a = await caller(db, "admin");
  admin = { cookie: await sessionCookie(db, a.id), token: a.token };
  const t = await makeUser(db, { role: "trainer" });
  trainerCookie = await sessionCookie(db, t.id);
  await makeUser(db, { full_name: "Abby Cdwell", email: "abcd@test.example" });
});
afterAll(() => cleanup());

const TERMS = [
  "ab\u0000cd",
  "\u0000",
  "abc\u0000",
  '"',
  'ab"cd',
  '"abc',
  "abc OR def",
  "abc AND NOT def",
  "NEAR(abc def)",
  "abc*",
  "^abc",
  "full_name:abc",
  "{full_name email}: abc",
  "(abc",
  "abc)",
  "-abc",
  "+abc",
  "a\u0007b\u001bc",
  "' OR 1=1 --",
  "%_\\",
];
/** Query-string bytes that are not UTF-8 at all (an encoded lone surrogate, a stray byte). */
const RAW = ["x%ED%A0%80yz", "ab%FFcd", "%C0%80abc"];

const pages: Array<{ name: string; mod: RouteModule; path: string; as: () => { cookie?: string; token?: string } }> = [
  { name: "admin student list", mod: adminStudents, path: "/admin/students?q=", as: () => ({ cookie: admin.cookie }) },
  { name: "trainer student list", mod: trainerStudents, path: "/trainer/students?q=", as: () => ({ cookie: trainerCookie }) },
  { name: "trainer assessments", mod: trainerAssessments, path: "/trainer/assessments?q=", as: () => ({ cookie: trainerCookie }) },
  { name: "course catalogue", mod: catalogue, path: "/courses?q=", as: () => ({}) },
  { name: "GET /api/admin/students", mod: apiStudents, path: "/api/admin/students?q=", as: () => ({ token: admin.token }) },
];

describe("search terms of any bytes", () => {
  for (const page of pages) {
    it(`${page.name}: NUL, FTS5 operators and quotes never give a 5xx`, async () => {
      for (const query of [...TERMS.map(encodeURIComponent), ...RAW]) {
        const response = await call(page.mod, "GET", page.path + query, page.as());
        expect(response.status, `${page.name} ${query}`).toBe(200);
      }
    });
  }

  it("finds the person around a NUL in the /api search", async () => {
    const response = await call(apiStudents, "GET", "/api/admin/students?q=ab%00cd", { token: admin.token });
    expect(response.status).toBe(200);
    const found = (await response.json()) as Array<{ email: string }>;
    expect(Array.isArray(found)).toBe(true);
    const exact = await call(apiStudents, "GET", "/api/admin/students?q=abcd%40test", { token: admin.token });
    expect(((await exact.json()) as Array<{ email: string }>).map((s) => s.email)).toContain("abcd@test.example");
  });
});
