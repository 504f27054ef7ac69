import { spawn } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { createTestDb } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { CREDIT_EXCEEDS_PAID, OVERPAYMENT, REFUND_POLICY_DAY_TAKEN, REFUND_POLICY_NOT_BACKDATED } from "~/schemas/invoice-text";
import { issueCreditNote, issueInvoice, recordPayment } from "./invoice.server";
import { addRefundPolicy, listRefundPolicies } from "./refund-policy.server";
import { createEnrollment } from "../enrollment.server";
import { invoiceStatus, lineGst } from "~/rules/invoice-rules";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
const NOW = new Date("2026-11-20T00:00:00Z");

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
});
afterAll(() => cleanup());

async function taxableCourse() {
  const course = await makeCourse(db);
  await db.updateTable("courses").set({ gst_treatment: "taxable" }).where("id", "=", course.id).execute();
  return course;
}

async function invoiceFor(learnerId: string, lines: { course_id: string; unit_price_cents: number; quantity?: number }[], now = NOW) {
  return writeTransaction(db, (trx) =>
    issueInvoice(trx, {
      buyer: { kind: "learner", id: learnerId, name: "Pat Rigger", email: "pat@example.test" },
      lines: lines.map((l) => ({
        course_id: l.course_id,
        description: `Course ${l.course_id.slice(0, 4)}`,
        quantity: l.quantity ?? 1,
        unit_price_cents: l.unit_price_cents,
      })),
      source: { kind: "booking", id: crypto.randomUUID() },
      issued_by: null,
      now,
    }),
  );
}

const invoiceRow = (id: string) => db.selectFrom("invoices").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("GST", () => {
  it("is one eleventh of a taxable line, rounded to the cent on the line; nothing on a GST-free line", () => {
    expect(lineGst(110_00, "taxable")).toBe(10_00);
    expect(lineGst(999, "taxable")).toBe(91); // 90.8 cents
    expect(lineGst(1_005, "taxable")).toBe(91); // 91.36
    expect(lineGst(1_006, "taxable")).toBe(91); // 91.45
    expect(lineGst(1_007, "taxable")).toBe(92); // 91.55
    expect(lineGst(1_200_00, "gst_free")).toBe(0);
  });

  it("totals mixed GST-free and taxable lines from the lines", async () => {
    const learner = await makeUser(db);
    const free = await makeCourse(db);
    const taxable = await taxableCourse();
    const other = await taxableCourse();
    const { id, number } = await invoiceFor(learner.id, [
      { course_id: free.id, unit_price_cents: 1_250_00 },
      { course_id: taxable.id, unit_price_cents: 333_33, quantity: 3 },
      { course_id: other.id, unit_price_cents: 10_07 },
    ]);
    expect(number).toMatch(/^INV-\d{6}$/);
    const lines = await db
      .selectFrom("invoice_lines")
      .select(["position", "gst_treatment", "amount_cents", "gst_cents"])
      .where("invoice_id", "=", id)
      .orderBy("position")
      .execute();
    expect(lines).toEqual([
      { position: 1, gst_treatment: "gst_free", amount_cents: 1_250_00, gst_cents: 0 },
      { position: 2, gst_treatment: "taxable", amount_cents: 999_99, gst_cents: 90_91 }, // 9090.8 cents
      { position: 3, gst_treatment: "taxable", amount_cents: 10_07, gst_cents: 92 },
    ]);
    expect(await invoiceRow(id)).toMatchObject({ total_cents: 2_260_06, gst_cents: 91_83, subtotal_cents: 2_168_23 });
  });
});

describe("self-enrolment", () => {
  it("invoices the learner in the enrolment's transaction and the mock card payment marks it paid", async () => {
    const learner = await makeUser(db, { full_name: "Sam Slinger" });
    const course = await makeCourse(db, { price: 1_450 });
    const enrollment = await createEnrollment(db, { studentId: learner.id, courseId: course.id, actorId: learner.id, now: NOW });
    const invoice = await db
      .selectFrom("invoices")
      .selectAll()
      .where("source_kind", "=", "enrollment")
      .where("source_id", "=", enrollment.id)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      buyer_kind: "learner",
      buyer_id: learner.id,
      buyer_name: "Sam Slinger",
      total_cents: 1_450_00,
      gst_cents: 0,
      paid_cents: 1_450_00,
      issue_date: "2026-11-20",
    });
    expect(invoiceStatus(invoice, "2026-11-20")).toBe("paid");
    expect(await db.selectFrom("payments").select(["method", "amount_cents"]).where("invoice_id", "=", invoice.id).execute()).toEqual([
      { method: "card", amount_cents: 1_450_00 },
    ]);
    // enrolled on 20 November, before the first version kept (22 November) took effect: none cited
    expect(
      (await db.selectFrom("enrollments").select("refund_policy_version").where("id", "=", enrollment.id).executeTakeFirstOrThrow()).refund_policy_version,
    ).toBeNull();
    await issueCreditNote(db, { invoiceId: invoice.id, amountCents: 725_00, reason: "Cancelled 5 business days before: 50%", actor: null });
    expect(await db.selectFrom("credit_notes").select("refund_policy_version").where("invoice_id", "=", invoice.id).execute()).toEqual([
      { refund_policy_version: null },
    ]);
  });

  it("an admin adds a refund policy version taking effect today or later, never backdated, one per day", async () => {
    const today = new Date("2026-12-04T01:00:00Z");
    await expect(addRefundPolicy(db, { effective_from: "2026-12-01" }, null, today)).rejects.toMatchObject({
      status: 422,
      message: REFUND_POLICY_NOT_BACKDATED,
    });
    await expect(addRefundPolicy(db, { effective_from: "2026-11-22" }, null, today)).rejects.toMatchObject({ status: 422 });
    await addRefundPolicy(db, { effective_from: "2027-03-01" }, null, today);
    try {
      await expect(addRefundPolicy(db, { effective_from: "2027-03-01" }, null, today)).rejects.toMatchObject({ status: 409, message: REFUND_POLICY_DAY_TAKEN });
      expect((await listRefundPolicies(db)).map((p) => [p.version, p.effective_from])).toEqual([
        ["2027-03-01", "2027-03-01"],
        ["2026-11-22", "2026-11-22"],
      ]);
      expect(await db.selectFrom("audit_log").select("detail").where("action", "=", "finance.refund_policy_added").execute()).toEqual([
        { detail: "version 2027-03-01" },
      ]);
    } finally {
      await db.deleteFrom("refund_policies").where("version", "=", "2027-03-01").execute();
    }
  });

  it("a credit note cites the refund policy in force on the day of enrolment, not a later version", async () => {
    const learner = await makeUser(db);
    const course = await makeCourse(db, { price: 900 });
    const enrollment = await createEnrollment(db, { studentId: learner.id, courseId: course.id, actorId: learner.id, now: new Date("2026-11-25T03:00:00Z") });
    await db
      .insertInto("refund_policies")
      .values({ version: "2027-01-01", effective_from: "2027-01-01", created_at: "2026-12-20T00:00:00.000Z", created_by: null })
      .execute();
    try {
      const invoice = await db.selectFrom("invoices").select("id").where("source_id", "=", enrollment.id).executeTakeFirstOrThrow();
      await issueCreditNote(db, { invoiceId: invoice.id, amountCents: 100_00, reason: "Moved away", actor: null, now: new Date("2027-02-01T00:00:00Z") });
      expect(await db.selectFrom("credit_notes").select("refund_policy_version").where("invoice_id", "=", invoice.id).execute()).toEqual([
        { refund_policy_version: "2026-11-22" },
      ]);
      // an enrolment made once the new version is in force is made under it
      const later = await createEnrollment(db, { studentId: (await makeUser(db)).id, courseId: course.id, now: new Date("2027-01-02T00:00:00Z") });
      expect(
        (await db.selectFrom("enrollments").select("refund_policy_version").where("id", "=", later.id).executeTakeFirstOrThrow()).refund_policy_version,
      ).toBe("2027-01-01");
    } finally {
      await db.deleteFrom("refund_policies").where("version", "=", "2027-01-01").execute();
    }
  });

  it("an enrolment billed elsewhere (an employer's booking) makes no invoice", async () => {
    const learner = await makeUser(db);
    const course = await makeCourse(db);
    const enrollment = await createEnrollment(db, { studentId: learner.id, courseId: course.id, actorId: learner.id, now: NOW, billing: "none" });
    expect(await db.selectFrom("invoices").select("id").where("source_id", "=", enrollment.id).execute()).toEqual([]);
  });
});

describe("payments and credit notes", () => {
  it("part payments lower what is owed; a payment above it is refused and nothing is stored", async () => {
    const learner = await makeUser(db);
    const course = await makeCourse(db);
    const { id } = await invoiceFor(learner.id, [{ course_id: course.id, unit_price_cents: 1_000_00 }]);
    expect(invoiceStatus(await invoiceRow(id), "2026-11-21")).toBe("owed");
    expect(
      (await recordPayment(db, { invoiceId: id, method: "bank_transfer", reference: "EFT 1", receivedOn: "2026-11-21", amountCents: 400_00, actor: null }))
        .owed_cents,
    ).toBe(600_00);
    expect(invoiceStatus(await invoiceRow(id), "2026-11-21")).toBe("part_paid");
    // due 14 days after 20 Nov (Sydney: 20 Nov 11 am)
    expect((await invoiceRow(id)).due_date).toBe("2026-12-04");
    expect(invoiceStatus(await invoiceRow(id), "2026-12-05")).toBe("overdue");
    await expect(
      recordPayment(db, { invoiceId: id, method: "card", reference: "x", receivedOn: "2026-11-22", amountCents: 600_01, actor: null }),
    ).rejects.toMatchObject({ status: 422, message: OVERPAYMENT });
    expect(await db.selectFrom("payments").select("id").where("invoice_id", "=", id).execute()).toHaveLength(1);
    await recordPayment(db, { invoiceId: id, method: "employer_account", reference: "ACC", receivedOn: "2026-11-23", amountCents: 600_00, actor: null });
    expect(await invoiceRow(id)).toMatchObject({ paid_cents: 1_000_00 });
    expect(invoiceStatus(await invoiceRow(id), "2026-12-05")).toBe("paid");
  });

  it("a credit note cannot exceed what was paid, less earlier credit notes", async () => {
    const learner = await makeUser(db);
    const course = await taxableCourse();
    const { id } = await invoiceFor(learner.id, [{ course_id: course.id, unit_price_cents: 550_00 }]);
    await expect(issueCreditNote(db, { invoiceId: id, amountCents: 1, reason: "Cancelled", actor: null })).rejects.toMatchObject({
      status: 422,
      message: CREDIT_EXCEEDS_PAID,
    });
    await recordPayment(db, { invoiceId: id, method: "card", reference: "c", receivedOn: "2026-11-21", amountCents: 300_00, actor: null });
    await expect(issueCreditNote(db, { invoiceId: id, amountCents: 300_01, reason: "Cancelled", actor: null })).rejects.toMatchObject({
      message: CREDIT_EXCEEDS_PAID,
    });
    const first = await issueCreditNote(db, { invoiceId: id, amountCents: 110_00, reason: "Cancelled under 10 days", actor: null });
    expect(first.number).toMatch(/^CN-\d{6}$/);
    await expect(issueCreditNote(db, { invoiceId: id, amountCents: 190_01, reason: "More", actor: null })).rejects.toMatchObject({
      message: CREDIT_EXCEEDS_PAID,
    });
    await issueCreditNote(db, { invoiceId: id, amountCents: 190_00, reason: "More", actor: null });
    const notes = await db.selectFrom("credit_notes").select(["number", "amount_cents", "gst_cents"]).where("invoice_id", "=", id).orderBy("number").execute();
    expect(notes.map((n) => [n.amount_cents, n.gst_cents])).toEqual([
      [110_00, 10_00],
      [190_00, 17_27],
    ]);
    expect(Number(notes[1]!.number.slice(3))).toBe(Number(notes[0]!.number.slice(3)) + 1);
    expect(await invoiceRow(id)).toMatchObject({ credited_cents: 300_00, paid_cents: 300_00 });
  });
});

function runChild(count: number, courseId: string, learnerId: string) {
  const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/support/invoice-issue-child.ts"), url, String(count), courseId, learnerId], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  const ready = new Promise<void>((resolve) =>
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready\n")) resolve();
    }),
  );
  const done = new Promise<string[]>((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out.split("\n").filter(Boolean).at(-1)!) as string[]) : reject(new Error(`child exited ${code}`)),
    ),
  );
  return { child, ready, done };
}

describe("invoice numbers", () => {
  it("20 invoices issued at once by 2 processes get 20 consecutive numbers, none repeated or skipped", async () => {
    const learner = await makeUser(db);
    const course = await makeCourse(db);
    const before = (await db.selectFrom("finance_sequences").select("last_value").where("series", "=", "invoice").executeTakeFirst())?.last_value ?? 0;
    const workers = [runChild(10, course.id, learner.id), runChild(10, course.id, learner.id)];
    await Promise.all(workers.map((w) => w.ready));
    for (const w of workers) w.child.stdin!.end("go\n");
    const numbers = (await Promise.all(workers.map((w) => w.done))).flat();
    const values = numbers.map((n) => Number(n.slice(4))).sort((a, b) => a - b);
    expect(values).toEqual(Array.from({ length: 20 }, (_, i) => Number(before) + i + 1));
    const stored = await db.selectFrom("invoices").select("number").where("buyer_id", "=", learner.id).execute();
    expect(stored.map((r) => r.number).sort()).toEqual([...numbers].sort());
  }, 180_000);
});
