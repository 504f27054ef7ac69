import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appealInput, complaintInput, resolveInput } from "~/schemas/complaint";
import { COMPLAINT_MESSAGES, DETAILS_MAX } from "~/schemas/complaint-text";
import { makeDecidedAssessment, makeUser } from "../../../tests/support/factories";
import { createTestDb, type TestDb } from "../../../tests/support/test-db";
import { acknowledgeComplaint, assignDecider, resolveComplaint } from "./complaint-steps.server";
import { addBusinessDays, clocksFor, overdueClock, saveComplaintSettings } from "./complaint-clocks.server";
import { COMPLAINT_LIST_LIMIT, complaintRegisterRows, getComplaint, listComplaints } from "./complaint.server";
import { lodgeAppeal, lodgeComplaint } from "./complaint-lodging.server";

const rto = { name: "Test RTO", code: "12345" };
let t: TestDb;
let assessor: { id: string };
let otherTrainer: { id: string };
let admin: { id: string };
let student: { id: string };
let stranger: { id: string };
let assessmentId: string;
let strangersAssessmentId: string;

const insertAssessment = (studentId: string, status: "passed" | "failed" | "in_progress" = "failed") =>
  makeDecidedAssessment(t.db, studentId, assessor.id, status);

beforeAll(async () => {
  t = await createTestDb();
  assessor = await makeUser(t.db, { role: "trainer" });
  otherTrainer = await makeUser(t.db, { role: "trainer" });
  admin = await makeUser(t.db, { role: "admin" });
  student = await makeUser(t.db, { role: "student" });
  stranger = await makeUser(t.db, { role: "student" });
  assessmentId = await insertAssessment(student.id);
  strangersAssessmentId = await insertAssessment(stranger.id);
});
afterAll(async () => t.cleanup());

const count = async (table: "complaints" | "outbox_messages") =>
  Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("the clocks", () => {
  it("count business days past weekends and New South Wales public holidays", () => {
    // Thursday 24 Dec 2026: Fri 25 (Christmas), Sat 26 (Boxing Day), Sun 27, Mon 28 (Boxing Day's substitute) are skipped
    expect(addBusinessDays("2026-12-24", 1)).toBe("2026-12-29");
    expect(addBusinessDays("2026-12-24", 2)).toBe("2026-12-30");
    // Thursday 31 Dec: Fri 1 Jan 2027 (New Year's Day) and the weekend skipped, so Mon 4 Jan, then Tue 5 Jan
    expect(addBusinessDays("2026-12-31", 1)).toBe("2027-01-04");
    expect(addBusinessDays("2026-12-31", 2)).toBe("2027-01-05");
    // an ordinary week: Friday 27 Nov 2026 + 2 business days is Tuesday 1 Dec
    expect(addBusinessDays("2026-11-27", 2)).toBe("2026-12-01");
  });

  it("start on the organisation's calendar day and resolve in calendar days", () => {
    // 23 Dec 2026 at 11 pm in Sydney is still 23 Dec there (12:00 UTC)
    const clocks = clocksFor(new Date("2026-12-23T12:00:00Z"), { acknowledge_business_days: 2, resolve_days: 30 });
    expect(clocks).toEqual({ acknowledge_by: "2026-12-29", resolve_by: "2027-01-22" });
    // 14:00 UTC on 23 Dec is already 24 Dec in Sydney
    expect(clocksFor(new Date("2026-12-23T14:00:00Z"), { acknowledge_business_days: 2, resolve_days: 30 }).acknowledge_by).toBe("2026-12-30");
  });

  it("show an item overdue once a clock has passed, and never once resolved", () => {
    const item = { status: "received" as const, acknowledge_by: "2026-12-29", resolve_by: "2027-01-22" };
    expect(overdueClock(item, "2026-12-29")).toBeNull();
    expect(overdueClock(item, "2026-12-30")).toBe("acknowledge");
    expect(overdueClock({ ...item, status: "acknowledged" }, "2026-12-30")).toBeNull();
    expect(overdueClock({ ...item, status: "acknowledged" }, "2027-01-23")).toBe("resolve");
    expect(overdueClock({ ...item, status: "resolved" }, "2027-06-01")).toBeNull();
  });
});

describe("a complaint", () => {
  it("from a visitor with an address gets a reference, clocks and an acknowledgement mail to that address", async () => {
    const before = await count("outbox_messages");
    const lodged = await lodgeComplaint(t.db, complaintInput.parse({ details: "The trainer arrived an hour late", email: "Visitor@Example.com" }), {
      rto,
      now: new Date("2026-12-23T01:00:00Z"),
    });
    expect(lodged.reference).toMatch(/^C-2026-\d{4}$/);
    expect(lodged.mailed).toBe(true);
    expect(await count("outbox_messages")).toBe(before + 1);
    const mail = await t.db.selectFrom("outbox_messages").selectAll().where("key", "=", `complaint-received:${lodged.id}`).executeTakeFirstOrThrow();
    expect(mail.recipient_id).toBeNull();
    expect(mail.recipient_email).toBe("visitor@example.com");
  });

  it("anonymous without contact is stored with no mail", async () => {
    const before = await count("outbox_messages");
    const lodged = await lodgeComplaint(t.db, complaintInput.parse({ details: "Anonymous concern", name: "", email: "", phone: "" }), { rto });
    expect(lodged.mailed).toBe(false);
    expect(await count("outbox_messages")).toBe(before);
    const row = await getComplaint(t.db, lodged.id, { id: admin.id, role: "admin" });
    expect(row).toMatchObject({ name: null, email: null, lodged_by: null, status: "received" });
  });

  it("takes different references when lodged at once", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => lodgeComplaint(t.db, complaintInput.parse({ details: `concurrent ${i}` }), { rto })));
    expect(new Set(results.map((r) => r.reference)).size).toBe(8);
  });

  it("refuses empty and 100 kB text with a clear message, storing nothing", async () => {
    const before = await count("complaints");
    const empty = complaintInput.safeParse({ details: "   " });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe(COMPLAINT_MESSAGES.detailsEmpty);
    const huge = complaintInput.safeParse({ details: "x".repeat(100 * 1024) });
    expect(huge.success).toBe(false);
    expect(huge.error?.issues[0]?.message).toBe(COMPLAINT_MESSAGES.detailsTooLong);
    expect(DETAILS_MAX).toBeLessThan(100 * 1024);
    expect(await count("complaints")).toBe(before);
  });

  it("flows received -> acknowledged -> resolved with who and when, and is overdue when late", async () => {
    const lodgedAt = new Date("2026-12-23T01:00:00Z");
    const lodged = await lodgeComplaint(t.db, complaintInput.parse({ details: "Late certificate" }), { by: student.id, rto, now: lodgedAt });
    const reader = { id: admin.id, role: "admin" as const };
    const late = new Date("2026-12-31T01:00:00Z");
    expect((await getComplaint(t.db, lodged.id, reader, late)).overdue).toBe("acknowledge");
    const overdueFirst = await listComplaints(t.db, { overdue: "yes" }, reader, late);
    expect(overdueFirst.map((c) => c.id)).toContain(lodged.id);
    await acknowledgeComplaint(t.db, lodged.id, admin.id, reader, late);
    await expect(acknowledgeComplaint(t.db, lodged.id, admin.id, reader, late)).rejects.toMatchObject({ status: 409 });
    await resolveComplaint(t.db, lodged.id, resolveInput.parse({ outcome: "upheld", reasons: "Certificate sent" }), admin.id, reader, late);
    const row = await getComplaint(t.db, lodged.id, reader, late);
    expect(row).toMatchObject({ status: "resolved", outcome: "upheld", acknowledged_by: { id: admin.id }, resolved_by: { id: admin.id }, overdue: null });
    const audit = await t.db.selectFrom("audit_log").select("action").where("subject_id", "=", lodged.id).execute();
    expect(audit.map((a) => a.action).sort()).toEqual(["complaint.acknowledged", "complaint.lodged", "complaint.resolved"]);
    // the account's outcome mail is queued
    expect(await t.db.selectFrom("outbox_messages").select("recipient_id").where("key", "=", `complaint-resolved:${lodged.id}`).executeTakeFirst()).toEqual({
      recipient_id: student.id,
    });
  });

  it("uses the clocks admins set", async () => {
    await saveComplaintSettings(t.db, { acknowledge_business_days: 5, resolve_days: 10, policy: "Our policy" }, admin.id, rto);
    const lodged = await lodgeComplaint(t.db, complaintInput.parse({ details: "x" }), { rto, now: new Date("2026-11-27T01:00:00Z") });
    expect(lodged).toMatchObject({ acknowledge_by: "2026-12-04", resolve_by: "2026-12-07" });
    await saveComplaintSettings(t.db, { acknowledge_business_days: 2, resolve_days: 30, policy: "Our policy" }, admin.id, rto);
  });
});

describe("an appeal", () => {
  it("of someone else's assessment is not found, and nothing is stored", async () => {
    const before = await count("complaints");
    await expect(
      lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: strangersAssessmentId, details: "Mine?" }), { by: student.id, rto }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: crypto.randomUUID(), details: "Unknown" }), { by: student.id, rto }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await count("complaints")).toBe(before);
  });

  it("of work with no result yet is refused", async () => {
    const open = await insertAssessment(student.id, "in_progress");
    await expect(
      lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: open, details: "Early" }), { by: student.id, rto }),
    ).rejects.toMatchObject({ status: 409, message: COMPLAINT_MESSAGES.noResultYet });
  });

  it("cannot be decided by the assessor, even an admin assigning them; another trainer upholds it and the result changes", async () => {
    const lodged = await lodgeAppeal(
      t.db,
      appealInput.parse({ assessment_kind: "unit", assessment_id: assessmentId, details: "I lifted the load correctly" }),
      { by: student.id, rto },
    );
    expect(lodged.reference).toMatch(/^A-\d{4}-\d{4}$/);
    await expect(
      lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: assessmentId, details: "again" }), { by: student.id, rto }),
    ).rejects.toMatchObject({ status: 409 });

    const decision = resolveInput.parse({ outcome: "upheld", reasons: "The video shows the lift was within limits", new_status: "passed" });
    // the assessor: refused even as the one reading it, and cannot be assigned
    await expect(assignDecider(t.db, lodged.id, assessor.id, admin.id)).rejects.toMatchObject({ status: 409, message: COMPLAINT_MESSAGES.deciderIsAssessor });
    await expect(resolveComplaint(t.db, lodged.id, decision, assessor.id, { id: assessor.id, role: "trainer" })).rejects.toMatchObject({ status: 404 });
    // a trainer not assigned does not see it
    await expect(getComplaint(t.db, lodged.id, { id: otherTrainer.id, role: "trainer" })).rejects.toMatchObject({ status: 404 });
    await assignDecider(t.db, lodged.id, otherTrainer.id, admin.id);
    const asDecider = await getComplaint(t.db, lodged.id, { id: otherTrainer.id, role: "trainer" });
    expect(asDecider.assessor?.id).toBe(assessor.id);
    expect(asDecider.email).toBeNull(); // contact details are not what deciding needs

    await resolveComplaint(t.db, lodged.id, decision, otherTrainer.id, { id: otherTrainer.id, role: "trainer" });
    const assessment = await t.db.selectFrom("assessments").select("status").where("id", "=", assessmentId).executeTakeFirstOrThrow();
    expect(assessment.status).toBe("passed");
    const audit = await t.db
      .selectFrom("audit_log")
      .select(["action", "actor_id"])
      .where("subject_id", "=", assessmentId)
      .where("action", "=", "assessment.result_changed_on_appeal")
      .execute();
    expect(audit).toEqual([{ action: "assessment.result_changed_on_appeal", actor_id: otherTrainer.id }]);
    const mail = await t.db
      .selectFrom("outbox_messages")
      .select(["recipient_id", "data"])
      .where("key", "=", `complaint-resolved:${lodged.id}`)
      .executeTakeFirstOrThrow();
    expect(mail.recipient_id).toBe(student.id);
    expect(JSON.parse(mail.data)).toMatchObject({ outcome: "upheld", changedResult: "passed" });
  });

  it("an admin who is the assessor is refused with 409", async () => {
    const adminAssessed = await insertAssessment(student.id);
    await t.db.updateTable("assessments").set({ assessed_by: admin.id }).where("id", "=", adminAssessed).execute();
    const lodged = await lodgeAppeal(t.db, appealInput.parse({ assessment_kind: "unit", assessment_id: adminAssessed, details: "Please review" }), {
      by: student.id,
      rto,
    });
    await expect(
      resolveComplaint(t.db, lodged.id, resolveInput.parse({ outcome: "dismissed", reasons: "Fine" }), admin.id, { id: admin.id, role: "admin" }),
    ).rejects.toMatchObject({
      status: 409,
      message: COMPLAINT_MESSAGES.deciderIsAssessor,
    });
    expect((await getComplaint(t.db, lodged.id, { id: admin.id, role: "admin" })).status).toBe("received");
  });

  it("is read by its learner but not by another learner", async () => {
    const mine = await listComplaints(t.db, {}, { id: student.id, role: "student" });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.lodged_by === student.id)).toBe(true);
    expect(await listComplaints(t.db, {}, { id: stranger.id, role: "student" })).toEqual([]);
  });
});

describe("the register's download", () => {
  it("holds every item past the page's limit, in the page's order (overdue first, then the newest), read a batch at a time", async () => {
    // ties of received_at straddle the batches' edges; every seventh is long overdue
    const base = Date.parse("2026-03-02T00:00:00.000Z");
    const rows = Array.from({ length: COMPLAINT_LIST_LIMIT + 150 }, (_, i) => {
      const received = new Date(base + Math.floor(i / 5) * 3_600_000).toISOString();
      const late = i % 7 === 0;
      return {
        id: crypto.randomUUID(),
        kind: "complaint" as const,
        reference: `C-2026-B${String(i).padStart(5, "0")}`,
        status: "received" as const,
        name: `Bulk ${i}`,
        details: `Bulk complaint ${i}`,
        received_at: received,
        acknowledge_by: late ? "2026-03-01" : "2099-01-01",
        resolve_by: late ? "2026-03-01" : "2099-01-01",
      };
    });
    for (let i = 0; i < rows.length; i += 250)
      await t.db
        .insertInto("complaints")
        .values(rows.slice(i, i + 250))
        .execute();
    const reader = { id: admin.id, role: "admin" as const };
    const page = await listComplaints(t.db, {}, reader);
    const all: string[] = [];
    for await (const item of complaintRegisterRows(t.db, {}, reader)) all.push(item.id);
    expect(page).toHaveLength(COMPLAINT_LIST_LIMIT);
    expect(all.length).toBe(await count("complaints"));
    expect(new Set(all).size).toBe(all.length);
    expect(all.slice(0, COMPLAINT_LIST_LIMIT)).toEqual(page.map((c) => c.id));
    const overdueOnly: string[] = [];
    for await (const item of complaintRegisterRows(t.db, { overdue: "yes" }, reader)) overdueOnly.push(item.id);
    expect(overdueOnly).toEqual((await listComplaints(t.db, { overdue: "yes" }, reader)).map((c) => c.id));
    expect(overdueOnly.length).toBeGreaterThan(300);
  }, 60_000);
});
