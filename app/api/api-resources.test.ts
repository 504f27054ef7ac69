import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as courseDetail from "~/routes/api+/admin.courses.$id";
import * as editCourse from "~/routes/admin+/courses.$id_.edit";
import * as studentDetail from "~/routes/api+/admin.students.$id";
import * as students from "~/routes/api+/admin.students";
import * as me from "~/routes/api+/auth.me";
import * as certificatesMy from "~/routes/api+/certificates.my";
import * as courses from "~/routes/api+/courses";
import * as stats from "~/routes/api+/dashboard.stats";
import * as enrollments from "~/routes/api+/enrollments";
import * as enrollmentsMy from "~/routes/api+/enrollments.my";
import * as notFoundRoute from "~/routes/api+/$";
import { getDashboardStats } from "~/models/stats.server";
import { usiFromBody } from "~/rules/usi";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import {
  certificateResponse,
  courseDetailResponse,
  courseResponse,
  dashboardStatsResponse,
  enrollmentResponse,
  studentDetailResponse,
  userResponse,
  studentContactResponse,
  studentContactDetailResponse,
} from "./schemas";
import { bodyOf, call, caller, sessionCookie, type Caller, type RouteModule } from "../../tests/support/api-calls";

let db: DB;
let cleanup: () => Promise<void>;
let student: Caller;
let trainer: Caller;
let admin: Caller;
let inactive: Caller;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  student = await caller(db, "student");
  trainer = await caller(db, "trainer");
  admin = await caller(db, "admin");
  inactive = await caller(db, "student");
  await db.updateTable("users").set({ is_active: 0 }).where("id", "=", inactive.id).execute();
});
afterAll(async () => cleanup());

type Who = "anonymous" | "student" | "trainer" | "admin" | "inactive";
const tokenOf = (who: Who) => (who === "anonymous" ? null : { student, trainer, admin, inactive }[who].token);

/** Calls a route as each kind of caller and returns the statuses. */
async function matrix(mod: RouteModule, method: string, path: string, options: Parameters<typeof call>[3] = {}) {
  const out: Record<string, number> = {};
  for (const who of ["anonymous", "student", "trainer", "admin", "inactive"] as Who[]) {
    out[who] = (await call(mod, method, path, { ...options, token: tokenOf(who) })).status;
  }
  return out;
}

const noHash = async (response: Response) => expect(await response.clone().text()).not.toMatch(/password_hash|scrypt\$/);

describe("GET /api/dashboard/stats", () => {
  it("gives the figures to trainers and admins only", async () => {
    expect(await matrix(stats, "GET", "/api/dashboard/stats")).toEqual({ anonymous: 401, student: 403, trainer: 200, admin: 200, inactive: 403 });
    const response = await call(stats, "GET", "/api/dashboard/stats", { token: admin.token });
    const body = dashboardStatsResponse.parse(await bodyOf(response));
    expect(body).toEqual(await getDashboardStats(db));
    expect(body.total_students).toBeGreaterThan(0);
    expect((await call(stats, "POST", "/api/dashboard/stats", { token: admin.token, json: {} })).status).toBe(405);
  });
});

describe("GET /api/admin/students", () => {
  it("role matrix: trainers and admins", async () => {
    expect(await matrix(students, "GET", "/api/admin/students")).toEqual({ anonymous: 401, student: 403, trainer: 200, admin: 200, inactive: 403 });
  });

  it("returns an array of students with paging headers, searched and filtered on the server", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const a = await makeUser(db, { full_name: `Zed Findme ${tag}` });
    const b = await makeUser(db, { full_name: `Yan Findme ${tag}`, is_active: false });
    const all = await call(students, "GET", "/api/admin/students", { token: trainer.token });
    expect(all.status).toBe(200);
    await noHash(all);
    const list = studentContactResponse.array().parse(await bodyOf(all));
    expect(list.every((u) => u.role === "student")).toBe(true);
    const total = Number(all.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(list.length);
    expect(all.headers.get("X-Page")).toBe("1");
    expect(all.headers.get("X-Page-Size")).toBe("100");

    const found = await call(students, "GET", `/api/admin/students?q=findme%20${tag}`, { token: admin.token });
    expect((await bodyOf<Array<{ id: string }>>(found)).map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.headers.get("X-Total-Count")).toBe("2");
    const inactiveOnly = await call(students, "GET", `/api/admin/students?q=${tag}&status=inactive`, { token: admin.token });
    expect((await bodyOf<Array<{ id: string }>>(inactiveOnly)).map((u) => u.id)).toEqual([b.id]);

    const paged = await call(students, "GET", `/api/admin/students?q=${tag}&page=2&page_size=1`, { token: admin.token });
    expect(await bodyOf<unknown[]>(paged)).toHaveLength(1);
    expect(paged.headers.get("X-Page")).toBe("2");
    expect(paged.headers.get("X-Page-Count")).toBe("2");
    const wildcard = await call(students, "GET", "/api/admin/students?q=%25%25%25", { token: admin.token });
    expect(await bodyOf<unknown[]>(wildcard)).toEqual([]);
  });

  it("answers a bad query with 422 naming the parameter", async () => {
    for (const query of ["page=0", "page=abc", "page_size=101", "status=gone", `q=${"x".repeat(300)}`]) {
      const response = await call(students, "GET", `/api/admin/students?${query}`, { token: admin.token });
      expect(response.status, query).toBe(422);
      const body = await bodyOf<{ detail: string; errors: Record<string, string> }>(response);
      expect(Object.keys(body.errors), query).toEqual([query.split("=")[0]]);
    }
  });
});

describe("who reads which fields (privacy)", () => {
  const SENSITIVE = ["usi", "usi_verified_at", "date_of_birth", "address", "emergency_contact", "license_number", "avetmiss", "files"];
  const hasSensitive = (record: object) => SENSITIVE.filter((key) => key in record);

  it("a trainer's list holds contact fields and usi_status only; an admin's holds everything", async () => {
    const name = `Private Person ${crypto.randomUUID().slice(0, 8)}`;
    const usi = usiFromBody(
      crypto
        .randomUUID()
        .replace(/[^2-9]/g, "")
        .padEnd(9, "7")
        .slice(0, 9),
    );
    const s = await makeUser(db, { full_name: name, usi: null });
    await db
      .updateTable("users")
      .set({ usi, date_of_birth: "1990-04-02", address: "1 Secret St", emergency_contact: "Mum 0400 000 000" })
      .where("id", "=", s.id)
      .execute();
    const q = encodeURIComponent(name);
    const asTrainer = await bodyOf<Array<Record<string, unknown>>>(
      await call(students, "GET", `/api/admin/students?page_size=100&q=${q}`, { token: trainer.token }),
    );
    expect(asTrainer).toHaveLength(1);
    expect(hasSensitive(asTrainer[0]!)).toEqual([]);
    expect(asTrainer[0]).toMatchObject({ id: s.id, usi_status: "not_verified", email: s.email });
    const everyone = await bodyOf<Array<Record<string, unknown>>>(await call(students, "GET", "/api/admin/students?page_size=100", { token: trainer.token }));
    expect(everyone.flatMap(hasSensitive)).toEqual([]);
    const body = JSON.stringify(everyone);
    expect(body).not.toContain(usi);
    expect(body).not.toContain("1 Secret St");

    const asAdmin = userResponse.array().parse(await bodyOf(await call(students, "GET", `/api/admin/students?q=${q}`, { token: admin.token })));
    expect(asAdmin[0]).toMatchObject({ usi, date_of_birth: "1990-04-02", address: "1 Secret St", emergency_contact: "Mum 0400 000 000" });
  });

  it("a trainer reads one student's record without the personal details; an admin reads it whole", async () => {
    const demo = await db.selectFrom("users").select(["id", "usi"]).where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const asTrainer = await call(studentDetail, "GET", `/api/admin/students/${demo.id}`, { token: trainer.token, params: { id: demo.id } });
    const record = studentContactDetailResponse.parse(await bodyOf(asTrainer));
    expect(hasSensitive(record)).toEqual([]);
    expect(hasSensitive(record.student)).toEqual([]);
    expect(record.enrollments.length).toBeGreaterThan(0);
    if (demo.usi) expect(JSON.stringify(record)).not.toContain(demo.usi);
    const asAdmin = studentDetailResponse.parse(
      await bodyOf(await call(studentDetail, "GET", `/api/admin/students/${demo.id}`, { token: admin.token, params: { id: demo.id } })),
    );
    expect(asAdmin.student.usi).toBe(demo.usi);
    expect(asAdmin.avetmiss).toBeTruthy();
  });
});

describe("GET /api/admin/students/{id}", () => {
  it("role matrix: trainers and admins", async () => {
    const s = await makeUser(db);
    const path = `/api/admin/students/${s.id}`;
    expect(await matrix(studentDetail, "GET", path, { params: { id: s.id } })).toEqual({
      anonymous: 401,
      student: 403,
      trainer: 200,
      admin: 200,
      inactive: 403,
    });
  });

  it("returns {student, enrollments, certificates, files, assessments, summary}", async () => {
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const response = await call(studentDetail, "GET", `/api/admin/students/${demo.id}`, { token: admin.token, params: { id: demo.id } });
    expect(response.status).toBe(200);
    await noHash(response);
    const detail = studentDetailResponse.parse(await bodyOf(response));
    expect(detail.student.id).toBe(demo.id);
    expect(detail.enrollments.length).toBeGreaterThan(0);
    expect(detail.summary.total_enrollments).toBe(detail.enrollments.length);
    expect(detail.summary.total_certificates).toBe(detail.certificates.length);
  });

  it("404 for an unknown id, a malformed id and a user who is not a student", async () => {
    for (const id of [crypto.randomUUID(), "not-a-uuid", "'; drop table users; --", admin.id]) {
      const response = await call(studentDetail, "GET", `/api/admin/students/${encodeURIComponent(id)}`, { token: admin.token, params: { id } });
      expect(response.status, id).toBe(404);
      expect(await bodyOf(response)).toEqual({ detail: "Student not found" });
    }
  });
});

describe("PUT /api/admin/students/{id}", () => {
  const put = (id: string, json: unknown, token = admin.token) => call(studentDetail, "PUT", `/api/admin/students/${id}`, { token, params: { id }, json });

  it("role matrix: admins only, and nobody else changes anything", async () => {
    const s = await makeUser(db, { full_name: "Kept Name" });
    expect(await matrix(studentDetail, "PUT", `/api/admin/students/${s.id}`, { params: { id: s.id }, json: { full_name: "Changed" } })).toEqual({
      anonymous: 401,
      student: 403,
      trainer: 403,
      admin: 200,
      inactive: 403,
    });
    const s2 = await makeUser(db, { full_name: "Kept Name" });
    for (const token of [student.token, trainer.token]) expect((await put(s2.id, { full_name: "Changed" }, token)).status).toBe(403);
    const row = await db.selectFrom("users").select("full_name").where("id", "=", s2.id).executeTakeFirstOrThrow();
    expect(row.full_name).toBe("Kept Name");
  });

  it("is partial: only the fields sent change, and the updated student comes back", async () => {
    const s = await makeUser(db, { full_name: "Partial Pat", phone: "0400 123 456" });
    const before = await db.selectFrom("users").selectAll().where("id", "=", s.id).executeTakeFirstOrThrow();
    const response = await put(s.id, { license_number: "HRW-123", address: "" });
    expect(response.status).toBe(200);
    await noHash(response);
    const updated = userResponse.parse(await bodyOf(response));
    expect(updated).toMatchObject({ id: s.id, full_name: "Partial Pat", phone: "0400 123 456", license_number: "HRW-123", address: null, email: s.email });
    const after = await db.selectFrom("users").selectAll().where("id", "=", s.id).executeTakeFirstOrThrow();
    expect({ ...after, license_number: null, updated_at: before.updated_at }).toEqual(before);
    const event = await db.selectFrom("events").select("type").where("entity_id", "=", s.id).where("actor_id", "=", admin.id).execute();
    expect(event.map((e) => e.type)).toEqual(["student.updated"]);
  });

  it("an empty body changes nothing and answers with the student", async () => {
    const s = await makeUser(db);
    const response = await put(s.id, {});
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).id).toBe(s.id);
    const events = await db.selectFrom("events").select("id").where("entity_id", "=", s.id).execute();
    expect(events).toHaveLength(0);
  });

  it("deactivating ends the student's tokens and sessions at once", async () => {
    const s = await caller(db, "student");
    const cookie = await sessionCookie(db, s.id);
    expect((await call(me, "GET", "/api/auth/me", { token: s.token })).status).toBe(200);
    const response = await put(s.id, { is_active: false });
    expect(response.status).toBe(200);
    expect((await bodyOf(response)).is_active).toBe(false);
    expect((await call(me, "GET", "/api/auth/me", { token: s.token })).status).toBe(401);
    expect((await call(me, "GET", "/api/auth/me", { cookie })).status).toBe(401);
  });

  it("refuses invalid, unknown and conflicting input with the right 4xx, changing nothing", async () => {
    const s = await makeUser(db, { full_name: "Stable Sam" });
    const other = await makeUser(db);
    const cases: Array<[unknown, number, string]> = [
      [{ email: "nope" }, 422, "email"],
      [{ full_name: "" }, 422, "full_name"],
      [{ full_name: 42 }, 422, "full_name"],
      [{ is_active: "yes" }, 422, "is_active"],
      [{ date_of_birth: "2999-01-01" }, 422, "date_of_birth"],
      [{ phone: "x".repeat(10_000) }, 422, "phone"],
      [{ role: "admin" }, 422, "role"],
      [{ password_hash: "x" }, 422, "password_hash"],
    ];
    for (const [json, status, field] of cases) {
      const response = await put(s.id, json);
      expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(status);
      expect(Object.keys((await bodyOf<{ errors: Record<string, string> }>(response)).errors)).toContain(field);
    }
    const taken = await put(s.id, { email: other.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(await bodyOf(taken)).toEqual({ detail: "An account with this email already exists" });
    const malformed = await call(studentDetail, "PUT", `/api/admin/students/${s.id}`, {
      token: admin.token,
      params: { id: s.id },
      body: "{",
      contentType: "application/json",
    });
    expect(malformed.status).toBe(400);
    const wrongType = await call(studentDetail, "PUT", `/api/admin/students/${s.id}`, {
      token: admin.token,
      params: { id: s.id },
      body: "full_name=x",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(wrongType.status).toBe(415);
    const row = await db.selectFrom("users").select(["full_name", "email", "role"]).where("id", "=", s.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ full_name: "Stable Sam", email: s.email, role: "student" });
    const unknownId = crypto.randomUUID();
    expect((await put(unknownId, { full_name: "X" })).status).toBe(404);
    expect((await put("nope", { full_name: "X" })).status).toBe(404);
    expect((await put(trainer.id, { full_name: "X" })).status).toBe(404);
  });

  it("accepts a same-origin cookie write and refuses a cookie write without Origin", async () => {
    const s = await makeUser(db, { full_name: "Cookie Case" });
    const cookie = await sessionCookie(db, admin.id);
    const blind = await call(studentDetail, "PUT", `/api/admin/students/${s.id}`, { cookie, params: { id: s.id }, json: { full_name: "Blind" } });
    expect(blind.status).toBe(401);
    const same = await call(studentDetail, "PUT", `/api/admin/students/${s.id}`, {
      cookie,
      params: { id: s.id },
      json: { full_name: "Same Origin" },
      headers: { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" },
    });
    expect(same.status).toBe(200);
    expect((await bodyOf(same)).full_name).toBe("Same Origin");
  });
});

describe("GET /api/courses", () => {
  it("gives everyone the active courses, and trainers and admins every course with is_active", async () => {
    const closed = await makeCourse(db, { is_active: false, name: "Closed course" });
    const open = await makeCourse(db, { name: "Open course" });
    const ids = async (token: string | null, extra: Parameters<typeof call>[3] = {}) => {
      const response = await call(courses, "GET", "/api/courses", { token, ...extra });
      expect(response.status).toBe(200);
      return courseResponse.array().parse(await bodyOf(response));
    };
    for (const token of [null, student.token, inactive.token, "garbage-token"]) {
      const list = await ids(token);
      expect(list.every((c) => c.is_active)).toBe(true);
      expect(list.map((c) => c.id)).toContain(open.id);
      expect(list.map((c) => c.id)).not.toContain(closed.id);
    }
    for (const token of [trainer.token, admin.token]) {
      const list = await ids(token);
      expect(list.map((c) => c.id)).toEqual(expect.arrayContaining([open.id, closed.id]));
      expect(list.find((c) => c.id === closed.id)!.is_active).toBe(false);
    }
    const viaCookie = await ids(null, { cookie: await sessionCookie(db, admin.id) });
    expect(viaCookie.map((c) => c.id)).toContain(closed.id);
    const list = await ids(null);
    const tiers = list.map((c) => c.tier);
    expect([...tiers].sort()).toEqual(tiers);
  });
});

describe("GET /api/admin/courses/{id}", () => {
  it("role matrix: admins only; detail {course, statistics, recent_enrollments}", async () => {
    const c = await makeCourse(db);
    for (let i = 0; i < 7; i++) {
      const s = await makeUser(db);
      await makeEnrollment(db, s.id, c.id, { status: i < 2 ? "completed" : "in_progress", progress: i < 2 ? 100 : 40 });
    }
    const path = `/api/admin/courses/${c.id}`;
    expect(await matrix(courseDetail, "GET", path, { params: { id: c.id } })).toEqual({
      anonymous: 401,
      student: 403,
      trainer: 403,
      admin: 200,
      inactive: 403,
    });
    const response = await call(courseDetail, "GET", path, { token: admin.token, params: { id: c.id } });
    const detail = courseDetailResponse.parse(await bodyOf(response));
    expect(detail.course.id).toBe(c.id);
    expect(detail.statistics).toEqual({ total_enrollments: 7, completion_rate: 29 });
    expect(detail.recent_enrollments).toHaveLength(5);
  });

  it("404 for unknown and malformed ids", async () => {
    for (const id of [crypto.randomUUID(), "123", "../students"]) {
      const response = await call(courseDetail, "GET", `/api/admin/courses/x`, { token: admin.token, params: { id } });
      expect(response.status).toBe(404);
      expect(await bodyOf(response)).toEqual({ detail: "Course not found" });
    }
  });
});

describe("PUT /api/admin/courses/{id}", () => {
  const put = (id: string, json: unknown, token = admin.token) => call(courseDetail, "PUT", `/api/admin/courses/${id}`, { token, params: { id }, json });

  it("the toggle sends only is_active; nothing else changes; the updated course comes back", async () => {
    const c = await makeCourse(db, { name: "Toggle me", price: 1234.5 });
    const before = await db.selectFrom("courses").selectAll().where("id", "=", c.id).executeTakeFirstOrThrow();
    const off = await put(c.id, { is_active: false });
    expect(off.status).toBe(200);
    const course = courseResponse.parse(await bodyOf(off));
    expect(course).toMatchObject({ id: c.id, is_active: false, name: "Toggle me", price: 1234.5 });
    const after = await db.selectFrom("courses").selectAll().where("id", "=", c.id).executeTakeFirstOrThrow();
    expect({ ...after, is_active: 1, updated_at: before.updated_at }).toEqual(before);
    const on = await put(c.id, { is_active: true });
    expect((await bodyOf(on)).is_active).toBe(true);
    const events = await db.selectFrom("events").select("type").where("entity_id", "=", c.id).orderBy("created_at").execute();
    expect(events.map((e) => e.type)).toEqual(["course.deactivated", "course.activated"]);
  });

  it("edits the fields sent, parsing decimals and dropping blank list entries", async () => {
    const c = await makeCourse(db, { name: "Edit me" });
    const response = await put(c.id, { name: "  Edited  ", price: "99.999", duration_hours: 12.5, learning_outcomes: ["a", " ", "b"], prerequisites: [] });
    expect(response.status).toBe(200);
    const course = courseResponse.parse(await bodyOf(response));
    expect(course).toMatchObject({
      name: "Edited",
      price: 100,
      duration_hours: 12.5,
      learning_outcomes: ["a", "b"],
      prerequisites: [],
      assessment_criteria: ["Criterion one"],
    });
  });

  it("role matrix and bad input: 401/403, 422, 400, 415, 404 — changing nothing", async () => {
    const c = await makeCourse(db, { name: "Guarded" });
    const roles = await makeCourse(db, { name: "Role matrix" });
    expect(await matrix(courseDetail, "PUT", `/api/admin/courses/${roles.id}`, { params: { id: roles.id }, json: { is_active: false } })).toEqual({
      anonymous: 401,
      student: 403,
      trainer: 403,
      admin: 200,
      inactive: 403,
    });
    for (const [json, field] of [
      [{ price: -1 }, "price"],
      [{ price: "abc" }, "price"],
      [{ is_active: "false" }, "is_active"],
      [{ name: "" }, "name"],
      [{ learning_outcomes: "one" }, "learning_outcomes"],
      [{ learning_outcomes: Array(51).fill("x") }, "learning_outcomes"],
      [{ tier: "tier_9" }, "tier"],
      [{ id: crypto.randomUUID() }, "id"],
    ] as Array<[unknown, string]>) {
      const response = await put(c.id, json);
      expect(response.status, JSON.stringify(json).slice(0, 60)).toBe(422);
      expect(Object.keys((await bodyOf<{ errors: Record<string, string> }>(response)).errors)).toContain(field);
    }
    expect((await call(courseDetail, "PUT", "/x", { token: admin.token, params: { id: c.id }, body: "{'a':1}", contentType: "application/json" })).status).toBe(
      400,
    );
    expect(
      (await call(courseDetail, "PUT", "/x", { token: admin.token, params: { id: c.id }, body: "is_active=false", contentType: "text/plain" })).status,
    ).toBe(415);
    expect((await put(crypto.randomUUID(), { is_active: false })).status).toBe(404);
    expect((await put("bad id", { is_active: false })).status).toBe(404);
    const row = await db.selectFrom("courses").select(["name", "is_active"]).where("id", "=", c.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ name: "Guarded", is_active: 1 });
  });

  it("an empty or non-numeric number, or zero nominal hours, is a 422 naming the field; nothing changes", async () => {
    const c = await makeCourse(db, { name: "Numbers", price: 1200 });
    for (const [json, errors] of [
      [{ duration_hours: "" }, { duration_hours: "Duration is required" }],
      [{ price: "" }, { price: "Price is required" }],
      [
        { duration_hours: "", price: "" },
        { duration_hours: "Duration is required", price: "Price is required" },
      ],
      [{ duration_hours: "forty" }, { duration_hours: "Duration must be a number" }],
      [{ duration_hours: 0 }, { duration_hours: "Duration must be more than 0" }],
      [{ duration_hours: "0" }, { duration_hours: "Duration must be more than 0" }],
      [{ price: null }, { price: "Price is required" }],
    ] as Array<[unknown, Record<string, string>]>) {
      const response = await put(c.id, json);
      expect(response.status, JSON.stringify(json)).toBe(422);
      expect((await bodyOf<{ errors: Record<string, string> }>(response)).errors).toEqual(errors);
    }
    const row = await db.selectFrom("courses").select(["duration_hours", "price_cents"]).where("id", "=", c.id).executeTakeFirstOrThrow();
    expect({ hours: Number(row.duration_hours), cents: row.price_cents }).toEqual({ hours: 40, cents: 120_000 });
    // a free course is still a course: price 0 typed as such is taken
    expect(courseResponse.parse(await bodyOf(await put(c.id, { price: "0" }))).price).toBe(0);
  });

  it("sets and clears the unit's official title, which the detail returns", async () => {
    const c = await makeCourse(db, { name: "Titled" });
    const set = await put(c.id, { official_title: "  Licence to perform dogging " });
    expect(set.status).toBe(200);
    expect(courseResponse.parse(await bodyOf(set)).official_title).toBe("Licence to perform dogging");
    const detail = courseDetailResponse.parse(
      await bodyOf(await call(courseDetail, "GET", `/api/admin/courses/${c.id}`, { token: admin.token, params: { id: c.id } })),
    );
    expect(detail.course.official_title).toBe("Licence to perform dogging");
    const tooLong = await put(c.id, { official_title: "T".repeat(101) });
    expect(tooLong.status).toBe(422);
    expect((await bodyOf<{ errors: Record<string, string> }>(tooLong)).errors).toEqual({
      official_title: "Official unit title must be at most 100 characters",
    });
    const cleared = await put(c.id, { official_title: "" });
    expect(courseResponse.parse(await bodyOf(cleared)).official_title).toBeNull();
  });
});

describe("Edit Course (the form at /admin/courses/{id}/edit)", () => {
  const post = async (id: string, fields: Record<string, string>) =>
    call(editCourse, "POST", `/admin/courses/${id}/edit`, {
      cookie: await sessionCookie(db, admin.id),
      params: { id },
      body: new URLSearchParams({
        name: "Form course",
        description: "A test course",
        learning_outcomes_present: "1",
        assessment_criteria_present: "1",
        vet_flag_present: "1",
        vet_flag: "on",
        ...fields,
      }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });

  it("a cleared Duration or Price, or 0 hours, is a 400 with the message beside the field and the typed values kept", async () => {
    const c = await makeCourse(db, { name: "Form numbers", price: 1200 });
    const response = await post(c.id, { duration_hours: "", price: "", official_title: "Licence to perform rigging basic level" });
    expect(response.status).toBe(400);
    const data = await bodyOf<{ fieldErrors: Record<string, string>; state: Record<string, unknown> }>(response);
    expect(data.fieldErrors).toEqual({ duration_hours: "Duration is required", price: "Price is required" });
    expect(data.state).toMatchObject({ duration_hours: "", price: "", name: "Form course", official_title: "Licence to perform rigging basic level" });
    const zero = await bodyOf<{ fieldErrors: Record<string, string>; state: Record<string, unknown> }>(await post(c.id, { duration_hours: "0", price: "10" }));
    expect(zero.fieldErrors).toEqual({ duration_hours: "Duration must be more than 0" });
    expect(zero.state).toMatchObject({ duration_hours: "0", price: "10" });
    const row = await db
      .selectFrom("courses")
      .select(["name", "duration_hours", "price_cents", "official_title"])
      .where("id", "=", c.id)
      .executeTakeFirstOrThrow();
    expect({ ...row, duration_hours: Number(row.duration_hours) }).toEqual({
      name: "Form numbers",
      duration_hours: 40,
      price_cents: 120_000,
      official_title: null,
    });
  });

  it("saves the official title with the rest of the form", async () => {
    const c = await makeCourse(db, { name: "Form title" });
    const response = await post(c.id, { duration_hours: "16", price: "450", official_title: " Licence to perform rigging basic level " });
    expect(response.status).toBe(302);
    const row = await db.selectFrom("courses").select(["name", "duration_hours", "official_title"]).where("id", "=", c.id).executeTakeFirstOrThrow();
    expect({ ...row, duration_hours: Number(row.duration_hours) }).toEqual({
      name: "Form course",
      duration_hours: 16,
      official_title: "Licence to perform rigging basic level",
    });
  });
});

describe("POST /api/enrollments and GET /api/enrollments/my", () => {
  it("enrols any signed-in user: 201 with the enrolment, then it is listed", async () => {
    const s = await caller(db, "student");
    const c = await makeCourse(db, { name: "Enrol here", price: 1800 });
    const response = await call(enrollments, "POST", "/api/enrollments", { token: s.token, json: { course_id: c.id } });
    expect(response.status).toBe(201);
    const created = enrollmentResponse.parse(await bodyOf(response));
    expect(created).toMatchObject({ course_id: c.id, status: "enrolled", progress_percentage: 0, completion_date: null });
    expect(created.course).toMatchObject({ name: "Enrol here", tier: "tier_1", duration_hours: 40, price: 1800, description: "A test course" });
    const mine = await call(enrollmentsMy, "GET", "/api/enrollments/my", { token: s.token });
    expect(mine.status).toBe(200);
    const list = enrollmentResponse.array().parse(await bodyOf(mine));
    expect(list).toEqual([created]);
    const t = await caller(db, "trainer");
    expect((await call(enrollments, "POST", "/api/enrollments", { token: t.token, json: { course_id: c.id } })).status).toBe(201);
  });

  it("role matrix for enrolling and listing", async () => {
    const c = await makeCourse(db);
    const statuses = await matrix(enrollments, "POST", "/api/enrollments", { json: { course_id: c.id } });
    expect(statuses).toEqual({ anonymous: 401, student: 201, trainer: 201, admin: 201, inactive: 403 });
    expect(await matrix(enrollmentsMy, "GET", "/api/enrollments/my")).toEqual({ anonymous: 401, student: 200, trainer: 200, admin: 200, inactive: 403 });
  });

  it("409 for a second enrolment, 404 for unknown or closed courses, 422/400/415 for bad bodies — one row at most", async () => {
    const s = await caller(db, "student");
    const c = await makeCourse(db);
    const closed = await makeCourse(db, { is_active: false });
    expect((await call(enrollments, "POST", "/api/enrollments", { token: s.token, json: { course_id: c.id } })).status).toBe(201);
    const again = await call(enrollments, "POST", "/api/enrollments", { token: s.token, json: { course_id: c.id } });
    expect(again.status).toBe(409);
    expect(await bodyOf(again)).toEqual({ detail: "You are already enrolled in this course" });
    for (const course_id of [crypto.randomUUID(), closed.id, "not-a-uuid"]) {
      const response = await call(enrollments, "POST", "/api/enrollments", { token: s.token, json: { course_id } });
      expect(response.status, course_id).toBe(404);
      expect(await bodyOf(response)).toEqual({ detail: "Course not found" });
    }
    for (const json of [{}, { course_id: 5 }, { course_id: c.id, terms: true }]) {
      expect((await call(enrollments, "POST", "/api/enrollments", { token: s.token, json })).status, JSON.stringify(json)).toBe(422);
    }
    expect(
      (await call(enrollments, "POST", "/api/enrollments", { token: s.token, body: "course_id=x", contentType: "application/x-www-form-urlencoded" })).status,
    ).toBe(415);
    expect((await call(enrollments, "POST", "/api/enrollments", { token: s.token, body: '{"course_id":', contentType: "application/json" })).status).toBe(400);
    const rows = await db.selectFrom("enrollments").select("id").where("student_id", "=", s.id).execute();
    expect(rows).toHaveLength(1);
    expect((await call(enrollments, "GET", "/api/enrollments", { token: s.token })).status).toBe(405);
  });
});

describe("GET /api/certificates/my", () => {
  it("lists only the caller's own certificates", async () => {
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const { issueApiToken } = await import("~/api/auth.server");
    const token = await issueApiToken(db, demo.id);
    const response = await call(certificatesMy, "GET", "/api/certificates/my", { token });
    expect(response.status).toBe(200);
    const list = certificateResponse.array().parse(await bodyOf(response));
    const owned = await db.selectFrom("certificates").select("id").where("student_id", "=", demo.id).execute();
    expect(list.map((c) => c.id).sort()).toEqual(owned.map((c) => c.id).sort());
    expect(list.length).toBeGreaterThan(0);
    expect(await bodyOf(await call(certificatesMy, "GET", "/api/certificates/my", { token: student.token }))).toEqual([]);
    expect(await matrix(certificatesMy, "GET", "/api/certificates/my")).toEqual({ anonymous: 401, student: 200, trainer: 200, admin: 200, inactive: 403 });
  });
});

describe("any other /api path", () => {
  it("is a JSON 404 for every method", async () => {
    for (const method of ["GET", "POST", "PUT", "DELETE"]) {
      const response = await call(notFoundRoute, method, "/api/nope");
      expect(response.status).toBe(404);
      expect((await bodyOf(response)).detail).toMatch(/No such API endpoint/);
    }
  });
});
