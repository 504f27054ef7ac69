import crypto from "node:crypto";
import { request as playwrightRequest, type APIRequestContext, type APIResponse } from "@playwright/test";
import { validateJsonSchema } from "../support/json-schema";
import { creditUnit, e2eDb, e2eServer } from "./e2e-db";
import { DEMO, expect, newClientHeaders, organisationToday, requestsAloneRunOnce, test, uniqueEmail, uniqueUsi } from "./fixtures";

/**
 * The /api against the running production server, through a client configured as a
 * browser client would be: JSON accepted, the bearer token from login, the
 * XSRF-TOKEN cookie echoed as X-XSRF-TOKEN, statuses 200 to 299 as success. Each client is its
 * own HTTP context (own cookies, own client address for the sign-in rate limits). Tests make their
 * own users and courses; the demo accounts and courses are only read.
 */

/** The server of the running test's project. */
const baseURL = () => `http://localhost:${e2eServer().port}`;

/** A JSON answer as a test reads it: each test knows the shape it asked for. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests index into answers freely; their assertions check the shape
type Json = any;

interface Result<T = Json> {
  ok: boolean;
  status: number;
  data: T;
  headers: Record<string, string>;
  response: APIResponse;
}

class SpecClient {
  token: string | null = null;
  private constructor(readonly http: APIRequestContext) {}

  static async create(): Promise<SpecClient> {
    const http = await playwrightRequest.newContext({ baseURL: baseURL(), extraHTTPHeaders: newClientHeaders() });
    return new SpecClient(http);
  }

  async send<T = Json>(method: string, url: string, data?: unknown, extraHeaders: Record<string, string> = {}): Promise<Result<T>> {
    const headers: Record<string, string> = { Accept: "application/json, text/plain, */*", ...extraHeaders };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    const xsrf = (await this.http.storageState()).cookies.find((c) => c.name === "XSRF-TOKEN");
    if (xsrf) headers["X-XSRF-TOKEN"] = decodeURIComponent(xsrf.value);
    const response = await this.http.fetch(url, { method, headers, ...(data === undefined ? {} : { data }), maxRedirects: 0 });
    const text = await response.text();
    let parsed: unknown = null;
    if (text) {
      expect(response.headers()["content-type"], `${method} ${url} answers JSON`).toMatch(/application\/json/);
      parsed = JSON.parse(text);
    }
    const status = response.status();
    expect(status, `${method} ${url} never answers 5xx`).toBeLessThan(500);
    return { ok: status >= 200 && status <= 299, status, data: parsed as T, headers: response.headers(), response };
  }

  get = <T = Json>(url: string) => this.send<T>("GET", url);
  post = <T = Json>(url: string, data?: unknown) => this.send<T>("POST", url, data);
  put = <T = Json>(url: string, data?: unknown) => this.send<T>("PUT", url, data);

  /** Signs in as a browser client does: the token goes where every later call finds it. */
  async login(email: string, password = "password123"): Promise<Result> {
    const result = await this.post("/api/auth/login", { email, password });
    if (result.ok) this.token = result.data.access_token;
    return result;
  }

  async dispose() {
    await this.http.dispose();
  }
}

/** A course of our own, straight into the e2e server's database (no screen creates one). */
async function insertCourse(overrides: { is_active?: boolean } = {}) {
  const suffix = crypto.randomUUID().slice(0, 8);
  const now = new Date().toISOString();
  const course = {
    id: crypto.randomUUID(),
    name: `API tower crane course ${suffix}`,
    unit_code: `API${suffix.toUpperCase()}`,
    description: `Tower crane operations for API tests (${suffix}).`,
  };
  await e2eDb().run(
    `insert into courses (id, unit_code, name, description, tier, duration_hours, price_cents, is_active,
       prerequisites, learning_outcomes, assessment_criteria, created_at, updated_at)
     values (?, ?, ?, ?, 'tier_3', 80, 250000, ?, '[]', '["Erect the crane","Operate safely"]', '["Practical assessment"]', ?, ?)`,
    course.id,
    course.unit_code,
    course.name,
    course.description,
    overrides.is_active === false ? 0 : 1,
    now,
    now,
  );
  await creditUnit(course.unit_code, now);
  return course;
}

async function newStudent(client: SpecClient, name = "Api Journey") {
  const email = uniqueEmail("api");
  const registered = await client.post("/api/auth/register", { email, full_name: name, password: "Rigging-Kestrel-42", phone: "0400 555 111" });
  expect(registered.status).toBe(201);
  expect((await client.login(email, "Rigging-Kestrel-42")).status).toBe(200);
  const me = await client.get("/api/auth/me");
  return { email, id: me.data.id as string };
}

const clients: SpecClient[] = [];
async function client() {
  const c = await SpecClient.create();
  clients.push(c);
  return c;
}
test.afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});

test.describe("the /api journey through a browser-like client", () => {
  requestsAloneRunOnce();
  test("a trainer takes an enrolment to a certificate over /api; an admin verifies the USI, revokes and reissues", async () => {
    test.slow(); // four people's clients and a dozen writes
    const course = await insertCourse();
    const student = await client();
    const { id: studentId } = await newStudent(student, "Quinn Workflow");
    const enrolled = await student.post("/api/enrollments", { course_id: course.id });
    expect(enrolled.status).toBe(201);
    const enrollmentId = enrolled.data.id as string;

    // a student cannot use the trainer's workflow
    expect((await student.post("/api/assessments", { enrollment_id: enrollmentId })).status).toBe(403);

    const trainer = await client();
    expect((await trainer.login(DEMO.trainer.email)).ok).toBe(true);
    const today = organisationToday();
    const started = await trainer.put(`/api/enrollments/${enrollmentId}`, { status: "in_progress", progress_percentage: 50 });
    expect(started.status).toBe(200);
    expect(started.data).toMatchObject({ status: "in_progress", progress_percentage: 50 });
    const assessment = await trainer.post("/api/assessments", {
      enrollment_id: enrollmentId,
      assessment_type: "Practical",
      status: "passed",
      score: 46,
      max_score: 50,
      assessment_date: today,
      feedback: "Competent",
    });
    expect(assessment.status, JSON.stringify(assessment.data)).toBe(201);
    expect(assessment.data).toMatchObject({ enrollment_id: enrollmentId, status: "passed", score: 46 });
    // completing issues nothing yet: the student registered without a USI
    const completed = await trainer.put(`/api/enrollments/${enrollmentId}`, { status: "completed" });
    expect(completed.data).toMatchObject({ status: "completed", progress_percentage: 100, certificate: null });
    const gated = await trainer.post("/api/certificates", { enrollment_id: enrollmentId });
    expect(gated.status).toBe(409);
    expect(gated.data).toEqual({ detail: "USI not verified" });

    // the admin records the USI and its verification: the completed enrolment was waiting only
    // for that, so its certificate is issued at once; the trainer's issue is then a 409
    const admin = await client();
    expect((await admin.login(DEMO.admin.email)).ok).toBe(true);
    const usi = uniqueUsi();
    const verified = await admin.put(`/api/admin/students/${studentId}`, { usi, usi_verified: true });
    expect(verified.status).toBe(200);
    expect(verified.data).toMatchObject({ usi, usi_verified_at: expect.any(String) });
    const mine = (await student.get("/api/certificates/my")).data as Array<{ id: string; certificate_number: string; verification_code: string }>;
    expect(mine).toHaveLength(1);
    const first = mine[0]!;
    const again = await trainer.post("/api/certificates", { enrollment_id: enrollmentId });
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ detail: `Certificate ${first.certificate_number} was already issued for this enrolment` });
    const anyone = await client();
    expect((await anyone.get(`/api/verify/${first.verification_code}`)).data).toMatchObject({ status: "valid", learner_name: "Quinn Workflow" });

    // reissue, then revoke the new one; the trainer may do neither
    expect((await trainer.post(`/api/admin/certificates/${first.id}/reissue`)).status).toBe(403);
    const reissued = await admin.post(`/api/admin/certificates/${first.id}/reissue`);
    expect(reissued.status).toBe(201);
    const second = reissued.data as { id: string; certificate_number: string; verification_code: string };
    expect((await anyone.get(`/api/verify/${first.verification_code}`)).data).toMatchObject({ status: "replaced", replaced_by: second.certificate_number });
    const revoked = await admin.post(`/api/admin/certificates/${second.id}/revoke`, { reason: "Evidence withdrawn by the assessor" });
    expect(revoked.status).toBe(200);
    expect((await admin.post(`/api/admin/certificates/${second.id}/revoke`, { reason: "again" })).status).toBe(409);
    const publicView = await anyone.get(`/api/verify/${second.verification_code}`);
    expect(publicView.data).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
    expect(JSON.stringify(publicView.data)).not.toContain("Evidence withdrawn");
  });

  test("a student registers, signs in, browses, enrols and sees it; an admin reviews and edits", async () => {
    const course = await insertCourse();
    const closedLater = course;

    // ---- the student ------------------------------------------------------------------------
    const student = await client();
    const email = uniqueEmail("journey");
    const registered = await student.post("/api/auth/register", {
      email,
      full_name: "Jamie Journey",
      password: "Rigging-Kestrel-42",
      phone: "0411 222 333",
      role: "student",
      address: "2 Dock Rd, Newcastle NSW 2300",
      date_of_birth: "1997-06-15",
      emergency_contact: "Pat Journey 0400 111 222",
    });
    expect(registered.ok).toBe(true);
    expect(registered.status).toBe(201);
    expect(registered.data).toEqual({ success: true, message: "Registration successful! Please log in." });

    const login = await student.login(email, "Rigging-Kestrel-42");
    expect(login.ok).toBe(true);
    expect(login.data.token_type).toBe("bearer");
    expect(login.headers["set-cookie"]).toBeUndefined();

    const me = await student.get("/api/auth/me");
    expect(me.ok).toBe(true);
    expect(me.data).toMatchObject({ email, full_name: "Jamie Journey", role: "student", is_active: true, last_login: expect.any(String) });
    expect(JSON.stringify(me.data)).not.toMatch(/password|scrypt/);

    const catalogue = await student.get("/api/courses");
    expect(catalogue.ok).toBe(true);
    const listed = catalogue.data.find((c: { id: string }) => c.id === course.id);
    expect(listed).toMatchObject({ name: course.name, tier: "tier_3", duration_hours: 80, price: 2500, is_active: true });
    expect(catalogue.data.every((c: { is_active: boolean }) => c.is_active)).toBe(true);

    const enrolled = await student.post("/api/enrollments", { course_id: course.id });
    expect(enrolled.status).toBe(201);
    expect(enrolled.data).toMatchObject({ course_id: course.id, status: "enrolled", progress_percentage: 0 });

    const again = await student.post("/api/enrollments", { course_id: course.id });
    expect(again.ok).toBe(false);
    expect(again.status).toBe(409);
    expect(again.data).toEqual({ detail: "You are already enrolled in this course" });

    const mine = await student.get("/api/enrollments/my");
    expect(mine.ok).toBe(true);
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]).toMatchObject({
      id: enrolled.data.id,
      status: "enrolled",
      progress_percentage: 0,
      enrollment_date: expect.any(String),
      completion_date: null,
      course: { name: course.name, tier: "tier_3", duration_hours: 80, price: 2500, description: course.description },
    });
    const certificates = await student.get("/api/certificates/my");
    expect(certificates.ok).toBe(true);
    expect(certificates.data).toEqual([]);

    // the student may not use the administrator's calls
    expect((await student.get("/api/dashboard/stats")).status).toBe(403);
    expect((await student.get(`/api/admin/students/${me.data.id}`)).status).toBe(403);
    expect((await student.put(`/api/admin/courses/${course.id}`, { is_active: false })).status).toBe(403);

    // ---- the administrator ------------------------------------------------------------------
    const admin = await client();
    expect((await admin.login(DEMO.admin.email, DEMO.admin.password)).ok).toBe(true);
    const stats = await admin.get("/api/dashboard/stats");
    expect(stats.ok).toBe(true);
    for (const key of [
      "total_students",
      "active_courses",
      "completed_courses",
      "completion_rate",
      "tier_1_completions",
      "tier_2_completions",
      "tier_3_completions",
      "total_enrollments",
    ]) {
      expect(typeof stats.data[key], key).toBe("number");
    }
    expect(stats.data.total_students).toBeGreaterThan(0);
    expect(stats.data.total_enrollments).toBeGreaterThan(0);

    const list = await admin.get("/api/admin/students");
    expect(list.ok).toBe(true);
    expect(Array.isArray(list.data)).toBe(true);
    expect(Number(list.headers["x-total-count"])).toBeGreaterThanOrEqual(list.data.length);
    const search = await admin.get(`/api/admin/students?q=${encodeURIComponent(email)}`);
    expect(search.data.map((s: { id: string }) => s.id)).toEqual([me.data.id]);
    expect(search.headers["x-total-count"]).toBe("1");

    const detail = await admin.get(`/api/admin/students/${me.data.id}`);
    expect(detail.ok).toBe(true);
    expect(Object.keys(detail.data).sort()).toEqual(["assessments", "avetmiss", "certificates", "enrollments", "files", "student", "summary", "usi_held_by"]);
    expect(detail.data.student).toMatchObject({ id: me.data.id, email, phone: "0411 222 333", date_of_birth: "1997-06-15" });
    expect(detail.data.enrollments.map((e: { id: string }) => e.id)).toEqual([enrolled.data.id]);
    expect(detail.data.summary).toEqual({ total_enrollments: 1, completed_courses: 0, total_certificates: 0, avg_progress: 0 });

    const updated = await admin.put(`/api/admin/students/${me.data.id}`, { license_number: "HRW-CN-0042", phone: "0499 000 111" });
    expect(updated.ok).toBe(true);
    expect(updated.data).toMatchObject({
      id: me.data.id,
      full_name: "Jamie Journey",
      email,
      phone: "0499 000 111",
      license_number: "HRW-CN-0042",
      address: "2 Dock Rd, Newcastle NSW 2300",
      emergency_contact: "Pat Journey 0400 111 222",
      is_active: true,
    });
    expect((await admin.get(`/api/admin/students/${me.data.id}`)).data.student.license_number).toBe("HRW-CN-0042");

    const allCourses = await admin.get("/api/courses");
    expect(allCourses.data.find((c: { id: string }) => c.id === course.id).is_active).toBe(true);
    const toggled = await admin.put(`/api/admin/courses/${course.id}`, { is_active: false });
    expect(toggled.ok).toBe(true);
    expect(toggled.data).toMatchObject({
      id: course.id,
      is_active: false,
      name: course.name,
      price: 2500,
      learning_outcomes: ["Erect the crane", "Operate safely"],
    });
    const readBack = await admin.get(`/api/admin/courses/${course.id}`);
    expect(readBack.ok).toBe(true);
    expect(readBack.data.course.is_active).toBe(false);
    expect(readBack.data.statistics).toEqual({ total_enrollments: 1, completion_rate: 0 });
    expect(readBack.data.recent_enrollments[0]).toMatchObject({
      student_name: "Jamie Journey",
      student_email: email,
      status: "enrolled",
      progress_percentage: 0,
    });
    expect((await admin.get("/api/courses")).data.find((c: { id: string }) => c.id === course.id).is_active).toBe(false);

    // the closed course is gone from the student's catalogue and cannot be joined
    expect((await student.get("/api/courses")).data.some((c: { id: string }) => c.id === closedLater.id)).toBe(false);
    const other = await client();
    await newStudent(other);
    const closed = await other.post("/api/enrollments", { course_id: course.id });
    expect(closed.status).toBe(404);
    expect(closed.data).toEqual({ detail: "Course not found" });

    // deactivating the student ends their token at once; signing in says why
    const deactivated = await admin.put(`/api/admin/students/${me.data.id}`, { is_active: false });
    expect(deactivated.data.is_active).toBe(false);
    const afterwards = await student.get("/api/auth/me");
    expect(afterwards.ok).toBe(false);
    expect(afterwards.status).toBe(401);
    const relogin = await student.login(email, "Rigging-Kestrel-42");
    expect(relogin.status).toBe(403);
    expect(relogin.data.detail).toMatch(/inactive/);
  });

  test("the trainer reads the student list, stats and all courses, and nothing of the admin's", async () => {
    const hidden = await insertCourse({ is_active: false });
    const trainer = await client();
    expect((await trainer.login(DEMO.trainer.email, DEMO.trainer.password)).ok).toBe(true);
    expect((await trainer.get("/api/dashboard/stats")).status).toBe(200);
    const students = await trainer.get("/api/admin/students?page_size=5");
    expect(students.status).toBe(200);
    expect(students.data).toHaveLength(5);
    expect(students.headers["x-page-size"]).toBe("5");
    const courses = await trainer.get("/api/courses");
    expect(courses.data.find((c: { id: string }) => c.id === hidden.id)).toMatchObject({ is_active: false });
    // a trainer reads a student's contact fields and enrolments, never the USI, date of birth or AVETMISS details
    const contact = await trainer.get(`/api/admin/students/${students.data[0].id}`);
    expect(contact.status).toBe(200);
    expect(Object.keys(contact.data).sort()).toEqual(["assessments", "certificates", "enrollments", "student", "summary"]);
    expect(contact.data.student).not.toHaveProperty("usi");
    expect(contact.data.student).not.toHaveProperty("date_of_birth");
    expect((await trainer.get(`/api/admin/courses/${hidden.id}`)).status).toBe(403);
    expect((await trainer.put(`/api/admin/courses/${hidden.id}`, { is_active: true })).status).toBe(403);
    const anonymous = await client();
    const open = await anonymous.get("/api/courses");
    expect(open.status).toBe(200);
    expect(open.data.some((c: { id: string }) => c.id === hidden.id)).toBe(false);
    for (const url of ["/api/auth/me", "/api/dashboard/stats", "/api/admin/students", "/api/enrollments/my", "/api/certificates/my"]) {
      const r = await anonymous.get(url);
      expect(r.status, url).toBe(401);
      expect(r.headers["www-authenticate"], url).toMatch(/^Bearer/);
    }
  });
});

test.describe("the /api at the HTTP layer", () => {
  requestsAloneRunOnce();
  test("bad input is a 4xx JSON answer, never a 500", async () => {
    const c = await client();
    await newStudent(c);
    const raw = (method: string, url: string, body: string, contentType: string) =>
      c.http.fetch(url, { method, headers: { Authorization: `Bearer ${c.token}`, "Content-Type": contentType, Accept: "application/json" }, data: body });
    const cases: Array<[string, string, string, string, number]> = [
      ["POST", "/api/enrollments", "{not json", "application/json", 400],
      ["POST", "/api/enrollments", '"just a string"', "application/json", 400],
      ["POST", "/api/enrollments", "course_id=abc", "application/x-www-form-urlencoded", 415],
      ["POST", "/api/enrollments", JSON.stringify({ course_id: { $gt: "" } }), "application/json", 422],
      ["POST", "/api/enrollments", JSON.stringify({ course_id: "x", admin: true }), "application/json", 422],
      ["POST", "/api/auth/login", JSON.stringify({ email: "a".repeat(100_000), password: "x" }), "application/json", 422],
      ["POST", "/api/auth/register", "<xml/>", "application/xml", 415],
      ["PUT", "/api/auth/me", "{}", "application/json", 405],
      ["DELETE", "/api/enrollments", "", "application/json", 405],
    ];
    for (const [method, url, body, type, status] of cases) {
      const response = await raw(method, url, body, type);
      expect(response.status(), `${method} ${url} ${body.slice(0, 30)}`).toBe(status);
      expect(response.headers()["content-type"]).toMatch(/application\/json/);
      expect(typeof (await response.json()).detail).toBe("string");
    }
    const put = await raw("PUT", "/api/auth/me", "{}", "application/json");
    expect(put.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
    const tooBig = await raw("POST", "/api/enrollments", JSON.stringify({ course_id: "x".repeat(1_100_000) }), "application/json");
    expect(tooBig.status()).toBe(413);
    expect(await tooBig.json()).toEqual({ detail: "Request body is larger than 1 MB" });
    const unknown = await c.get("/api/no/such/endpoint");
    expect(unknown.status).toBe(404);
    expect(unknown.data.detail).toMatch(/No such API endpoint/);
    expect((await c.get("/api/admin/courses/not-a-uuid")).status).toBe(403); // the role is checked first
    const admin = await client();
    expect((await admin.login(DEMO.admin.email, DEMO.admin.password)).ok).toBe(true);
    for (const id of ["not-a-uuid", crypto.randomUUID(), "%27%20or%201%3D1"]) {
      const missing = await admin.get(`/api/admin/courses/${id}`);
      expect(missing.status, id).toBe(404);
      expect(missing.data).toEqual({ detail: "Course not found" });
    }
  });

  test("sign-in failures: one message for unknown email and wrong password, then the rate limit", async () => {
    const c = await client();
    const { email } = await newStudent(c);
    const wrong = await c.login(email, "not-my-password");
    const unknown = await c.login(uniqueEmail("ghost"), "Rigging-Kestrel-42");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.data).toEqual(unknown.data);
    for (let i = 0; i < 4; i++) expect((await c.login(email, `wrong-${i}`)).status).toBe(401);
    const refused = await c.login(email, "Rigging-Kestrel-42");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
  });

  test("a pending trainer cannot sign in; logout revokes the token", async () => {
    const c = await client();
    const email = uniqueEmail("trainer");
    const registered = await c.post("/api/auth/register", { email, full_name: "Pending Trainer", password: "Rigging-Kestrel-42", role: "trainer" });
    expect(registered.status).toBe(201);
    expect(registered.data.message).toMatch(/awaiting approval/);
    const pending = await c.login(email, "Rigging-Kestrel-42");
    expect(pending.status).toBe(403);
    expect(pending.data.detail).toMatch(/awaiting approval/);
    const taken = await c.post("/api/auth/register", { email, full_name: "Again", password: "Rigging-Kestrel-42" });
    expect(taken.status).toBe(409);
    expect(taken.data).toMatchObject({ success: false, message: expect.any(String), detail: expect.any(String) });

    await newStudent(c);
    expect((await c.get("/api/auth/me")).status).toBe(200);
    const out = await c.post("/api/auth/logout");
    expect(out.status).toBe(204);
    expect((await c.get("/api/auth/me")).status).toBe(401);
  });

  test("real answers match the served OpenAPI document", async () => {
    const anonymous = await client();
    const doc = (await anonymous.get("/api/openapi.json")).data;
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/admin/certificates/{id}/reissue",
        "/api/admin/certificates/{id}/revoke",
        "/api/admin/courses/{id}",
        "/api/admin/courses/{id}/classes",
        "/api/admin/classes/{id}",
        "/api/admin/hrw-assessments",
        "/api/hrw/assessments",
        "/api/hrw/assessments/my",
        "/api/hrw/assessments/{id}/notice",
        "/api/hrw/assessments/{id}/nsa",
        "/api/hrw/assessments/{id}/results",
        "/api/admin/avetmiss",
        "/api/admin/audit",
        "/api/admin/mail",
        "/api/admin/hrw/rules",
        "/api/admin/checklists",
        "/api/admin/checklists/{id}",
        "/api/admin/checklists/{id}/review",
        "/api/admin/credential-matrix",
        "/api/admin/enrollments/{id}/review",
        "/api/admin/improvements",
        "/api/admin/improvements/{id}",
        "/api/admin/improvements/{id}/close",
        "/api/admin/employers",
        "/api/admin/employers/{id}",
        "/api/admin/invoices",
        "/api/admin/invoices/{id}",
        "/api/admin/invoices/{id}/payments",
        "/api/admin/invoices/{id}/credit-notes",
        "/api/employer/bookings",
        "/api/employer/bookings/{id}",
        "/api/employer/bookings/{id}/workers",
        "/api/employer/workers",
        "/api/employer/workers/{id}",
        "/api/admin/questionnaires/questions",
        "/api/admin/questionnaires/questions/{id}",
        "/api/admin/questionnaires/summary",
        "/api/admin/questionnaires/threshold",
        "/api/admin/review-questions",
        "/api/admin/review-questions/{id}",
        "/api/admin/complaints",
        "/api/admin/complaints/{id}",
        "/api/admin/complaints/{id}/acknowledge",
        "/api/admin/complaints/{id}/assign",
        "/api/admin/complaints/{id}/improvements",
        "/api/admin/complaints/{id}/resolve",
        "/api/appeals",
        "/api/recognition",
        "/api/recognition/{id}",
        "/api/recognition/{id}/authenticate",
        "/api/recognition/{id}/assessor",
        "/api/recognition/{id}/decision",
        "/api/recognition/{id}/evidence",
        "/api/recognition/{id}/referee-requests",
        "/api/recognition/{id}/sessions",
        "/api/recognition/{id}/sessions/reschedule",
        "/api/recognition/{id}/sessions/cancel",
        "/api/complaints",
        "/api/admin/validation-plans",
        "/api/admin/validation-plans/{id}",
        "/api/admin/validation-plans/{id}/sample",
        "/api/admin/validation-plans/{id}/findings",
        "/api/admin/validation-plans/{id}/complete",
        "/api/admin/course-validations",
        "/api/admin/course-validations/{id}",
        "/api/admin/trainers/{id}/credentials",
        "/api/admin/trainers/{id}/units",
        "/api/admin/trainers/{id}/activities",
        "/api/admin/trainer-activities/{id}/confirm",
        "/api/credentials/my",
        "/api/credentials/my/activities",
        "/api/trainer-activities/{id}/evidence",
        "/api/courses/{id}/review",
        "/api/enrollments/{id}/review",
        "/api/admin/retention",
        "/api/admin/retention/destroy",
        "/api/assessments/{kind}/{id}/evidence",
        "/api/assessments/{kind}/{id}/checklist",
        "/api/assessments/{kind}/{id}/signatures",
        "/api/evidence/{id}/download",
        "/api/learner-documents/{id}",
        "/api/hrw/assessments/{id}/reschedule",
        "/api/hrw/candidates/{id}/aen",
        "/api/hrw/currency",
        "/api/admin/staff/{id}",
        "/api/admin/sign-in-settings",
        "/api/admin/webhooks",
        "/api/admin/webhooks/{id}",
        "/api/admin/students",
        "/api/admin/students/{id}",
        "/api/auth/login",
        "/api/auth/logout",
        "/api/auth/me",
        "/api/assessments",
        "/api/auth/register",
        "/api/certificates",
        "/api/certificates/my",
        "/api/certificates/{id}/download",
        "/api/courses",
        "/api/courses/{id}/classes",
        "/api/classes/{id}/waitlist",
        "/api/classes/{id}/accept",
        "/api/classes/{id}/roster",
        "/api/dashboard/stats",
        "/api/enrollments",
        "/api/enrollments/my",
        "/api/enrollments/{id}",
        "/api/openapi.json",
        "/api/verify/{code}",
      ].sort(),
    );
    const check = (result: Result, route: string, method: string) => {
      const documented = doc.paths[route]?.[method]?.responses?.[String(result.status)];
      expect(documented, `${method} ${route} documents ${result.status}`).toBeDefined();
      const schema = documented.content["application/json"].schema;
      expect(validateJsonSchema(result.data, schema, doc), `${method} ${route} ${result.status}`).toEqual([]);
    };
    const student = await client();
    expect((await student.login(DEMO.student.email, DEMO.student.password)).ok).toBe(true);
    check(await student.get("/api/auth/me"), "/api/auth/me", "get");
    check(await student.get("/api/enrollments/my"), "/api/enrollments/my", "get");
    const certs = await student.get("/api/certificates/my");
    expect(certs.data.length).toBeGreaterThan(0);
    check(certs, "/api/certificates/my", "get");
    check(await student.get("/api/courses"), "/api/courses", "get");
    check(await student.get("/api/dashboard/stats"), "/api/dashboard/stats", "get");
    const download = await student.http.get(`/api/certificates/${certs.data[0].id}/download`, { headers: { Authorization: `Bearer ${student.token}` } });
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");

    const admin = await client();
    check(await admin.login(DEMO.admin.email, DEMO.admin.password), "/api/auth/login", "post");
    check(await admin.get("/api/dashboard/stats"), "/api/dashboard/stats", "get");
    // other specs register students in the same run, so find the demo student by search
    const list = await admin.get(`/api/admin/students?q=${encodeURIComponent(DEMO.student.email)}`);
    check(list, "/api/admin/students", "get");
    const demoStudent = list.data.find((s: { email: string }) => s.email === DEMO.student.email);
    check(await admin.get(`/api/admin/students/${demoStudent.id}`), "/api/admin/students/{id}", "get");
    const courses = await admin.get("/api/courses");
    check(courses, "/api/courses", "get");
    check(await admin.get(`/api/admin/courses/${courses.data[0].id}`), "/api/admin/courses/{id}", "get");
    check(await admin.put(`/api/admin/courses/${courses.data[0].id}`, { price: -5 }), "/api/admin/courses/{id}", "put");
    check(await admin.get(`/api/admin/students/${crypto.randomUUID()}`), "/api/admin/students/{id}", "get");
    check(await admin.get(`/api/admin/audit?action=sign_in.succeeded&person=${encodeURIComponent(DEMO.admin.email)}`), "/api/admin/audit", "get");
    check(await admin.get("/api/admin/audit?from=yesterday"), "/api/admin/audit", "get");

    // single sign-on's switch: read it, answer it as it is (other journeys sign in with passwords), refuse nonsense
    const signInSettings = await admin.get("/api/admin/sign-in-settings");
    check(signInSettings, "/api/admin/sign-in-settings", "get");
    expect(signInSettings.data).toMatchObject({ provider: "Test IdP", require_sso_for_staff: false });
    check(await admin.put("/api/admin/sign-in-settings", { require_sso_for_staff: false }), "/api/admin/sign-in-settings", "put");
    check(await admin.put("/api/admin/sign-in-settings", { require_sso_for_staff: "always" }), "/api/admin/sign-in-settings", "put");

    // webhooks: register (to a closed port on this machine; the server allows private addresses), read, rotate, resend, switch off
    const hook = await admin.post("/api/admin/webhooks", { url: "http://127.0.0.1:9/hooks", description: "OpenAPI check", events: ["complaint.lodged"] });
    check(hook, "/api/admin/webhooks", "post");
    expect(hook.status).toBe(201);
    expect(hook.data.secret).toMatch(/^whsec_/);
    check(await admin.post("/api/admin/webhooks", { url: "ftp://example.com", events: [] }), "/api/admin/webhooks", "post");
    check(await admin.get("/api/admin/webhooks"), "/api/admin/webhooks", "get");
    check(await admin.get(`/api/admin/webhooks/${hook.data.id}`), "/api/admin/webhooks/{id}", "get");
    check(await admin.get(`/api/admin/webhooks/${crypto.randomUUID()}`), "/api/admin/webhooks/{id}", "get");
    const rotated = await admin.post(`/api/admin/webhooks/${hook.data.id}`, { intent: "rotate" });
    check(rotated, "/api/admin/webhooks/{id}", "post");
    expect(rotated.data.secret).not.toBe(hook.data.secret);
    check(await admin.post(`/api/admin/webhooks/${hook.data.id}`, { intent: "resend", delivery: "msg_none" }), "/api/admin/webhooks/{id}", "post");
    check(await admin.post(`/api/admin/webhooks/${hook.data.id}`, { intent: "burn" }), "/api/admin/webhooks/{id}", "post");
    const off = await admin.post(`/api/admin/webhooks/${hook.data.id}`, { intent: "toggle" });
    check(off, "/api/admin/webhooks/{id}", "post");
    expect(off.data.is_active).toBe(false);

    const fresh = await client();
    check(
      await fresh.post("/api/auth/register", { email: uniqueEmail("doc"), full_name: "Doc Check", password: "Rigging-Kestrel-42" }),
      "/api/auth/register",
      "post",
    );
    check(await fresh.post("/api/auth/register", { email: "nope", full_name: "", password: "1" }), "/api/auth/register", "post");
    check(await fresh.login("nobody@test.example", "whatever1"), "/api/auth/login", "post");
    const { id } = await newStudent(fresh);
    check(await admin.put(`/api/admin/students/${id}`, { emergency_contact: "Kim 0400 000 000" }), "/api/admin/students/{id}", "put");
    const course = await insertCourse();
    check(await fresh.post("/api/enrollments", { course_id: course.id }), "/api/enrollments", "post");
    check(await fresh.post("/api/enrollments", { course_id: course.id }), "/api/enrollments", "post");
  });
});

// signed in through the form in the browser, which the no-JavaScript project proves too
test.describe("the /api from a signed-in browser", () => {
  test("the browser session works for GET; cookie-only writes need the same origin; cross-site writes are refused", async ({ page }) => {
    const c = await client();
    const { email } = await newStudent(c);
    const course = await insertCourse();
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("Rigging-Kestrel-42");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    const me = await page.request.get("/api/auth/me");
    expect(me.status()).toBe(200);
    expect((await me.json()).email).toBe(email);
    const blind = await page.request.post("/api/enrollments", { data: { course_id: course.id } });
    expect(blind.status()).toBe(401);
    const crossSite = await page.request.post("/api/enrollments", { data: { course_id: course.id }, headers: { Origin: "https://evil.example" } });
    expect(crossSite.status()).toBe(403);
    expect(await crossSite.json()).toEqual({ detail: "Cross-site request refused" });
    const crossSiteBearer = await c.send("POST", "/api/enrollments", { course_id: course.id }, { Origin: "https://evil.example" });
    expect(crossSiteBearer.status).toBe(403);
    expect((await c.get("/api/enrollments/my")).data).toEqual([]);
    const sameOrigin = await page.request.post("/api/enrollments", { data: { course_id: course.id }, headers: { Origin: baseURL() } });
    expect(sameOrigin.status()).toBe(201);
    expect((await c.get("/api/enrollments/my")).data.map((e: { course_id: string }) => e.course_id)).toEqual([course.id]);
  });
});
