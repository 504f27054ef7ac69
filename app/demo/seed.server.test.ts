import { organisationToday } from "~/utils/organisation-calendar";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/support/test-db";
import type { DB } from "#db/connection";
import { seedDemoData } from "./seed.server";
import { REVIEW_LEARNER } from "./complaints.server";
import { verifyPassword } from "~/security/password.server";
import { listBookings, listWorkers } from "~/models/employers/employer-view.server";
import { standardsPanel } from "~/models/standards/standards-panel.server";
import { credentialMatrix } from "~/models/standards/trainer-credential.server";
import { listCourseValidations } from "~/models/standards/validation.server";
import { awaitingEnrollments, overdueCertificateEnrollments } from "~/models/certificates/certificate-due.server";
import { getFileStore } from "~/files/store.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb({ seed: true })));
afterAll(() => cleanup());

/** The demo organisation, checked against the seeded database. */
describe("demo data", () => {
  it("has the demo logins with password123", async () => {
    for (const [email, role] of [
      ["admin@example.com", "admin"],
      ["trainer@example.com", "trainer"],
      ["student@example.com", "student"],
      ["employer@example.com", "employer"],
    ]) {
      const u = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
      expect(u.role).toBe(role);
      expect(u.is_active).toBe(1);
      expect(u.approval_status).toBe("approved");
      expect(await verifyPassword("password123", u.password_hash)).toBe(true);
    }
    const student = await db.selectFrom("users").select("full_name").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    expect(student.full_name.trim().split(/\s+/).length).toBeGreaterThanOrEqual(2);
  });

  it("has 12+ active students joined over several months, an inactive one and one without a phone", async () => {
    const students = await db.selectFrom("users").selectAll().where("role", "=", "student").execute();
    expect(students.filter((s) => s.is_active === 1).length).toBeGreaterThanOrEqual(12);
    expect(students.some((s) => s.is_active === 0)).toBe(true);
    expect(students.some((s) => !s.phone)).toBe(true);
    const months = new Set(students.map((s) => s.created_at!.slice(0, 7)));
    expect(months.size).toBeGreaterThanOrEqual(4);
  });

  it("has a catalogue of real units: 2+ active per tier, an inactive course, 4+ outcomes, prerequisites on tiers 2 and 3", async () => {
    const courses = await db.selectFrom("courses").selectAll().execute();
    for (const tier of ["tier_1", "tier_2", "tier_3"]) {
      expect(courses.filter((c) => c.tier === tier && c.is_active === 1).length, tier).toBeGreaterThanOrEqual(2);
    }
    expect(courses.some((c) => c.is_active === 0)).toBe(true);
    expect(courses.some((c) => JSON.parse(c.learning_outcomes).length >= 4)).toBe(true);
    for (const c of courses.filter((c) => c.tier !== "tier_1")) expect(JSON.parse(c.prerequisites).length, c.name).toBeGreaterThan(0);
    expect(courses.map((c) => c.unit_code)).toEqual(expect.arrayContaining(["CPCCLDG3001", "CPCCLRG3001", "CPCCLRG3002", "CPCCLRG4001", "CPCCLTC4001"]));
  });

  it("gives the demo student every enrolment state, 3+ certificates, documents and passed and failed assessments", async () => {
    const { id } = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const enrollments = await db.selectFrom("enrollments").selectAll().where("student_id", "=", id).execute();
    expect(enrollments.length).toBeGreaterThanOrEqual(4);
    expect(new Set(enrollments.map((e) => e.status))).toEqual(new Set(["enrolled", "in_progress", "completed"]));
    expect((await db.selectFrom("certificates").select("id").where("student_id", "=", id).execute()).length).toBeGreaterThanOrEqual(3);
    expect((await db.selectFrom("files").select("id").where("student_id", "=", id).execute()).length).toBeGreaterThanOrEqual(1);
    const statuses = (await db.selectFrom("assessments").select("status").where("student_id", "=", id).execute()).map((a) => a.status);
    expect(statuses).toContain("passed");
    expect(statuses.some((s) => s === "failed" || s === "in_progress")).toBe(true);
  });

  it("gives other students enrolments too, with unique certificate numbers", async () => {
    const others = await db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select("users.email")
      .where("users.email", "!=", "student@example.com")
      .execute();
    expect(new Set(others.map((o) => o.email)).size).toBeGreaterThanOrEqual(8);
    const numbers = (await db.selectFrom("certificates").select("certificate_number").execute()).map((c) => c.certificate_number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it("issues its certificates as the portal does: verified USIs only, each audited and its learner's mail queued", async () => {
    const certificates = await db
      .selectFrom("certificates")
      .innerJoin("users", "users.id", "certificates.student_id")
      .innerJoin("enrollments", "enrollments.id", "certificates.enrollment_id")
      .select(["certificates.id", "users.usi_verified_at", "enrollments.status"])
      .execute();
    expect(certificates.length).toBeGreaterThanOrEqual(3);
    for (const c of certificates) {
      expect(c.usi_verified_at).not.toBeNull();
      expect(c.status).toBe("completed");
      expect(await db.selectFrom("audit_log").select("id").where("action", "=", "certificate.issued").where("subject_id", "=", c.id).execute()).toHaveLength(1);
      expect(await db.selectFrom("outbox_messages").select("id").where("key", "=", `certificate-issued:${c.id}`).execute()).toHaveLength(1);
    }
  });

  it("makes its HRW records, yards, classes, attendance and waitlist through the model functions: each row has the audit entry or event its function writes", async () => {
    const audits = await db.selectFrom("audit_log").select(["action", "subject_id", "at"]).execute();
    const audited = (action: string | string[], subjectId: string) => audits.filter((a) => [action].flat().includes(a.action) && a.subject_id === subjectId);
    const events = await db.selectFrom("events").select(["type", "entity_id", "subject_user_id"]).execute();
    const count = <T>(rows: T[], key: (r: T) => string) => rows.reduce((m, r) => m.set(key(r), (m.get(key(r)) ?? 0) + 1), new Map<string, number>());

    const bookings = await db.selectFrom("hrw_assessments").select(["id", "created_at", "nsa_number"]).execute();
    expect(bookings.length).toBeGreaterThan(10);
    const notices = count(await db.selectFrom("hrw_notices").select("assessment_id").execute(), (n) => n.assessment_id);
    const parts = count(await db.selectFrom("hrw_assessment_parts").select("assessment_id").execute(), (p) => p.assessment_id);
    for (const b of bookings) {
      expect(audited("hrw.assessment_booked", b.id).map((a) => a.at)).toEqual([b.created_at]);
      expect(audited("hrw.notice_recorded", b.id).length).toBe(notices.get(b.id) ?? 0);
      expect(audited("hrw.result_recorded", b.id).length).toBe(parts.get(b.id) ?? 0);
      expect(audited("hrw.nsa_recorded", b.id).length).toBe(b.nsa_number ? 1 : 0);
    }
    for (const [candidate, n] of count(await db.selectFrom("hrw_candidate_checks").select("candidate_id").execute(), (c) => c.candidate_id)) {
      expect(audited("hrw.check_recorded", candidate).length).toBe(n);
    }
    for (const [trainer, n] of count(await db.selectFrom("hrw_accreditations").select("trainer_id").execute(), (a) => a.trainer_id)) {
      expect(audited(["accreditation.added", "accreditation.changed"], trainer).length).toBe(n);
    }
    for (const a of await db.selectFrom("hrw_assessors").select("trainer_id").execute())
      expect(audited("assessor_licence.changed", a.trainer_id)).toHaveLength(1);
    for (const l of await db.selectFrom("delivery_locations").select("id").execute()) {
      expect(events.filter((e) => e.type === "location.created" && e.entity_id === l.id)).toHaveLength(1);
    }

    const classes = await db.selectFrom("classes").select(["id", "created_at"]).execute();
    expect(classes.length).toBeGreaterThan(5);
    for (const c of classes) expect(audited("class.created", c.id).map((a) => a.at)).toEqual([c.created_at]);
    const marks = count(await db.selectFrom("attendance").select("enrollment_id").execute(), (a) => a.enrollment_id);
    expect(marks.size).toBeGreaterThan(0);
    for (const [enrollment, n] of marks) expect(audited("attendance.marked", enrollment).length).toBe(n);
    const waiting = await db.selectFrom("class_waitlist").select(["class_id", "student_id"]).execute();
    expect(waiting.length).toBeGreaterThan(0);
    for (const w of waiting) {
      expect(events.filter((e) => e.type === "waitlist.joined" && e.entity_id === w.class_id && e.subject_user_id === w.student_id)).toHaveLength(1);
    }
  });

  it("makes its enrolments, results and the demo student's documents through the model functions: each has the event or audit entry its function writes", async () => {
    const events = await db.selectFrom("events").select(["type", "entity_id"]).execute();
    const eventsOf = (type: string, id: string) => events.filter((e) => e.type === type && e.entity_id === id).length;
    const enrollments = (
      await db.selectFrom("enrollments").select(["id", "status", "refund_policy_version", "class_id", "has_certificate", "enrollment_date"]).execute()
    ).map((e) => ({ ...e, day: organisationToday(new Date(e.enrollment_date)) }));
    expect(enrollments.length).toBeGreaterThan(20);
    const policies = new Map(
      (await db.selectFrom("refund_policies").select(["version", "effective_from"]).execute()).map((p) => [p.version, p.effective_from]),
    );
    // a unit granted by recognition is completed by the decision (decideRecognition), audited as such
    const recognised = new Map(
      (await db.selectFrom("recognition_applications").select(["id", "enrollment_id"]).where("status", "=", "granted").execute()).map((r) => [
        r.enrollment_id,
        r.id,
      ]),
    );
    const decisions = await db.selectFrom("audit_log").select("subject_id").where("action", "=", "recognition.decided").execute();
    for (const e of enrollments) {
      // createEnrollment: its event, and the refund policy the learner enrolled under (never one that took effect later)
      expect(eventsOf("enrollment.created", e.id), e.id).toBe(1);
      if (e.refund_policy_version) expect(policies.get(e.refund_policy_version)! <= e.day, e.id).toBe(true);
      const recognition = recognised.get(e.id);
      if (recognition)
        expect(
          decisions.filter((d) => d.subject_id === recognition),
          e.id,
        ).toHaveLength(1);
      // updateEnrollmentProgress: each completion once
      else expect(eventsOf("enrollment.completed", e.id), e.id).toBe(e.status === "completed" ? 1 : 0);
    }

    const audits = await db.selectFrom("audit_log").select(["action", "subject_id"]).execute();
    const audited = (action: string, id: string) => audits.filter((a) => a.action === action && a.subject_id === id).length;
    const assessments = await db.selectFrom("assessments").select(["id", "assessed_by"]).execute();
    expect(assessments.length).toBeGreaterThan(15);
    for (const a of assessments) {
      // recordAssessment: audited and an event about the learner, by a credentialed assessor
      expect(audited("assessment.result_recorded", a.id), a.id).toBeGreaterThanOrEqual(1);
      expect(eventsOf("assessment.recorded", a.id), a.id).toBeGreaterThanOrEqual(1);
      expect(a.assessed_by).not.toBeNull();
    }

    const { id: demoId } = await db.selectFrom("users").select("id").where("email", "=", "student@example.com").executeTakeFirstOrThrow();
    const files = await db.selectFrom("files").selectAll().execute();
    expect(files.map((f) => [f.student_id, f.filename, f.file_type]).sort()).toEqual([
      [demoId, "photo-id.jpg", "image/jpeg"],
      [demoId, "white-card.pdf", "application/pdf"],
    ]);
    for (const f of files) {
      expect(audited("learner_document.uploaded", f.id)).toBe(1);
      expect(await getFileStore().has(f.sha256!)).toBe(true);
    }
  });

  it("keeps an overdue certificate waiting on a learner's unverified USI, and every other completion certified", async () => {
    const overdue = await overdueCertificateEnrollments(db, new Date())
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select(["users.email", "users.usi_verified_at"])
      .execute();
    expect(overdue.length).toBeGreaterThan(0);
    for (const o of overdue) expect(o).toEqual({ email: "noah.singh@example.com", usi_verified_at: null });
    const waiting = await awaitingEnrollments(db).innerJoin("users", "users.id", "enrollments.student_id").select("users.usi_verified_at").execute();
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    for (const w of waiting) expect(w.usi_verified_at).toBeNull();
  });

  it("exercises every Standards state: a trainer missing a unit, validations due and overdue, a late improvement action", async () => {
    const matrix = await credentialMatrix(db);
    const states = matrix.trainers.filter((t) => !t.standing).flatMap((t) => Object.values(matrix.cells[t.id]!).map((c) => c.state));
    expect(new Set(states)).toEqual(new Set(["held", "expiring", "missing"]));
    expect(new Set((await listCourseValidations(db)).map((c) => c.state))).toEqual(new Set(["overdue", "due", "scheduled"]));
    const panel = await standardsPanel(db);
    expect(panel.map((r) => r.key)).toEqual(["credentials", "validations-overdue", "validations-due", "improvements-overdue", "complaints-overdue"]);
    // every row has something to act on (the complaints' demo holds one overdue)
    for (const row of panel) expect(row.count, row.key).toBeGreaterThan(0);
    const fromValidation = await db.selectFrom("improvement_actions").select("source_id").where("source_type", "=", "validation").execute();
    expect(fromValidation).toHaveLength(1);
    expect(
      await db
        .selectFrom("validation_plans")
        .select("id")
        .where("id", "=", fromValidation[0]!.source_id!)
        .where("completed_at", "is not", null)
        .executeTakeFirst(),
    ).toBeDefined();
  });

  it("has complaints in each state (one overdue), appeals open and decided, and a learner's review confirming an enrolment", async () => {
    const { listComplaints } = await import("~/models/complaints/complaint.server");
    const admin = await db.selectFrom("users").select("id").where("email", "=", "admin@example.com").executeTakeFirstOrThrow();
    const items = await listComplaints(db, {}, { id: admin.id, role: "admin" });
    const complaints = items.filter((c) => c.kind === "complaint");
    expect(new Set(complaints.map((c) => c.status))).toEqual(new Set(["received", "acknowledged", "resolved"]));
    expect(items[0]).toMatchObject({ kind: "complaint", overdue: "acknowledge", name: null });
    const appeals = items.filter((c) => c.kind === "appeal");
    // the third: a learner's appeal of an RPL not granted, acknowledged (app/demo/recognition.server.ts)
    expect(appeals.map((a) => a.status).sort()).toEqual(["acknowledged", "received", "resolved"]);
    expect(appeals.every((a) => a.assessor && a.assessor.id !== a.decider?.id && a.assessor.id !== a.resolved_by?.id)).toBe(true);
    const reviewed = await db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select(["enrollments.review_status", "enrollments.review_outcome", "enrollments.review_support"])
      .where("users.email", "=", REVIEW_LEARNER)
      .where("enrollments.review_outcome", "is not", null)
      .execute();
    expect(reviewed).toEqual([{ review_status: "confirmed", review_outcome: "support", review_support: '["numeracy"]' }]);
  });

  it("does nothing to a database that already has users", async () => {
    expect(await seedDemoData(db)).toEqual({ seeded: false });
  });

  it("has an employer whose booking holds 3 seats for 3 workers: one shares results, one does not, one has not answered", async () => {
    const user = await db.selectFrom("users").select(["id", "role"]).where("email", "=", "employer@example.com").executeTakeFirstOrThrow();
    const [booking] = await listBookings(db, user);
    expect(booking).toMatchObject({ seats: 3, workers: 3, accepted: 2 });
    const workers = await listWorkers(db, user);
    expect(workers.map((w) => w.consent).sort()).toEqual(["no", "unanswered", "yes"]);
    const invoices = await db.selectFrom("invoices").select(["buyer_name", "total_cents"]).where("buyer_kind", "=", "employer").execute();
    expect(invoices).toEqual([expect.objectContaining({ buyer_name: "Harbour Civil Pty Ltd" })]);
  });
});
