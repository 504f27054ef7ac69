import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb } from "../../tests/support/test-db";
import type { DB } from "#db/connection";
import { seedDemoData } from "./seed.server";
import { REVIEW_LEARNER } from "./complaints.server";
import { verifyPassword } from "~/auth/password.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb({ seed: true })));
afterAll(() => cleanup());

/** The demo organisation, checked against the seeded database. */
describe("demo data", () => {
  it("has the three demo logins with password123", async () => {
    for (const [email, role] of [
      ["admin@example.com", "admin"],
      ["trainer@example.com", "trainer"],
      ["student@example.com", "student"],
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

  it("gives the demo student every enrolment state, 3+ certificates, a file and passed and failed assessments", async () => {
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

  it("has complaints in each state (one overdue), appeals open and decided, and a learner's review confirming an enrolment", async () => {
    const { listComplaints } = await import("~/models/complaint.server");
    const admin = await db.selectFrom("users").select("id").where("email", "=", "admin@example.com").executeTakeFirstOrThrow();
    const items = await listComplaints(db, {}, { id: admin.id, role: "admin" });
    const complaints = items.filter((c) => c.kind === "complaint");
    expect(new Set(complaints.map((c) => c.status))).toEqual(new Set(["received", "acknowledged", "resolved"]));
    expect(items[0]).toMatchObject({ kind: "complaint", overdue: "acknowledge", name: null });
    const appeals = items.filter((c) => c.kind === "appeal");
    expect(appeals.map((a) => a.status).sort()).toEqual(["received", "resolved"]);
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
});
