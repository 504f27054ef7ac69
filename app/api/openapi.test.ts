import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { queueMail } from "~/models/outbox.server";
import { issueApiToken } from "~/api/auth.server";
import * as openapiRoute from "~/routes/api+/openapi[.]json";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment } from "../../tests/support/factories";
import { routeModuleFiles, routeUrlPattern } from "../../tests/support/route-files";
import { gpsPhoto, multipartRequest } from "../../tests/support/evidence-files";
import { localFileStore } from "~/files/store.server";
import { readUpload } from "~/files/upload.server";
import { addEvidence, assessmentFor, signAssessment } from "~/models/evidence.server";
import { reviewChecklist, saveChecklist } from "~/models/standards/checklist.server";
import { recordCandidateCheck } from "~/models/hrw/hrw-candidate.server";
import { addAccreditation } from "~/models/hrw/hrw-register.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { AVETMISS_FIELDS } from "~/schemas/avetmiss-details";
import { conformsTo, validateJsonSchema } from "../../tests/support/json-schema";
import { API_OPERATIONS, openApiDocument } from "./openapi";
import { bodyOf, call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";

/** Every /api route file, by the URL path it serves (flat-routes naming). */
const ROUTES_DIR = path.resolve("app/routes");
const routeFiles: Record<string, RouteModule> = {};
for (const name of routeModuleFiles(ROUTES_DIR).filter((f) => /^api\+\/.*\.ts$/.test(f))) {
  routeFiles[`../routes/${name}`] = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, name))) as RouteModule;
}

/** A route file's URL as the document writes it: `{id}` for `$id`. */
function urlPathOf(file: string): string {
  return routeUrlPattern(file.replace(/^.*\/routes\//, "")).replace(/\/\$(\w+)(?=\/|$)/g, "/{$1}");
}

const routes = Object.entries(routeFiles)
  .filter(([file]) => !file.endsWith("/api+/$.ts"))
  .map(([file, mod]) => ({ file, path: urlPathOf(file), mod }));

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>>; securitySchemes: Record<string, unknown> };
};
type Operation = {
  security: unknown[];
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
};

const doc = openApiDocument() as unknown as Doc;

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb({ seed: true }));
  useAsAppDb(db);
  admin = await caller(db, "admin");
});
afterAll(async () => cleanup());

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => collectRefs(n, out));
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe("the OpenAPI document", () => {
  it("is served at GET /api/openapi.json", async () => {
    const response = await call(openapiRoute, "GET", "/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    expect(await bodyOf(response)).toEqual(JSON.parse(JSON.stringify(doc)));
    expect((await call(openapiRoute, "POST", "/api/openapi.json", { json: {} })).status).toBe(405);
  });

  it("is OpenAPI 3.1 with bearer security and every reference resolving", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    for (const ref of collectRefs(doc)) {
      const name = ref.replace("#/components/schemas/", "");
      expect(doc.components.schemas[name], ref).toBeDefined();
    }
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
        const statuses = Object.keys(op.responses);
        expect(
          statuses.some((s) => s.startsWith("2")),
          `${method} ${path} has a success`,
        ).toBe(true);
        const spec = API_OPERATIONS.find((o) => o.path === path && o.method === method)!;
        if (spec.access === "required") {
          expect(op.security).toContainEqual({ bearerAuth: [] });
          expect(statuses).toContain("401");
        }
      }
    }
  });

  it("lists exactly the routes that exist, each with exactly the methods it answers", async () => {
    expect(Object.keys(doc.paths).sort()).toEqual(routes.map((r) => r.path).sort());
    for (const route of routes) {
      const documented = Object.keys(doc.paths[route.path]!)
        .map((m) => m.toUpperCase())
        .sort();
      const options = await call(route.mod, "OPTIONS", route.path);
      expect(options.status, route.path).toBe(204);
      const allowed = options.headers
        .get("Allow")!
        .split(", ")
        .filter((m) => m !== "HEAD" && m !== "OPTIONS")
        .sort();
      expect(allowed, route.path).toEqual(documented);
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => !documented.includes(m))) {
        const response = await call(route.mod, method, route.path, method === "GET" ? {} : { json: {} });
        expect(response.status, `${method} ${route.path}`).toBe(405);
        expect(response.headers.get("Allow"), `${method} ${route.path}`).toBe(options.headers.get("Allow"));
      }
    }
  });

  it("describes request bodies with the fields the routes accept", () => {
    const body = (path: string, method: string) => {
      const ref = doc.paths[path]![method]!.requestBody!.content["application/json"]!.schema.$ref as string;
      return doc.components.schemas[ref.replace("#/components/schemas/", "")]!;
    };
    const student = body("/api/admin/students/{id}", "put");
    expect(Object.keys(student.properties as object).sort()).toEqual(
      [
        "full_name",
        "email",
        "phone",
        "address",
        "date_of_birth",
        "emergency_contact",
        "license_number",
        "is_active",
        "usi",
        "usi_verified",
        ...AVETMISS_FIELDS,
      ].sort(),
    );
    expect(student.required).toBeUndefined();
    // every PUT of a record's fields is partial: no field of its body is required. A PUT whose
    // body is one setting (an account switched on or off, staff sign-in, an audience's threshold)
    // has nothing else to leave out.
    const settings = ["/api/admin/staff/{id}", "/api/admin/sign-in-settings", "/api/admin/questionnaires/threshold"];
    const puts = Object.entries(doc.paths).flatMap(([path, ops]) => (ops.put && !settings.includes(path) ? [path] : []));
    expect(puts.length).toBeGreaterThan(7);
    for (const path of puts) expect(body(path, "put").required, `PUT ${path}`).toBeUndefined();
    expect(student.additionalProperties).toBe(false);
    const course = body("/api/admin/courses/{id}", "put");
    expect(Object.keys(course.properties as object)).toEqual(
      expect.arrayContaining([
        "name",
        "description",
        "duration_hours",
        "price",
        "is_active",
        "prerequisites",
        "learning_outcomes",
        "assessment_criteria",
        "field_of_education",
        "vet_flag",
        "licence_class",
        "licence_prerequisites",
      ]),
    );
    expect(course.required).toBeUndefined();
    expect(body("/api/auth/login", "post").required).toEqual(["email", "password"]);
    expect(body("/api/auth/register", "post").required).toEqual(["full_name", "email", "password"]);
    expect(body("/api/enrollments", "post").required).toEqual(["course_id"]);
  });
});

/** Checks one real answer against the document's schema for its path, method and status. */
const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);

describe("real answers match the document", () => {
  it("for a sample of successes and failures on every JSON route", async () => {
    const mod = async (name: string) => routeFiles[`../routes/${name}.ts`]!;
    const student = await caller(db, "student");
    const trainer = await caller(db, "trainer");
    const course = await makeCourse(db, { name: "Documented course" });
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const demoToken = await issueApiToken(db, demo.id);

    const login = await mod("api+/auth.login");
    await conforms(await call(login, "POST", "/api/auth/login", { json: { email: student.email, password: "password123" } }), "/api/auth/login", "post");
    await conforms(await call(login, "POST", "/api/auth/login", { json: { email: student.email, password: "wrong-pass" } }), "/api/auth/login", "post");
    await conforms(await call(login, "POST", "/api/auth/login", { json: { email: "" } }), "/api/auth/login", "post");
    await conforms(await call(login, "POST", "/api/auth/login", { body: "{", contentType: "application/json" }), "/api/auth/login", "post");
    await conforms(await call(login, "POST", "/api/auth/login", { body: "a=b", contentType: "text/plain" }), "/api/auth/login", "post");

    const register = await mod("api+/auth.register");
    const email = `doc-${crypto.randomUUID().slice(0, 8)}@test.example`;
    await conforms(
      await call(register, "POST", "/api/auth/register", { json: { email, full_name: "Doc Student", password: "Rigging-Kestrel-42" } }),
      "/api/auth/register",
      "post",
    );
    await conforms(
      await call(register, "POST", "/api/auth/register", { json: { email, full_name: "Doc Student", password: "Rigging-Kestrel-42" } }),
      "/api/auth/register",
      "post",
    );
    await conforms(await call(register, "POST", "/api/auth/register", { json: { email: "x" } }), "/api/auth/register", "post");
    await conforms(await call(register, "POST", "/api/auth/register", { body: "[", contentType: "application/json" }), "/api/auth/register", "post");

    const me = await mod("api+/auth.me");
    await conforms(await call(me, "GET", "/api/auth/me", { token: demoToken }), "/api/auth/me", "get");
    await conforms(await call(me, "GET", "/api/auth/me"), "/api/auth/me", "get");

    const stats = await mod("api+/dashboard.stats");
    await conforms(await call(stats, "GET", "/api/dashboard/stats", { token: trainer.token }), "/api/dashboard/stats", "get");
    await conforms(await call(stats, "GET", "/api/dashboard/stats", { token: student.token }), "/api/dashboard/stats", "get");

    const students = await mod("api+/admin.students");
    const list = await conforms(await call(students, "GET", "/api/admin/students", { token: admin.token }), "/api/admin/students", "get");
    expect(list.length).toBeGreaterThan(5);
    await conforms(await call(students, "GET", "/api/admin/students?page=x", { token: admin.token }), "/api/admin/students", "get");

    const studentDetail = await mod("api+/admin.students.$id");
    const p = "/api/admin/students/{id}";
    const detail = await conforms(await call(studentDetail, "GET", "/x", { token: admin.token, params: { id: demo.id } }), p, "get");
    expect(detail.certificates.length + detail.assessments.length + detail.files.length).toBeGreaterThan(0);
    await conforms(await call(studentDetail, "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), p, "get");
    await conforms(await call(studentDetail, "PUT", "/x", { token: admin.token, params: { id: student.id }, json: { phone: "0400 999 888" } }), p, "put");
    await conforms(await call(studentDetail, "PUT", "/x", { token: admin.token, params: { id: student.id }, json: { email: "bad" } }), p, "put");
    await conforms(
      await call(studentDetail, "PUT", "/x", { token: admin.token, params: { id: student.id }, json: { email: "student@example.com" } }),
      p,
      "put",
    );
    await conforms(await call(studentDetail, "PUT", "/x", { token: trainer.token, params: { id: student.id }, json: {} }), p, "put");

    const courses = await mod("api+/courses");
    await conforms(await call(courses, "GET", "/api/courses"), "/api/courses", "get");
    await conforms(await call(courses, "GET", "/api/courses", { token: admin.token }), "/api/courses", "get");

    const courseDetail = await mod("api+/admin.courses.$id");
    const c = "/api/admin/courses/{id}";
    const demoCourse = await db.selectFrom("enrollments").select("course_id").limit(1).executeTakeFirstOrThrow();
    const cd = await conforms(await call(courseDetail, "GET", "/x", { token: admin.token, params: { id: demoCourse.course_id } }), c, "get");
    expect(cd.recent_enrollments.length).toBeGreaterThan(0);
    await conforms(await call(courseDetail, "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { is_active: false } }), c, "put");
    await conforms(await call(courseDetail, "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { price: "free" } }), c, "put");
    await conforms(await call(courseDetail, "PUT", "/x", { token: admin.token, params: { id: "nope" }, json: { is_active: true } }), c, "put");

    const enrollments = await mod("api+/enrollments");
    const open = await makeCourse(db, { name: "Open for docs" });
    await conforms(await call(enrollments, "POST", "/api/enrollments", { token: student.token, json: { course_id: open.id } }), "/api/enrollments", "post");
    await conforms(await call(enrollments, "POST", "/api/enrollments", { token: student.token, json: { course_id: open.id } }), "/api/enrollments", "post");
    await conforms(await call(enrollments, "POST", "/api/enrollments", { token: student.token, json: { course_id: course.id } }), "/api/enrollments", "post");

    // classes (docs/decisions/013-classes.md): add, list, a full class's 409, the waitlist, the roster, change, cancel
    const classCourse = await makeCourse(db, { name: "Course with a class" });
    const trainerId = (await db.selectFrom("users").select("id").where("email", "=", "trainer@example.com").executeTakeFirstOrThrow()).id;
    const addClass = await mod("api+/admin.courses.$id.classes");
    const ac = "/api/admin/courses/{id}/classes";
    const session = { date: "2099-03-02", starts_at: "07:30", ends_at: "15:30" };
    const created = await conforms(
      await call(addClass, "POST", "/x", {
        token: admin.token,
        params: { id: classCourse.id },
        json: { start_date: "2099-03-02", end_date: "2099-03-02", sessions: [session], trainer_id: trainerId, seats: 1 },
      }),
      ac,
      "post",
    );
    expect(created).toMatchObject({ seats: 1, seats_left: 1, sessions: [session] });
    await conforms(
      await call(addClass, "POST", "/x", { token: admin.token, params: { id: classCourse.id }, json: { start_date: "2099-03-02", seats: 101 } }),
      ac,
      "post",
    );
    await conforms(await call(addClass, "POST", "/x", { token: trainer.token, params: { id: classCourse.id }, json: {} }), ac, "post");
    const listClasses = await mod("api+/courses.$id.classes");
    await conforms(await call(listClasses, "GET", "/x", { params: { id: classCourse.id } }), "/api/courses/{id}/classes", "get");
    await conforms(await call(listClasses, "GET", "/x", { params: { id: crypto.randomUUID() } }), "/api/courses/{id}/classes", "get");
    await conforms(
      await call(enrollments, "POST", "/api/enrollments", { token: student.token, json: { course_id: classCourse.id, class_id: created.id } }),
      "/api/enrollments",
      "post",
    );
    const full = await call(enrollments, "POST", "/api/enrollments", { token: trainer.token, json: { course_id: classCourse.id, class_id: created.id } });
    expect(full.status).toBe(409);
    expect((await conforms(full, "/api/enrollments", "post")).detail).toBe("This class is full");
    const waitlist = await mod("api+/classes.$id.waitlist");
    const wl = "/api/classes/{id}/waitlist";
    expect(await conforms(await call(waitlist, "POST", "/x", { token: trainer.token, params: { id: created.id } }), wl, "post")).toMatchObject({
      status: "waiting",
      place: 1,
    });
    await conforms(await call(waitlist, "POST", "/x", { token: trainer.token, params: { id: created.id } }), wl, "post");
    await conforms(await call(waitlist, "GET", "/x", { token: trainer.token, params: { id: created.id } }), wl, "get");
    const acceptSeat = await mod("api+/classes.$id.accept");
    await conforms(await call(acceptSeat, "POST", "/x", { token: trainer.token, params: { id: created.id } }), "/api/classes/{id}/accept", "post");
    const rosterRoute = await mod("api+/classes.$id.roster");
    const rp = "/api/classes/{id}/roster";
    await conforms(await call(rosterRoute, "GET", "/x", { token: trainer.token, params: { id: created.id } }), rp, "get"); // not their class: 404
    const roster = await conforms(await call(rosterRoute, "GET", "/x", { token: admin.token, params: { id: created.id } }), rp, "get");
    const marked = await conforms(
      await call(rosterRoute, "POST", "/x", {
        token: admin.token,
        params: { id: created.id },
        json: { session_id: roster.sessions[0].id, enrollment_id: roster.learners[0].enrollment_id, status: "late" },
      }),
      rp,
      "post",
    );
    // the class is still to come: its session's day has not come, so the mark is refused (409, documented)
    expect(marked.detail).toBe("This session has not started: mark attendance on its day");
    await conforms(await call(rosterRoute, "POST", "/x", { token: trainer.token, params: { id: created.id }, json: { status: "maybe" } }), rp, "post");
    await conforms(await call(rosterRoute, "GET", "/x", { token: student.token, params: { id: created.id } }), rp, "get");
    const classAdmin = await mod("api+/admin.classes.$id");
    const cp = "/api/admin/classes/{id}";
    expect(
      await conforms(await call(classAdmin, "PUT", "/x", { token: admin.token, params: { id: created.id }, json: { seats: 3 } }), cp, "put"),
    ).toMatchObject({ seats: 3, seats_left: 1 });
    await conforms(await call(classAdmin, "PUT", "/x", { token: admin.token, params: { id: created.id }, json: { end_date: "2099-01-01" } }), cp, "put");
    expect((await call(classAdmin, "DELETE", "/x", { token: admin.token, params: { id: created.id } })).status).toBe(204);
    await conforms(await call(classAdmin, "DELETE", "/x", { token: admin.token, params: { id: created.id } }), cp, "delete");

    const mine = await mod("api+/enrollments.my");
    const enrolled = await conforms(await call(mine, "GET", "/api/enrollments/my", { token: demoToken }), "/api/enrollments/my", "get");
    expect(enrolled.length).toBeGreaterThan(0);
    const certs = await mod("api+/certificates.my");
    const certificates = await conforms(await call(certs, "GET", "/api/certificates/my", { token: demoToken }), "/api/certificates/my", "get");
    expect(certificates.length).toBeGreaterThan(0);

    const logout = await mod("api+/auth.logout");
    const out = await call(logout, "POST", "/api/auth/logout", { token: student.token });
    expect(out.status).toBe(204);
    expect(doc.paths["/api/auth/logout"]!.post!.responses["204"]).toBeDefined();
  });

  it("for the HRW licence assessment calls: booking, notice, results, NSA, the student's own and the audit", async () => {
    const mod = (name: string) => routeFiles[`../routes/${name}.ts`]!;
    const assessor = await caller(db, "trainer");
    const candidate = await caller(db, "student");
    const today = organisationToday();
    const course = await makeCourse(db, { name: "Documented crane" });
    await call(mod("api+/admin.courses.$id"), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { licence_class: "CN" } });
    await recordCandidateCheck(db, candidate.id, { kind: "age", date_of_birth: "1990-01-01" }, admin.id);
    const location = await db.selectFrom("delivery_locations").select("id").limit(1).executeTakeFirstOrThrow();
    const booking = {
      candidate_id: candidate.id,
      course_id: course.id,
      state: "VIC",
      assessment_date: today,
      start_time: "09:00",
      location_id: location.id,
      assessor_id: assessor.id,
      plant_description: "Crane",
      plant_registration: "R1",
    };
    const book = mod("api+/hrw.assessments");
    await conforms(await call(book, "POST", "/api/hrw/assessments", { token: assessor.token, json: booking }), "/api/hrw/assessments", "post");
    await recordCandidateCheck(db, candidate.id, { kind: "identity", documents: ["passport", "medicare_card", "bank_card"] }, admin.id);
    await addAccreditation(
      db,
      assessor.id,
      { regulator: "VIC", number: `DOC-${assessor.id}`, classes: ["CN"], starts_on: "2020-01-01", expires_on: "2099-01-01" },
      admin.id,
    );
    const { id } = await conforms(await call(book, "POST", "/api/hrw/assessments", { token: assessor.token, json: booking }), "/api/hrw/assessments", "post");
    const step = (name: string, path: string, json: unknown, token = assessor.token) =>
      call(mod(name), "POST", "/x", { token, json, params: { id } }).then((r) => conforms(r, path, "post"));
    await step("api+/hrw.assessments.$id.notice", "/api/hrw/assessments/{id}/notice", { notice_reference: "VIC-1" });
    await step("api+/hrw.assessments.$id.notice", "/api/hrw/assessments/{id}/notice", { notice_reference: "" });
    const r = "/api/hrw/assessments/{id}/results";
    await step("api+/hrw.assessments.$id.nsa", "/api/hrw/assessments/{id}/nsa", { nsa_number: `N-${id}`, nsa_date: today });
    for (const part of ["knowledge", "calculations", "practical"])
      await step("api+/hrw.assessments.$id.results", r, { part, result: "satisfactory", assessed_on: today });
    await step("api+/hrw.assessments.$id.results", r, { part: "knowledge", result: "satisfactory", assessed_on: today }, candidate.token);
    const done = await step("api+/hrw.assessments.$id.nsa", "/api/hrw/assessments/{id}/nsa", { nsa_number: `N-${id}`, nsa_date: today });
    expect(done.stage).toBe("nsa_issued");
    const own = await conforms(
      await call(mod("api+/hrw.assessments.my"), "GET", "/api/hrw/assessments/my", { token: candidate.token }),
      "/api/hrw/assessments/my",
      "get",
    );
    expect(own.assessments).toHaveLength(1);
    const audit = mod("api+/admin.hrw-assessments");
    const all = await conforms(
      await call(audit, "GET", `/api/admin/hrw-assessments?from=${today}`, { token: admin.token }),
      "/api/admin/hrw-assessments",
      "get",
    );
    expect(all.assessments.some((a: { id: string }) => a.id === id)).toBe(true);
    await conforms(await call(audit, "GET", "/api/admin/hrw-assessments?to=31-12-2026", { token: admin.token }), "/api/admin/hrw-assessments", "get");
    await conforms(await call(audit, "GET", "/api/admin/hrw-assessments", { token: assessor.token }), "/api/admin/hrw-assessments", "get");
  });

  it("for the mail list: a page of messages, and the refusals", async () => {
    const mail = routeFiles["../routes/api+/admin.mail.ts"]!;
    const trainer = await caller(db, "trainer");
    const demo = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    await writeTransaction(db, (trx) =>
      queueMail(trx, {
        key: "documented-mail",
        template: "class-cancelled",
        recipientId: demo.id,
        data: { course: "Documented course", start: "2026-12-01", end: "2026-12-02", path: "/courses" },
      }),
    );
    const page = (await conforms(await call(mail, "GET", "/api/admin/mail", { token: admin.token }), "/api/admin/mail", "get")) as {
      messages: { key: string; subject: string }[];
    };
    expect(page.messages.find((m) => m.key === "documented-mail")?.subject).toMatch(/^Class cancelled: Documented course/);
    await conforms(
      await call(mail, "GET", "/api/admin/mail?state=given_up&template=class-reminder&from=2026-01-01&to=2026-12-31", { token: admin.token }),
      "/api/admin/mail",
      "get",
    );
    await conforms(await call(mail, "GET", "/api/admin/mail?state=lost", { token: admin.token }), "/api/admin/mail", "get");
    await conforms(await call(mail, "GET", "/api/admin/mail", { token: trainer.token }), "/api/admin/mail", "get");
    await conforms(await call(mail, "GET", "/api/admin/mail"), "/api/admin/mail", "get");
  });

  it("for an assessment's evidence: its files and declarations, and the refusals", async () => {
    const evidence = routeFiles["../routes/api+/assessments.$kind.$id.evidence.ts"]!;
    const [trainer, other, student] = await Promise.all([
      caller(db, "trainer"),
      caller(db, "trainer"),
      caller(db, "student", { full_name: "Evie Documented" }),
    ]);
    const course = await makeCourse(db);
    const enrollment = await makeEnrollment(db, student.id, course.id);
    const id = crypto.randomUUID();
    await db
      .insertInto("assessments")
      .values({
        id,
        enrollment_id: enrollment.id,
        student_id: student.id,
        course_id: course.id,
        assessment_type: "Practical",
        status: "passed",
        score: null,
        max_score: null,
        assessment_date: "2026-05-01T00:00:00.000Z",
        feedback: null,
        assessed_by: trainer.id,
        created_at: new Date().toISOString(),
      })
      .execute();
    const assessment = await assessmentFor(db, { id: trainer.id, role: "trainer" }, { kind: "unit", id });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "openapi-evidence-"));
    const read = await readUpload(multipartRequest("http://localhost/x", {}, [{ field: "files", name: "yard.jpg", bytes: await gpsPhoto(60) }]));
    try {
      await addEvidence(db, localFileStore(dir), { assessment, actor: trainer.id, files: read.files, dir: read.dir });
    } finally {
      read.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await signAssessment(db, { assessment, role: "candidate", full_name: "Evie Documented", userAgent: null, actor: { id: student.id } });
    const path_ = `/api/assessments/unit/${id}/evidence`;
    const params = { kind: "unit", id };
    for (const who of [trainer, student, admin]) {
      const list = (await conforms(await call(evidence, "GET", path_, { token: who.token, params }), "/api/assessments/{kind}/{id}/evidence", "get")) as {
        files: { original_name: string; download: string }[];
        signatures: { role: string }[];
      };
      expect(list.files.map((f) => f.original_name)).toEqual(["yard.jpg"]);
      expect(list.files[0]!.download).toMatch(/^\/api\/evidence\/[0-9a-f-]{36}\/download$/);
      expect(list.signatures.map((s) => s.role)).toEqual(["candidate"]);
    }
    // another trainer, an unknown kind and an unknown id are all "not found"; no credentials is 401
    expect((await call(evidence, "GET", path_, { token: other.token, params })).status).toBe(404);
    await conforms(await call(evidence, "GET", path_, { token: other.token, params }), "/api/assessments/{kind}/{id}/evidence", "get");
    expect((await call(evidence, "GET", `/api/assessments/exam/${id}/evidence`, { token: admin.token, params: { kind: "exam", id } })).status).toBe(404);
    expect((await call(evidence, "GET", `/api/assessments/hrw/${id}/evidence`, { token: admin.token, params: { kind: "hrw", id } })).status).toBe(404);
    await conforms(await call(evidence, "GET", path_, { params }), "/api/assessments/{kind}/{id}/evidence", "get");
  });

  it("for the observation checklists: each with its items and review, and the refusals", async () => {
    const checklists = routeFiles["../routes/api+/admin.checklists.ts"]!;
    const course = await makeCourse(db);
    const checklistId = await saveChecklist(
      db,
      { course_id: course.id, title: "Documented checklist", items: [{ maps_to: "PC 1.1", text: "Inspects the slings", nai_part: "practical" }] },
      { id: admin.id },
    );
    await reviewChecklist(db, checklistId, { id: admin.id });
    const list = (await conforms(await call(checklists, "GET", "/api/admin/checklists", { token: admin.token }), "/api/admin/checklists", "get")) as {
      title: string;
      reviewed_at: string | null;
      items: { maps_to: string }[];
    }[];
    const mine = list.find((c) => c.title === "Documented checklist");
    expect(mine?.reviewed_at).not.toBeNull();
    expect(mine?.items.map((i) => i.maps_to)).toEqual(["PC 1.1"]);
    await conforms(await call(checklists, "GET", "/api/admin/checklists", { token: (await caller(db, "trainer")).token }), "/api/admin/checklists", "get");
    await conforms(await call(checklists, "GET", "/api/admin/checklists"), "/api/admin/checklists", "get");
  });

  it("for the retention rules: the rules and what is due, and the refusals", async () => {
    const retention = routeFiles["../routes/api+/admin.retention.ts"]!;
    const answer = (await conforms(await call(retention, "GET", "/api/admin/retention", { token: admin.token }), "/api/admin/retention", "get")) as {
      rules: { record_type: string }[];
    };
    expect(answer.rules.map((r) => r.record_type)).toContain("assessment_evidence");
    await conforms(await call(retention, "GET", "/api/admin/retention", { token: (await caller(db, "trainer")).token }), "/api/admin/retention", "get");
    await conforms(await call(retention, "GET", "/api/admin/retention"), "/api/admin/retention", "get");
  });

  it("the check fails for an answer that leaks a field or breaks a type", async () => {
    const root = doc as unknown as Record<string, unknown>;
    const userSchema = { $ref: "#/components/schemas/User" };
    const me = routeFiles["../routes/api+/auth.me.ts"]!;
    const user = await (await call(me, "GET", "/api/auth/me", { token: admin.token })).json();
    expect(validateJsonSchema(user, userSchema, root)).toEqual([]);
    expect(validateJsonSchema({ ...user, password_hash: "scrypt$..." }, userSchema, root)).toEqual([
      expect.stringMatching(/unexpected property "password_hash"/),
    ]);
    expect(validateJsonSchema({ ...user, is_active: 1 }, userSchema, root)).not.toEqual([]);
    expect(validateJsonSchema({ ...user, created_at: "yesterday" }, userSchema, root)).not.toEqual([]);
    const { email: _e, ...missing } = user;
    expect(validateJsonSchema(missing, userSchema, root)).toEqual([expect.stringMatching(/missing required "email"/)]);
  });
});
