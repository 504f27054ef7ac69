import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser, TEST_TOTP_SECRET } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie, type Caller, type RouteModule } from "../../tests/support/api-calls";
import * as exportCsv from "~/routes/admin+/export[.]csv";
import * as studentsApi from "~/routes/api+/admin.students";
import * as editStudentPage from "~/routes/admin+/students.$id_.edit";
import * as overviewPage from "~/routes/admin+/overview";
import * as newCoursePage from "~/routes/admin+/courses.new";
import * as courseClassesApi from "~/routes/api+/admin.courses.$id.classes";
import * as classApi from "~/routes/api+/admin.classes.$id";
import * as waitlistApi from "~/routes/api+/classes.$id.waitlist";
import * as acceptApi from "~/routes/api+/classes.$id.accept";
import * as rosterApi from "~/routes/api+/classes.$id.roster";
import * as assessmentsApi from "~/routes/api+/assessments";
import * as candidatePage from "~/routes/trainer+/hrw_.candidates.$id";
import * as bookingApi from "~/routes/api+/hrw.assessments";
import * as noticeApi from "~/routes/api+/hrw.assessments.$id.notice";
import * as resultsApi from "~/routes/api+/hrw.assessments.$id.results";
import * as nsaApi from "~/routes/api+/hrw.assessments.$id.nsa";
import * as registerPage from "~/routes/admin+/staff_.$id.hrw";
import * as rulesPage from "~/routes/admin+/hrw.rules";
import * as loginApi from "~/routes/api+/auth.login";
import * as auditApi from "~/routes/api+/admin.audit";
import { currentCode } from "~/auth/two-step.server";
import { addAccreditation } from "./hrw/hrw-register.server";
import { recordCandidateCheck } from "./hrw/hrw-candidate.server";
import { runClassJobs } from "./class-jobs.server";
import { organisationToday, addDays } from "~/utils/organisation-calendar";
import type { AuditAction } from "~/rules/audit-actions";

/**
 * Every event the audit trail adds for the office's day, each driven the way its users cause
 * it: a page's loader or action with a signed-in session, an /api call with a token, the
 * `admin:create` script in a process of its own, the class jobs for an offer that lapses.
 * Each test asserts the entry (action, actor, client, subject, field names) and that no
 * sensitive value reached it.
 */

const OUTBOX = fs.mkdtempSync(path.join(os.tmpdir(), "audit-coverage-outbox-"));
process.env.OUTBOX_DIR = OUTBOX;

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let admin: Caller;
let trainer: Caller;
let adminCookie: string;
let trainerCookie: string;
beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  trainer = await caller(db, "trainer");
  adminCookie = await sessionCookie(db, admin.id);
  trainerCookie = await sessionCookie(db, trainer.id);
});
afterAll(async () => {
  await cleanup();
  fs.rmSync(OUTBOX, { recursive: true, force: true });
});

const mod = (m: unknown) => m as RouteModule;
const CLIENT = "203.0.113.9";
const today = organisationToday();
/** A class a few weeks out: the catalogue and the waitlist take classes that have not started. */
const classDay = addDays(today, 30);
const form = (values: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return { body: body.toString(), contentType: "application/x-www-form-urlencoded" };
};

/** The entries of an action about a subject id or a person, oldest first. */
async function entries(action: AuditAction, about: string) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .where((eb) => eb.or([eb("subject_id", "=", about), eb("subject_user_id", "=", about)]))
    .orderBy("id")
    .execute();
}

async function entriesBy(action: AuditAction, actorId: string) {
  return db.selectFrom("audit_log").selectAll().where("action", "=", action).where("actor_id", "=", actorId).orderBy("id").execute();
}

async function classWithSeats(seats: number) {
  const course = await makeCourse(db);
  const created = await call(mod(courseClassesApi), "POST", `/api/admin/courses/${course.id}/classes`, {
    token: admin.token,
    params: { id: course.id },
    json: { start_date: classDay, end_date: classDay, sessions: [{ date: classDay, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats },
    client: CLIENT,
  });
  expect(created.status).toBe(201);
  return { course, cls: await bodyOf<{ id: string; sessions: Array<{ date: string }> }>(created) };
}

/** A full one-seat class with one learner holding the seat and another waiting. */
async function fullClassWithWaiting() {
  const { course, cls } = await classWithSeats(1);
  const holder = await caller(db, "student");
  const waiting = await caller(db, "student");
  await makeEnrollment(db, holder.id, course.id, { status: "enrolled", progress: 0 });
  await db.updateTable("enrollments").set({ class_id: cls.id }).where("student_id", "=", holder.id).execute();
  const joined = await call(mod(waitlistApi), "POST", `/api/classes/${cls.id}/waitlist`, { token: waiting.token, params: { id: cls.id } });
  expect(joined.status).toBe(201);
  return { course, cls, holder, waiting };
}

describe("bulk reads of personal data", () => {
  it("the students CSV names the columns it exported, never a value", async () => {
    const student = await makeUser(db, { phone: "0499 123 456" });
    await db.updateTable("users").set({ date_of_birth: "1991-02-03", address: "7 Crane St" }).where("id", "=", student.id).execute();
    const csv = await call(mod(exportCsv), "GET", "/admin/export.csv", { cookie: adminCookie, client: CLIENT });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain("1991-02-03");
    const [entry] = await entriesBy("students.exported", admin.id);
    expect(entry).toMatchObject({ client: CLIENT, subject_type: "students" });
    expect(entry!.fields!.split(",")).toEqual(expect.arrayContaining(["date_of_birth", "address", "email", "phone"]));
    expect(JSON.stringify(entry)).not.toMatch(/1991-02-03|7 Crane St|0499 123 456/);
  });

  it("GET /api/admin/students as an administrator (USIs and dates of birth in the list) is recorded; a trainer's contact view is not", async () => {
    const student = await makeUser(db, { full_name: "Listed Learner" });
    const usi = (await db.selectFrom("users").select("usi").where("id", "=", student.id).executeTakeFirstOrThrow()).usi!;
    const asTrainer = await call(mod(studentsApi), "GET", "/api/admin/students?q=Listed", { token: trainer.token, client: CLIENT });
    expect(asTrainer.status).toBe(200);
    expect(await entriesBy("students.listed", trainer.id)).toHaveLength(0);
    const asAdmin = await call(mod(studentsApi), "GET", "/api/admin/students?q=Listed", { token: admin.token, client: CLIENT });
    expect(JSON.stringify(await bodyOf(asAdmin))).toContain(usi);
    const [entry] = await entriesBy("students.listed", admin.id);
    expect(entry).toMatchObject({
      client: CLIENT,
      subject_type: "students",
      fields: "address,date_of_birth,emergency_contact,license_number,usi,usi_claimed,usi_verified_at",
    });
    expect(JSON.stringify(entry)).not.toMatch(new RegExp(`${usi}|Listed`));
  });

  it("the office's edit form shows the USI: a USI view", async () => {
    const student = await makeUser(db);
    const page = await call(mod(editStudentPage), "GET", `/admin/students/${student.id}/edit`, {
      cookie: adminCookie,
      params: { id: student.id },
      client: CLIENT,
    });
    expect(page.status).toBe(200);
    expect((await entries("usi.viewed", student.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, detail: "edit form" });
  });
});

describe("accounts", () => {
  it("a staff registration rejected", async () => {
    const pending = await makeUser(db, { role: "trainer", approval_status: "pending" });
    const answer = await call(mod(overviewPage), "POST", "/admin/overview", {
      cookie: adminCookie,
      client: CLIENT,
      ...form({ intent: "reject", user_id: pending.id }),
    });
    expect(answer.status).toBe(302);
    expect((await entries("staff.rejected", pending.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "user", detail: "trainer" });
  });

  it("admin:create, run as a script, records the administrator it made (never the password)", { timeout: 90_000 }, async () => {
    const secret = "Tr1cky-Audit-Pass";
    const env = { ...process.env, DATABASE_URL: url, ADMIN_PASSWORD: secret };
    const run = spawnSync(
      path.resolve("node_modules", ".bin", "tsx"),
      ["scripts/admin-create.ts", "--email", "first.admin@audit.example", "--name", "First Admin"],
      { env, encoding: "utf8", input: "", timeout: 80_000 },
    );
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    const created = await db.selectFrom("users").select("id").where("email", "=", "first.admin@audit.example").executeTakeFirstOrThrow();
    const [entry] = await entries("admin.created", created.id);
    expect(entry).toMatchObject({ actor_id: null, subject_type: "user", detail: "npm run admin:create" });
    expect(JSON.stringify(entry)).not.toContain(secret);
  });

  it("a sign-in refused by the rate limit on passwords", async () => {
    const user = await makeUser(db);
    const client = "198.51.100.23";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await call(mod(loginApi), "POST", "/api/auth/login", { json: { email: user.email, password: "Wrong-Secret-1" }, client })).status);
    }
    expect(statuses.at(-1)).toBe(429);
    const [entry] = await entries("sign_in.throttled", user.id);
    expect(entry).toMatchObject({ actor_id: null, client, detail: "password attempts" });
    expect(JSON.stringify(entry)).not.toContain("Wrong-Secret-1");
  });

  it("a sign-in refused by the rate limit on second-step codes", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    const client = "198.51.100.24";
    const wrong = currentCode(TEST_TOTP_SECRET) === "000000" ? "111111" : "000000";
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await call(mod(loginApi), "POST", "/api/auth/login", { json: { email: user.email, password: "password123", code: wrong }, client })).status,
      );
    }
    expect(statuses.at(-1)).toBe(429);
    expect((await entries("sign_in.throttled", user.id))[0]).toMatchObject({ actor_id: null, client, detail: "second-step codes" });
  });
});

describe("courses and classes", () => {
  it("a course created from Add Course", async () => {
    const unit = `AUD${crypto.randomInt(100000, 999999)}`;
    const answer = await call(mod(newCoursePage), "POST", "/admin/courses/new", {
      cookie: adminCookie,
      client: CLIENT,
      ...form({
        unit_code: unit,
        name: "Audited rigging",
        description: "Rigging, audited",
        tier: "tier_1",
        duration_hours: "16",
        price: "450",
        is_active: "on",
        prerequisites_present: "1",
        learning_outcomes: "Rig a load",
        assessment_criteria: "Rigs a load safely",
      }),
    });
    expect(answer.status).toBe(302);
    const course = await db.selectFrom("courses").select("id").where("unit_code", "=", unit).executeTakeFirstOrThrow();
    expect((await entries("course.created", course.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "course", detail: unit });
  });

  it("a class created over the /api", async () => {
    const { cls } = await classWithSeats(8);
    expect((await entries("class.created", cls.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "class" });
  });

  it("a class edited names the fields that changed", async () => {
    const { cls } = await classWithSeats(8);
    const other = await makeUser(db, { role: "trainer" });
    const put = await call(mod(classApi), "PUT", `/api/admin/classes/${cls.id}`, {
      token: admin.token,
      params: { id: cls.id },
      json: { trainer_id: other.id, seats: 8 },
      client: CLIENT,
    });
    expect(put.status).toBe(200);
    expect((await entries("class.edited", cls.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, fields: "trainer_id" });
    // the same number of seats is no seat change
    expect(await entries("class.seats_changed", cls.id)).toHaveLength(0);
  });

  it("seats added to a full class, and the waitlist offer they make", async () => {
    const { cls, waiting } = await fullClassWithWaiting();
    const put = await call(mod(classApi), "PUT", `/api/admin/classes/${cls.id}`, {
      token: admin.token,
      params: { id: cls.id },
      json: { seats: 2 },
      client: CLIENT,
    });
    expect(put.status).toBe(200);
    expect((await entries("class.seats_changed", cls.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, fields: "seats", detail: "1 to 2 seats" });
    expect(await entries("class.edited", cls.id)).toHaveLength(0);
    const [offer] = await entries("waitlist.offer_made", waiting.id);
    expect(offer).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "class", subject_id: cls.id, subject_user_id: waiting.id });
  });

  it("a class cancelled", async () => {
    const { cls } = await classWithSeats(4);
    const cancelled = await call(mod(classApi), "DELETE", `/api/admin/classes/${cls.id}`, { token: admin.token, params: { id: cls.id }, client: CLIENT });
    expect(cancelled.status).toBe(204);
    expect((await entries("class.cancelled", cls.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "class" });
  });
});

describe("the waitlist", () => {
  it("an offer accepted by the learner", async () => {
    const { cls, waiting } = await fullClassWithWaiting();
    await call(mod(classApi), "PUT", `/api/admin/classes/${cls.id}`, { token: admin.token, params: { id: cls.id }, json: { seats: 2 } });
    const accepted = await call(mod(acceptApi), "POST", `/api/classes/${cls.id}/accept`, { token: waiting.token, params: { id: cls.id }, client: CLIENT });
    expect(accepted.status).toBe(201);
    expect((await entries("waitlist.offer_accepted", waiting.id))[0]).toMatchObject({ actor_id: waiting.id, client: CLIENT, subject_id: cls.id });
  });

  it("an offer that lapses expires in the class jobs (no one caused it), and passes to the next learner", async () => {
    const { cls, waiting } = await fullClassWithWaiting();
    const next = await caller(db, "student");
    await call(mod(waitlistApi), "POST", `/api/classes/${cls.id}/waitlist`, { token: next.token, params: { id: cls.id } });
    await call(mod(classApi), "PUT", `/api/admin/classes/${cls.id}`, { token: admin.token, params: { id: cls.id }, json: { seats: 2 } });
    await runClassJobs(db, { now: new Date(Date.now() + 49 * 3600_000) });
    expect((await entries("waitlist.offer_expired", waiting.id))[0]).toMatchObject({ actor_id: null, client: null, subject_id: cls.id });
    expect((await entries("waitlist.offer_made", next.id))[0]).toMatchObject({ actor_id: null, subject_id: cls.id });
  });
});

describe("training records", () => {
  it("attendance marked on the roster", async () => {
    const { course, cls } = await classWithSeats(4);
    const student = await makeUser(db);
    const enrollment = await makeEnrollment(db, student.id, course.id, { status: "in_progress", progress: 10 });
    await db.updateTable("enrollments").set({ class_id: cls.id }).where("id", "=", enrollment.id).execute();
    const session = await db.selectFrom("class_sessions").select("id").where("class_id", "=", cls.id).executeTakeFirstOrThrow();
    // a session is marked from its own day: this one is brought to today
    await db.updateTable("class_sessions").set({ session_date: today }).where("id", "=", session.id).execute();
    const marked = await call(mod(rosterApi), "POST", `/api/classes/${cls.id}/roster`, {
      token: trainer.token,
      params: { id: cls.id },
      json: { session_id: session.id, enrollment_id: enrollment.id, status: "late" },
      client: CLIENT,
    });
    expect(marked.status).toBe(200);
    expect((await entries("attendance.marked", enrollment.id))[0]).toMatchObject({
      actor_id: trainer.id,
      client: CLIENT,
      subject_user_id: student.id,
      detail: `late on ${today}`,
    });
  });

  it("an assessment result recorded", async () => {
    const student = await makeUser(db);
    const enrollment = await makeEnrollment(db, student.id, (await makeCourse(db)).id, {
      status: "in_progress",
      progress: 10,
      enrollment_date: `${addDays(today, -10)}T00:00:00.000Z`,
    });
    const recorded = await call(mod(assessmentsApi), "POST", "/api/assessments", {
      token: trainer.token,
      json: {
        enrollment_id: enrollment.id,
        assessment_type: "Practical",
        status: "passed",
        score: 9,
        max_score: 10,
        assessment_date: today,
        feedback: "Well done",
      },
      client: CLIENT,
    });
    expect(recorded.status).toBe(201);
    const { id } = await bodyOf<{ id: string }>(recorded);
    expect((await entries("assessment.result_recorded", id))[0]).toMatchObject({
      actor_id: trainer.id,
      client: CLIENT,
      subject_type: "assessment",
      subject_user_id: student.id,
      detail: "Practical: passed",
    });
  });
});

describe("high-risk work", () => {
  let courseId: string;
  let locationId: string;
  beforeAll(async () => {
    const course = await makeCourse(db);
    await db.updateTable("courses").set({ licence_class: "CN" }).where("id", "=", course.id).execute();
    courseId = course.id;
    locationId = crypto.randomUUID();
    const at = new Date().toISOString();
    await db
      .insertInto("delivery_locations")
      .values({
        id: locationId,
        identifier: "AUDYARD",
        name: "Audit yard",
        suburb: null,
        postcode: null,
        state: null,
        country: "1101",
        created_at: at,
        updated_at: at,
      })
      .execute();
    await addAccreditation(
      db,
      trainer.id,
      { regulator: "QLD", number: `QAUD-${trainer.id.slice(0, 8)}`, classes: ["CN"], starts_on: "2024-01-01", expires_on: "2099-12-31" },
      admin.id,
      new Date(Date.now() - 3600_000),
    );
  });

  async function readyCandidate() {
    const candidate = await makeUser(db);
    await recordCandidateCheck(db, candidate.id, { kind: "age", date_of_birth: "1990-01-01" }, admin.id);
    await recordCandidateCheck(db, candidate.id, { kind: "identity", documents: ["passport", "driver_licence"] }, admin.id);
    return candidate;
  }
  /** Booked over the /api a week ahead, as QLD's three business days' notice allows. */
  const bookedFor = addDays(today, 7);
  async function book(candidateId: string) {
    const booked = await call(mod(bookingApi), "POST", "/api/hrw/assessments", {
      token: trainer.token,
      json: {
        candidate_id: candidateId,
        course_id: courseId,
        state: "QLD",
        assessment_date: bookedFor,
        start_time: "07:30",
        location_id: locationId,
        assessor_id: trainer.id,
        plant_description: "Franna AT-22",
        plant_registration: "FR22-009",
      },
      client: CLIENT,
    });
    expect(booked.status).toBe(201);
    return (await bodyOf<{ id: string }>(booked)).id;
  }
  /** A booking made ten days ago for today: its notice, results and NSA can be recorded now. */
  async function bookedForToday(candidateId: string) {
    const id = await book(candidateId);
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await db.updateTable("hrw_assessments").set({ assessment_date: today, created_at: tenDaysAgo }).where("id", "=", id).execute();
    return id;
  }
  const step = (route: unknown, name: string, id: string, json: unknown) =>
    call(mod(route), "POST", `/api/hrw/assessments/${id}/${name}`, { token: trainer.token, params: { id }, json, client: CLIENT });

  it("a candidate check names what was sighted, never the date of birth", async () => {
    const candidate = await makeUser(db);
    const answer = await call(mod(candidatePage), "POST", `/trainer/hrw/candidates/${candidate.id}`, {
      cookie: trainerCookie,
      params: { id: candidate.id },
      client: CLIENT,
      ...form({ intent: "age", date_of_birth: "1993-08-17" }),
    });
    expect(answer.status).toBe(302);
    const [entry] = await entries("hrw.check_recorded", candidate.id);
    expect(entry).toMatchObject({ actor_id: trainer.id, client: CLIENT, fields: "date_of_birth", detail: "age" });
    expect(JSON.stringify(entry)).not.toContain("1993-08-17");
  });

  it("an assessment booked", async () => {
    const candidate = await readyCandidate();
    const id = await book(candidate.id);
    expect((await entries("hrw.assessment_booked", id))[0]).toMatchObject({
      actor_id: trainer.id,
      client: CLIENT,
      subject_user_id: candidate.id,
      detail: `CN in QLD on ${bookedFor}`,
    });
  });

  it("a regulator notice recorded", async () => {
    const id = await bookedForToday((await readyCandidate()).id);
    expect((await step(noticeApi, "notice", id, { notice_reference: "QLD-AUD-1", sent_on: addDays(today, -7) })).status).toBe(201);
    expect((await entries("hrw.notice_recorded", id))[0]).toMatchObject({
      actor_id: trainer.id,
      client: CLIENT,
      subject_type: "hrw_assessment",
      detail: `QLD-AUD-1 for ${today}, given ${addDays(today, -7)}`,
    });
  });

  it("an HRW result recorded, naming the accreditation it counts under", async () => {
    const candidate = await readyCandidate();
    const id = await bookedForToday(candidate.id);
    await step(noticeApi, "notice", id, { notice_reference: "QLD-AUD-2", sent_on: addDays(today, -7) });
    expect((await step(resultsApi, "results", id, { part: "knowledge", result: "satisfactory", assessed_on: today })).status).toBe(201);
    const [entry] = await entries("hrw.result_recorded", id);
    expect(entry).toMatchObject({ actor_id: trainer.id, client: CLIENT, subject_user_id: candidate.id });
    expect(entry!.detail).toBe(`knowledge: satisfactory on ${today} under accreditation QAUD-${trainer.id.slice(0, 8)}`);
  });

  it("an NSA recorded", async () => {
    const id = await bookedForToday((await readyCandidate()).id);
    await step(noticeApi, "notice", id, { notice_reference: "QLD-AUD-3", sent_on: addDays(today, -7) });
    for (const part of ["knowledge", "calculations", "practical"]) await step(resultsApi, "results", id, { part, result: "satisfactory", assessed_on: today });
    expect((await step(nsaApi, "nsa", id, { nsa_number: `NSA-AUD-${id.slice(0, 8)}`, nsa_date: today })).status).toBe(201);
    expect((await entries("hrw.nsa_recorded", id))[0]).toMatchObject({
      actor_id: trainer.id,
      client: CLIENT,
      detail: `NSA-AUD-${id.slice(0, 8)} dated ${today}`,
    });
  });

  it("an accreditation added, renewed (changed) and removed on the register page; a start after the expiry is refused", async () => {
    const assessor = await makeUser(db, { role: "trainer" });
    const post = (values: Record<string, string | string[]>) =>
      call(mod(registerPage), "POST", `/admin/staff/${assessor.id}/hrw`, { cookie: adminCookie, params: { id: assessor.id }, client: CLIENT, ...form(values) });
    const number = `NSW-AUD-${assessor.id.slice(0, 6)}`;
    const period = (starts_on: string, expires_on: string) => ({
      intent: "accreditation",
      regulator: "NSW",
      number,
      classes: ["DG", "RB"],
      starts_on,
      expires_on,
    });

    // said together with the form's other messages
    const backwards = await post({ ...period("2027-01-01", "2026-12-31"), classes: [] });
    expect(backwards.status).toBe(400);
    expect((await bodyOf<{ fieldErrors: Record<string, string> }>(backwards)).fieldErrors).toMatchObject({
      expires_on: "The expiry date cannot be before the start date",
      classes: "Choose the classes the accreditation covers",
    });
    expect(await db.selectFrom("hrw_accreditations").select("id").where("trainer_id", "=", assessor.id).execute()).toHaveLength(0);

    expect((await post(period("2023-11-09", "2026-11-08"))).status).toBe(302);
    expect((await entries("accreditation.added", assessor.id))[0]).toMatchObject({
      actor_id: admin.id,
      client: CLIENT,
      detail: `NSW ${number} from 2023-11-09 to 2026-11-08 for DG RB`,
    });
    expect((await post(period("2026-11-27", "2029-11-26"))).status).toBe(302);
    expect((await entries("accreditation.changed", assessor.id))[0]).toMatchObject({
      actor_id: admin.id,
      client: CLIENT,
      detail: `renewed: NSW ${number} from 2026-11-27 to 2029-11-26 for DG RB`,
    });
    // the lapsed period stays beside the renewal
    const periods = await db.selectFrom("hrw_accreditations").select(["id", "starts_on"]).where("trainer_id", "=", assessor.id).orderBy("starts_on").execute();
    expect(periods.map((p) => p.starts_on)).toEqual(["2023-11-09", "2026-11-27"]);

    expect((await post({ intent: "remove", accreditation_id: periods[1]!.id })).status).toBe(302);
    expect((await entries("accreditation.removed", assessor.id))[0]).toMatchObject({
      actor_id: admin.id,
      client: CLIENT,
      detail: `NSW ${number} from 2026-11-27 to 2029-11-26`,
    });
  });

  it("the assessor's own licence changed names its fields", async () => {
    const assessor = await makeUser(db, { role: "trainer" });
    const answer = await call(mod(registerPage), "POST", `/admin/staff/${assessor.id}/hrw`, {
      cookie: adminCookie,
      params: { id: assessor.id },
      client: CLIENT,
      ...form({ intent: "licence", licence_number: "HRW-AUD-55", licence_expires_on: "2029-01-31" }),
    });
    expect(answer.status).toBe(302);
    const [entry] = await entries("assessor_licence.changed", assessor.id);
    expect(entry).toMatchObject({ actor_id: admin.id, client: CLIENT, fields: "licence_expires_on,licence_number" });
    expect(JSON.stringify(entry)).not.toContain("HRW-AUD-55");
  });

  it("a state's rule changed, with its reason", async () => {
    const answer = await call(mod(rulesPage), "POST", "/admin/hrw/rules", {
      cookie: adminCookie,
      client: CLIENT,
      ...form({ state: "TAS", rule: "notice_business_days", value: "2", in_force_from: "2027-01-04", reason: "WorkSafe Tasmania asked for notice" }),
    });
    expect(answer.status).toBe(302);
    expect((await entries("hrw.state_rule_changed", "TAS:notice_business_days"))[0]).toMatchObject({
      actor_id: admin.id,
      client: CLIENT,
      fields: "value",
      detail: "TAS notice_business_days: not set to 2 from 4 Jan 2027. Reason: WorkSafe Tasmania asked for notice",
    });
  });
});

describe("reading the new entries", () => {
  it("GET /api/admin/audit filters by each new action (its OpenAPI enum and the page's filter come from the same list)", async () => {
    const recorded = await db.selectFrom("audit_log").select("action").distinct().execute();
    const actions = recorded.map((r) => r.action as AuditAction);
    expect(actions).toEqual(
      expect.arrayContaining([
        "students.exported",
        "class.cancelled",
        "waitlist.offer_expired",
        "hrw.result_recorded",
        "accreditation.changed",
        "sign_in.throttled",
      ]),
    );
    for (const action of actions) {
      const answer = await call(mod(auditApi), "GET", `/api/admin/audit?action=${action}`, { token: admin.token });
      expect(answer.status, action).toBe(200);
      const body = await bodyOf<{ entries: Array<{ action: string }> }>(answer);
      expect(body.entries.length, action).toBeGreaterThan(0);
      expect(body.entries.every((e) => e.action === action)).toBe(true);
    }
  });
});
