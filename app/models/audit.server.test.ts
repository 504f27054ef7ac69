import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUsi, makeUser, TEST_TOTP_SECRET } from "../../tests/support/factories";
import { bodyOf, call, caller, sessionCookie, type RouteModule } from "../../tests/support/api-calls";
import * as loginRoute from "~/routes/api+/auth.login";
import * as logoutRoute from "~/routes/api+/auth.logout";
import * as staffRoute from "~/routes/api+/admin.staff.$id";
import * as studentRoute from "~/routes/api+/admin.students.$id";
import * as courseRoute from "~/routes/api+/admin.courses.$id";
import * as avetmissRoute from "~/routes/api+/admin.avetmiss";
import * as revokeRoute from "~/routes/api+/admin.certificates.$id.revoke";
import * as reissueRoute from "~/routes/api+/admin.certificates.$id.reissue";
import * as auditRoute from "~/routes/api+/admin.audit";
import * as auditCsvRoute from "~/routes/admin+/audit[.]csv";
import * as auditPage from "~/routes/admin+/audit";
import * as usiPage from "~/routes/trainer+/usi.$studentId";
import * as profilePage from "~/routes/admin+/students.$id";
import { beginTwoStep, confirmTwoStep, currentCode, resetTwoStep, twoStepSetUp } from "~/auth/two-step.server";
import { changePassword } from "./user.server";
import { requestPasswordReset, resetPassword } from "./password-reset.server";
import { recordUsiVerification } from "./usi.server";
import { issueCertificate } from "./certificates/certificate-issue.server";
import { approveAccount } from "./approval.server";
import { registerUser } from "./user.server";
import { listAudit, recordAudit } from "./audit.server";
import type { AuditAction } from "~/rules/audit-actions";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const mod = (m: unknown) => m as RouteModule;
const CLIENT = "203.0.113.7";

/** The entries of one action about one subject id (or person), oldest first. */
async function entries(action: AuditAction, subjectId: string) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .where((eb) => eb.or([eb("subject_id", "=", subjectId), eb("subject_user_id", "=", subjectId)]))
    .orderBy("id")
    .execute();
}

describe("the table refuses to be rewritten", () => {
  it(`UPDATE, DELETE${TEST_DIALECT === "postgres" ? " and TRUNCATE" : ""} on audit_log fail (${TEST_DIALECT})`, async () => {
    await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null, client: CLIENT }, detail: "kept" }));
    await expect(sql`update audit_log set detail = 'changed'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_log`.execute(db)).rejects.toThrow(/append-only/);
    if (TEST_DIALECT === "postgres") await expect(sql`truncate audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const kept = await db.selectFrom("audit_log").select("detail").where("detail", "=", "kept").execute();
    expect(kept).toHaveLength(1);
  });
});

describe("every event the audit trail lists (audit-actions.ts) is written by the action that causes it", () => {
  it("sign-in success, with the client address", async () => {
    const user = await makeUser(db);
    expect((await call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: user.email, password: "password123" }, client: CLIENT })).status).toBe(200);
    const [entry] = await entries("sign_in.succeeded", user.id);
    expect(entry).toMatchObject({ actor_id: user.id, actor_email: user.email, client: CLIENT, subject_type: "user" });
  });

  it("sign-in failure, with the client address and never the password typed", async () => {
    const user = await makeUser(db);
    await call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: user.email, password: "Wrong-Secret-99" }, client: CLIENT });
    const [entry] = await entries("sign_in.failed", user.id);
    expect(entry).toMatchObject({ actor_id: null, client: CLIENT, detail: "wrong password" });
    expect(JSON.stringify(await db.selectFrom("audit_log").selectAll().execute())).not.toContain("Wrong-Secret-99");
  });

  it("a wrong second-step code is a failed sign-in; the code is not kept", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: true });
    await call(mod(loginRoute), "POST", "/api/auth/login", { json: { email: user.email, password: "password123", code: "987654" }, client: CLIENT });
    const [entry] = await entries("sign_in.failed", user.id);
    expect(entry).toMatchObject({ detail: "wrong second-step code", client: CLIENT });
    expect(JSON.stringify(entry)).not.toContain("987654");
    await call(mod(loginRoute), "POST", "/api/auth/login", {
      json: { email: user.email, password: "password123", code: currentCode(TEST_TOTP_SECRET) },
      client: CLIENT,
    });
    expect((await entries("sign_in.succeeded", user.id))[0]).toMatchObject({ detail: "password and authenticator" });
  });

  it("sign-out", async () => {
    const user = await caller(db, "student");
    expect((await call(mod(logoutRoute), "POST", "/api/auth/logout", { token: user.token, client: CLIENT })).status).toBe(204);
    expect((await entries("sign_out", user.id))[0]).toMatchObject({ actor_id: user.id, client: CLIENT });
  });

  it("second-step set-up", async () => {
    const user = await makeUser(db, { role: "trainer" });
    await beginTwoStep(db, user.id);
    const { pending } = await twoStepSetUp(db, user);
    const code = currentCode(pending!.secret);
    await confirmTwoStep(db, { userId: user.id, code, actor: { id: user.id, client: CLIENT } });
    const [entry] = await entries("two_step.set_up", user.id);
    expect(entry).toMatchObject({ actor_id: user.id, client: CLIENT });
    expect(JSON.stringify(entry)).not.toContain(pending!.secret);
  });

  it("second-step reset by an administrator", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const trainer = await makeUser(db, { role: "trainer", two_step: true });
    await resetTwoStep(db, { userId: trainer.id, actor: { id: admin.id, role: "admin", client: CLIENT } });
    expect((await entries("two_step.reset", trainer.id))[0]).toMatchObject({ actor_id: admin.id, subject_user_id: trainer.id });
  });

  it("password change", async () => {
    const user = await makeUser(db, { password: "Original-pass-1" });
    await changePassword(db, { userId: user.id, next: "Kestrel-hoist-77", client: CLIENT });
    const [entry] = await entries("password.changed", user.id);
    expect(entry).toMatchObject({ actor_id: user.id, client: CLIENT });
    expect(JSON.stringify(entry)).not.toMatch(/Original-pass-1|Kestrel-hoist-77/);
  });

  it("password reset by emailed link (never the token)", async () => {
    const user = await makeUser(db);
    const outcome = await requestPasswordReset(db, { email: user.email, client: "10.7.0.1" });
    if (outcome.kind !== "issued") throw new Error(outcome.kind);
    await resetPassword(db, { token: outcome.token, password: "Kestrel-hoist-77", client: CLIENT });
    const [entry] = await entries("password.reset", user.id);
    expect(entry).toMatchObject({ actor_id: user.id, client: CLIENT });
    expect(JSON.stringify(await db.selectFrom("audit_log").selectAll().execute())).not.toContain(outcome.token);
  });

  it("USI viewed by a trainer on the verification page", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const student = await makeUser(db, { usi_verified: false });
    const page = await call(mod(usiPage), "GET", `/trainer/usi/${student.id}`, {
      cookie: await sessionCookie(db, trainer.id),
      params: { studentId: student.id },
      client: CLIENT,
    });
    expect(page.status).toBe(200);
    const [entry] = await entries("usi.viewed", student.id);
    expect(entry).toMatchObject({ actor_id: trainer.id, client: CLIENT, subject_user_id: student.id });
  });

  it("USI viewed by an administrator in a student's record (page and /api); a trainer's answer carries no USI and records nothing", async () => {
    const admin = await caller(db, "admin");
    const trainer = await caller(db, "trainer");
    const student = await makeUser(db);
    const page = await call(mod(profilePage), "GET", `/admin/students/${student.id}`, {
      cookie: await sessionCookie(db, admin.id),
      params: { id: student.id },
      client: CLIENT,
    });
    expect(page.status).toBe(200);
    expect(await entries("usi.viewed", student.id)).toHaveLength(1);
    await call(mod(studentRoute), "GET", `/api/admin/students/${student.id}`, { token: trainer.token, params: { id: student.id } });
    expect(await entries("usi.viewed", student.id)).toHaveLength(1);
    await call(mod(studentRoute), "GET", `/api/admin/students/${student.id}`, { token: admin.token, params: { id: student.id } });
    expect(await entries("usi.viewed", student.id)).toHaveLength(2);
  });

  it("USI changed, and a student record edited: field names only, never the values", async () => {
    const admin = await caller(db, "admin");
    const student = await makeUser(db);
    const usi = makeUsi();
    const put = await call(mod(studentRoute), "PUT", `/api/admin/students/${student.id}`, {
      token: admin.token,
      params: { id: student.id },
      json: { usi, date_of_birth: "1990-04-05", phone: "0400 000 000", full_name: "Test User" },
      client: CLIENT,
    });
    expect(put.status).toBe(200);
    const [edited] = await entries("student.edited", student.id);
    // the phone and name were sent unchanged: only what changed is named
    expect(edited).toMatchObject({ actor_id: admin.id, client: CLIENT, fields: "date_of_birth,usi" });
    expect(JSON.stringify(edited)).not.toMatch(new RegExp(`${usi}|1990-04-05`));
    expect((await entries("usi.changed", student.id))[0]).toMatchObject({ actor_id: admin.id });
    expect(JSON.stringify(await entries("usi.changed", student.id))).not.toContain(usi);
  });

  it("USI verified", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const student = await makeUser(db, { usi_verified: false });
    await recordUsiVerification(db, { studentId: student.id, actor: { id: trainer.id, role: "trainer", client: CLIENT } });
    expect((await entries("usi.verified", student.id))[0]).toMatchObject({ actor_id: trainer.id, client: CLIENT });
  });

  it("certificate issued, revoked and reissued", async () => {
    const admin = await caller(db, "admin");
    const student = await makeUser(db);
    const course = await makeCourse(db);
    const enrollment = await makeEnrollment(db, student.id, course.id, { status: "completed", progress: 100, completion_date: new Date().toISOString() });
    const { certificate } = await issueCertificate(db, { enrollmentId: enrollment.id, actorId: admin.id, client: CLIENT });
    expect((await entries("certificate.issued", certificate.id))[0]).toMatchObject({
      actor_id: admin.id,
      subject_type: "certificate",
      subject_user_id: student.id,
      detail: certificate.certificate_number,
    });
    const reissued = await call(mod(reissueRoute), "POST", `/api/admin/certificates/${certificate.id}/reissue`, {
      token: admin.token,
      params: { id: certificate.id },
      client: CLIENT,
    });
    expect(reissued.status).toBe(201);
    const replacement = await bodyOf<{ id: string; certificate_number: string }>(reissued);
    expect((await entries("certificate.reissued", replacement.id))[0]).toMatchObject({
      client: CLIENT,
      detail: `${replacement.certificate_number} replaces ${certificate.certificate_number}`,
    });
    const revoked = await call(mod(revokeRoute), "POST", `/api/admin/certificates/${replacement.id}/revoke`, {
      token: admin.token,
      params: { id: replacement.id },
      json: { reason: "Issued in error" },
      client: CLIENT,
    });
    expect(revoked.status).toBe(200);
    expect((await entries("certificate.revoked", replacement.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT });
  });

  it("AVETMISS export (a year with nothing to report exports nothing and records nothing)", async () => {
    const admin = await caller(db, "admin");
    const empty = await call(mod(avetmissRoute), "GET", "/api/admin/avetmiss?year=1999", { token: admin.token, client: CLIENT });
    expect(empty.status).toBe(404);
    expect(await entries("avetmiss.exported", "1999")).toHaveLength(0);
    const year = String(new Date().getFullYear());
    const student = await makeUser(db);
    await makeEnrollment(db, student.id, (await makeCourse(db)).id, { status: "in_progress", progress: 10 });
    const zip = await call(mod(avetmissRoute), "GET", `/api/admin/avetmiss?year=${year}`, { token: admin.token, client: CLIENT });
    expect(zip.status).toBe(200);
    expect((await entries("avetmiss.exported", year))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, subject_type: "avetmiss" });
  });

  it("staff approved", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const { user } = await registerUser(db, {
      full_name: "New Trainer",
      email: "new.trainer@test.example",
      password: "Kestrel-hoist-77",
      role: "trainer",
      phone: null,
      address: null,
      date_of_birth: null,
      emergency_contact: null,
    });
    await approveAccount(db, user.id, { id: admin.id, client: CLIENT });
    expect((await entries("staff.approved", user.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, detail: "trainer" });
  });

  it("staff deactivated and reactivated", async () => {
    const admin = await caller(db, "admin");
    const trainer = await makeUser(db, { role: "trainer" });
    const put = (is_active: boolean) =>
      call(mod(staffRoute), "PUT", `/api/admin/staff/${trainer.id}`, { token: admin.token, params: { id: trainer.id }, json: { is_active }, client: CLIENT });
    expect((await put(false)).status).toBe(200);
    expect((await put(true)).status).toBe(200);
    expect((await entries("staff.deactivated", trainer.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT, fields: "is_active" });
    expect((await entries("staff.reactivated", trainer.id))[0]).toMatchObject({ actor_id: admin.id, client: CLIENT });
  });

  it("course edited, naming the fields", async () => {
    const admin = await caller(db, "admin");
    const course = await makeCourse(db);
    const put = await call(mod(courseRoute), "PUT", `/api/admin/courses/${course.id}`, {
      token: admin.token,
      params: { id: course.id },
      json: { price: 999.5, is_active: false },
      client: CLIENT,
    });
    expect(put.status).toBe(200);
    expect((await entries("course.edited", course.id))[0]).toMatchObject({
      actor_id: admin.id,
      client: CLIENT,
      subject_type: "course",
      fields: "is_active,price",
    });
  });
});

describe("reading the trail", () => {
  it("filters by person, action, subject and dates, and pages", async () => {
    const fresh = await createTestDb();
    try {
      const a = await makeUser(fresh.db, { email: "reader-a@test.example" });
      const b = await makeUser(fresh.db, { email: "reader-b@test.example" });
      for (let i = 0; i < 7; i++) {
        await writeTransaction(fresh.db, (trx) =>
          recordAudit(trx, { action: "sign_out", actor: { id: a.id }, subject: { type: "user", id: a.id }, now: `2026-03-0${i + 1}T10:00:00.000Z` }),
        );
      }
      await writeTransaction(fresh.db, (trx) =>
        recordAudit(trx, { action: "course.edited", actor: { id: b.id }, subject: { type: "course", id: "course-1" }, now: "2026-03-03T12:00:00.000Z" }),
      );
      expect((await listAudit(fresh.db, { person: a.id })).total).toBe(7);
      expect((await listAudit(fresh.db, { person: "READER-B@test.example" })).total).toBe(1);
      expect((await listAudit(fresh.db, { action: "course.edited" })).entries.map((e) => e.actor_email)).toEqual(["reader-b@test.example"]);
      expect((await listAudit(fresh.db, { subject: "course-1" })).total).toBe(1);
      expect((await listAudit(fresh.db, { from: "2026-03-03", to: "2026-03-04" })).total).toBe(3);
      const first = await listAudit(fresh.db, { person: a.id }, 3);
      expect(first).toMatchObject({ total: 7, page: 1, pages: 3 });
      expect(first.entries.map((e) => e.at.slice(0, 10))).toEqual(["2026-03-07", "2026-03-06", "2026-03-05"]);
      const last = await listAudit(fresh.db, { person: a.id, page: 3 }, 3);
      expect(last.entries.map((e) => e.at.slice(0, 10))).toEqual(["2026-03-01"]);
    } finally {
      await fresh.cleanup();
    }
  });

  it("GET /api/admin/audit takes the same filters (administrators only); bad filters are a 422", async () => {
    const admin = await caller(db, "admin");
    const trainer = await caller(db, "trainer");
    const course = await makeCourse(db);
    await call(mod(courseRoute), "PUT", `/api/admin/courses/${course.id}`, { token: admin.token, params: { id: course.id }, json: { duration_hours: 12 } });
    const response = await call(mod(auditRoute), "GET", `/api/admin/audit?action=course.edited&subject=${course.id}`, { token: admin.token });
    expect(response.status).toBe(200);
    const body = await bodyOf<{ entries: Array<Record<string, unknown>>; total: number }>(response);
    expect(body.total).toBe(1);
    expect(body.entries[0]).toMatchObject({ action: "course.edited", actor_id: admin.id, fields: ["duration_hours"], subject_id: course.id });
    expect((await call(mod(auditRoute), "GET", "/api/admin/audit", { token: trainer.token })).status).toBe(403);
    expect((await call(mod(auditRoute), "GET", "/api/admin/audit?from=2026-02-30", { token: admin.token })).status).toBe(422);
    expect((await call(mod(auditRoute), "GET", "/api/admin/audit?action=drop_table", { token: admin.token })).status).toBe(422);
    expect((await call(mod(auditRoute), "GET", "/api/admin/audit?from=2026-05-02&to=2026-05-01", { token: admin.token })).status).toBe(422);
  });

  it("the page and its CSV download answer the same filters", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const cookie = await sessionCookie(db, admin.id);
    const course = await makeCourse(db, { name: 'CSV, "quoted" course' });
    await call(mod(courseRoute), "PUT", `/api/admin/courses/${course.id}`, {
      token: (await caller(db, "admin")).token,
      params: { id: course.id },
      json: { name: "=HYPERLINK()" },
    });
    const page = await call(mod(auditPage), "GET", `/admin/audit?subject=${course.id}`, { cookie });
    expect(page.status).toBe(200);
    expect(await bodyOf(page)).toMatchObject({ total: 1, entries: [{ action: "course.edited", fields: ["name"] }] });
    const bad = await call(mod(auditPage), "GET", "/admin/audit?to=yesterday", { cookie });
    expect(bad.status).toBe(400);
    expect(await bodyOf(bad)).toMatchObject({ fieldErrors: { to: "to must be a date as YYYY-MM-DD" } });
    const csv = await call(mod(auditCsvRoute), "GET", `/admin/audit.csv?subject=${course.id}`, { cookie });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("Content-Disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("at,action,actor_email,actor_id,client,subject_type,subject_id,subject_user_email,fields,detail");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`course.edited`);
    expect(lines[1]).toContain(`,course,${course.id},,name,`);
    expect((await call(mod(auditCsvRoute), "GET", "/admin/audit.csv?from=nope", { cookie })).status).toBe(400);
  });
});
