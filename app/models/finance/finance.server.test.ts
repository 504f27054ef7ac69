import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { createTestDb } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { issueCreditNote, issueInvoice, recordPayment, saveFinanceSettings } from "./invoice.server";
import { financeSettingsSchema } from "~/schemas/invoice";
import { billSelfEnrollment, invoiceSelfEnrollment } from "./enrollment-invoice.server";
import { csvResponse } from "~/http/csv-response.server";
import {
  exportXeroCsv,
  getCreditNote,
  getInvoice,
  listEmployerInvoices,
  listInvoices,
  listLearnerInvoices,
  totalsByScan,
  totalsFromSums,
} from "./finance.server";
import { INVOICE_STATUSES } from "~/schemas/invoice-text";
import { formatDate } from "~/utils/format";
import { renderCreditNotePdf, renderInvoicePdf } from "~/pdf/invoice-pdf.server";

/** The Xero export as the download writes it. */
async function xeroText(db: DB, input: Parameters<typeof exportXeroCsv>[1]) {
  const { columns, rows } = await exportXeroCsv(db, input);
  const csv = await csvResponse({ request: new Request("http://test/"), columns, rows, filename: "xero.csv", byteOrderMark: false }).text();
  // the counts are the export's audit entry's
  const entry = await db
    .selectFrom("audit_log")
    .select("detail")
    .where("action", "=", "finance.exported")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirstOrThrow();
  const [, invoices, creditNotes] = /: (\d+) invoices, (\d+) credit notes$/.exec(entry.detail ?? "")!.map(Number);
  return { csv, invoices, creditNotes };
}

let db: DB;
let cleanup: () => Promise<void>;
const NOW = new Date("2026-11-20T00:00:00Z");
const XERO_DAY = new Date("2027-02-05T00:00:00Z");

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(() => cleanup());

async function employerInvoice() {
  const free = await makeCourse(db, { name: "Licence to operate a slewing mobile crane" });
  const taxable = await makeCourse(db, { name: "Site induction refresher" });
  await db.updateTable("courses").set({ gst_treatment: "taxable" }).where("id", "=", taxable.id).execute();
  const buyerId = crypto.randomUUID();
  const invoice = await writeTransaction(db, (trx) =>
    issueInvoice(trx, {
      buyer: {
        kind: "employer",
        id: buyerId,
        name: "Harbour Civil Pty Ltd",
        abn: "53 004 085 616",
        email: "accounts@harbourcivil.example",
        address: { line1: "1 Wharf Rd", city: "Newcastle", region: "NSW", postcode: "2300", country: "Australia" },
      },
      lines: [
        { course_id: free.id, description: "CPCCLSF2001 Dogging: 3 seats", quantity: 3, unit_price_cents: 1_450_00 },
        { course_id: taxable.id, description: "Site induction refresher", quantity: 2, unit_price_cents: 165_00 },
      ],
      source: { kind: "booking", id: crypto.randomUUID() },
      issued_by: null,
      due_by: "2026-11-27",
      now: NOW,
    }),
  );
  return { ...invoice, buyerId };
}

function pdfText(bytes: Uint8Array): string {
  const file = path.join(os.tmpdir(), `invoice-${crypto.randomUUID()}.pdf`);
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync("pdftotext", ["-layout", file, "-"]).toString();
  } finally {
    fs.rmSync(file);
  }
}

describe("the office's invoices", () => {
  it("the PDF reads back as a tax invoice with both ABNs, each line and the GST", async () => {
    const { id, number } = await employerInvoice();
    const detail = (await getInvoice(db, id, { learnerId: null }, NOW))!;
    // due the day before the class, earlier than the 14 days' terms
    expect(detail.due_date).toBe("2026-11-27");
    const text = pdfText(await renderInvoicePdf(detail));
    expect(text).toContain("Tax invoice");
    expect(text).toContain(number);
    expect(text).toContain("ABN 51 824 753 556");
    expect(text).toContain("ABN 53 004 085 616");
    expect(text).toContain("Harbour Civil Pty Ltd");
    expect(text).toMatch(/CPCCLSF2001 Dogging: 3 seats\s+3\s+\$1,450\.00\s+\$0\.00\s+\$4,350\.00/);
    expect(text).toMatch(/Site induction refresher\s+2\s+\$165\.00\s+\$30\.00\s+\$330\.00/);
    expect(text).toMatch(/GST\s+\$30\.00/);
    expect(text).toMatch(/Total including GST\s+\$4,680\.00/);
  });

  it("the PDF prints every line's description whole, wrapped, over as many pages as the lines need", async () => {
    const course = await makeCourse(db);
    const long = "RIIHAN309F Licence to perform rigging basic level (RB), class from 2026-12-01 to 2026-12-05 at the Newcastle training yard";
    const lines = Array.from({ length: 40 }, (_, i) => ({
      course_id: course.id,
      description: `${long} (worker ${i + 1})`,
      quantity: 1,
      unit_price_cents: 100_00,
    }));
    const { id } = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: { kind: "employer", id: crypto.randomUUID(), name: "Long Lines Pty Ltd", email: "a@example.test" },
        lines,
        source: { kind: "booking", id: crypto.randomUUID() },
        issued_by: null,
        now: NOW,
      }),
    );
    const bytes = await renderInvoicePdf((await getInvoice(db, id, { learnerId: null }, NOW))!);
    const text = pdfText(bytes);
    // pdftotext -layout keeps the columns: the description's words, read in order, make the whole description
    const words = text.replace(/\$[\d,]+\.\d\d|\s1\s/g, " ").replace(/\s+/g, " ");
    for (let i = 1; i <= 40; i++) expect(words).toContain(`${long} (worker ${i})`);
    expect(text).not.toContain("...");
    expect(text).toMatch(/Total including GST\s+\$4,000\.00/);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(1);
  });

  it("lists with status, period and buyer filters, totals summed in SQL; the credit note's PDF; the Xero CSV of the period", async () => {
    const { id, number } = await employerInvoice();
    await recordPayment(db, { invoiceId: id, method: "bank_transfer", reference: "EFT 77", receivedOn: "2026-11-21", amountCents: 1_000_00, actor: null });
    const later = new Date("2026-12-10T00:00:00Z");
    const overdue = await listInvoices(db, { status: "overdue", buyer: "harbour" }, { now: later });
    expect(overdue.invoices.map((i) => i.number)).toContain(number);
    expect(overdue.totals.overdue_cents).toBe(overdue.totals.owed_cents);
    const mine = overdue.invoices.find((i) => i.number === number)!;
    expect(mine).toMatchObject({ owed_cents: 3_680_00, status: "overdue" });
    expect((await listInvoices(db, { status: "paid", buyer: "harbour" }, { now: later })).invoices.map((i) => i.number)).not.toContain(number);
    expect((await listInvoices(db, { from: "2026-12-01", to: "2026-12-31" }, { now: later })).invoices.map((i) => i.number)).not.toContain(number);
    const all = await listInvoices(db, { buyer: "53004085616" }, { now: later });
    expect(all.totals.total_cents).toBe(all.invoices.reduce((s, i) => s + i.total_cents, 0));

    const note = await issueCreditNote(db, { invoiceId: id, amountCents: 468_00, reason: "One worker cancelled", actor: null });
    const text = pdfText(await renderCreditNotePdf((await getCreditNote(db, note.id, { learnerId: null }))!));
    expect(text).toContain("Credit note");
    expect(text).toContain(number);
    expect(text).toMatch(/GST included\s+\$3\.00/);

    const { csv, invoices } = await xeroText(db, { from: "2026-11-01", to: "2026-11-30", actor: null });
    expect(invoices).toBeGreaterThanOrEqual(1);
    const lines = csv.trim().split("\r\n");
    expect(lines[0]).toBe(
      "ContactName,EmailAddress,POAddressLine1,POAddressLine2,POAddressLine3,POAddressLine4,POCity,PORegion,POPostalCode,POCountry,InvoiceNumber,Reference,InvoiceDate,DueDate,InventoryItemCode,Description,Quantity,UnitAmount,Discount,AccountCode,TaxType,TaxAmount,TrackingName1,TrackingOption1,TrackingName2,TrackingOption2,Currency",
    );
    const ours = lines.filter((l) => l.includes(number));
    expect(ours).toEqual([
      `Harbour Civil Pty Ltd,accounts@harbourcivil.example,1 Wharf Rd,,,,Newcastle,NSW,2300,Australia,${number},Group booking,20/11/2026,27/11/2026,,CPCCLSF2001 Dogging: 3 seats,3,1450.00,,200,GST Free Income,0.00,,,,,AUD`,
      `Harbour Civil Pty Ltd,accounts@harbourcivil.example,1 Wharf Rd,,,,Newcastle,NSW,2300,Australia,${number},Group booking,20/11/2026,27/11/2026,,Site induction refresher,2,165.00,,200,GST on Income,30.00,,,,,AUD`,
    ]);
  });

  it("the Xero CSV: every address field in its column, the state as NSW, and the period's credit notes as negative documents", async () => {
    const course = await makeCourse(db, { name: "Licence to perform dogging" });
    const learner = await makeUser(db, { full_name: "Mia Nguyen" });
    await db.updateTable("users").set({ address: "3/22 Station Rd, Parramatta NSW 2150", state: "01" }).where("id", "=", learner.id).execute();
    const learnerInvoice = await writeTransaction(db, async (trx) =>
      invoiceSelfEnrollment(
        trx,
        (await billSelfEnrollment(trx, {
          enrollmentId: crypto.randomUUID(),
          studentId: learner.id,
          course: { id: course.id, name: "Licence to perform dogging", unit_code: "CPCCLDG3001", price_cents: 1_100_00 },
          classStart: null,
          actorId: learner.id,
          now: XERO_DAY,
        }))!,
      ),
    );
    const structured = await makeUser(db, { full_name: "Noah Singh" });
    await db
      .updateTable("users")
      .set({ address_unit: "4", address_street_number: "5", address_street_name: "Crane Cl", suburb: "Blacktown", state: "01", postcode: "2148" })
      .where("id", "=", structured.id)
      .execute();
    const structuredInvoice = await writeTransaction(db, async (trx) =>
      invoiceSelfEnrollment(
        trx,
        (await billSelfEnrollment(trx, {
          enrollmentId: crypto.randomUUID(),
          studentId: structured.id,
          course: { id: course.id, name: "Licence to perform dogging", unit_code: "CPCCLDG3001", price_cents: 1_100_00 },
          classStart: null,
          actorId: structured.id,
          now: XERO_DAY,
        }))!,
      ),
    );
    // an invoice issued before addresses were kept field by field: the town, state and postcode on line 2
    const legacy = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: {
          kind: "employer",
          id: crypto.randomUUID(),
          name: "Old Address Pty Ltd",
          email: "old@example.test",
          address: { line1: "12 Harbour St", line2: "Sydney NSW 2000" },
        },
        lines: [{ course_id: course.id, description: "Seats", quantity: 1, unit_price_cents: 500_00 }],
        source: { kind: "booking", id: crypto.randomUUID() },
        issued_by: null,
        now: XERO_DAY,
      }),
    );
    const mixed = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: { kind: "employer", id: crypto.randomUUID(), name: "Mixed Lines Pty Ltd", email: "mixed@example.test" },
        lines: [
          { course_id: null, description: "Dogging", quantity: 1, unit_price_cents: 1_000_00, gst_treatment: "gst_free" },
          { course_id: null, description: "Induction", quantity: 1, unit_price_cents: 110_00, gst_treatment: "taxable" },
        ],
        source: { kind: "booking", id: crypto.randomUUID() },
        issued_by: null,
        now: XERO_DAY,
      }),
    );
    await recordPayment(db, {
      invoiceId: mixed.id,
      method: "bank_transfer",
      reference: "EFT 9",
      receivedOn: "2027-02-03",
      amountCents: 1_110_00,
      actor: null,
      now: XERO_DAY,
    });
    const note = await issueCreditNote(db, { invoiceId: mixed.id, amountCents: 555_00, reason: "Half the seats cancelled", actor: null, now: XERO_DAY });
    const refunded = await getCreditNote(db, note.id, { learnerId: null });

    const { csv, invoices, creditNotes } = await xeroText(db, { from: "2027-02-01", to: "2027-02-28", actor: null });
    expect([invoices, creditNotes]).toEqual([4, 1]);
    const rows = csv.trim().split("\r\n");
    const of = (number: string) => rows.filter((l) => l.includes(`,${number},`));
    expect(of(learnerInvoice!.number)[0]).toMatch(/^Mia Nguyen,[^,]+,3\/22 Station Rd,,,,Parramatta,NSW,2150,Australia,/);
    expect(of(structuredInvoice!.number)[0]).toMatch(/^Noah Singh,[^,]+,4\/5 Crane Cl,,,,Blacktown,NSW,2148,Australia,/);
    expect(of(legacy.number)[0]).toMatch(/^Old Address Pty Ltd,old@example.test,12 Harbour St,,,,Sydney,NSW,2000,Australia,/);
    // the credit note: its own number, a negative total split into its taxable and GST-free parts
    expect(refunded!.gst_cents).toBe(5_00);
    expect(of(note.number)).toEqual([
      `Mixed Lines Pty Ltd,mixed@example.test,,,,,,,,,${note.number},Credit note against ${mixed.number},05/02/2027,05/02/2027,,Half the seats cancelled,-1,55.00,,200,GST on Income,-5,,,,,AUD`,
      `Mixed Lines Pty Ltd,mixed@example.test,,,,,,,,,${note.number},Credit note against ${mixed.number},05/02/2027,05/02/2027,,Half the seats cancelled,-1,500.00,,200,GST Free Income,0,,,,,AUD`,
    ]);
  });

  it("the Xero export records its audit entry before its first row, not before its answer starts", async () => {
    const entries = async () =>
      Number(
        (
          await db
            .selectFrom("audit_log")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("action", "=", "finance.exported")
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await entries();
    const { rows } = await exportXeroCsv(db, { from: "2027-02-01", to: "2027-02-28", actor: null });
    // the answer can start (its header line) with nothing counted or recorded yet
    expect(await entries()).toBe(before);
    const first = await rows.next();
    expect(first.done).toBe(false);
    expect(await entries()).toBe(before + 1);
    await rows.return();
    // an export never read records nothing: no row of it left the server
    await exportXeroCsv(db, { from: "2027-02-01", to: "2027-02-28", actor: null });
    expect(await entries()).toBe(before + 1);
  });

  it("the totals kept per issue day, due day and status facts equal the invoices summed one by one, through payments, credits and corrections", async () => {
    const agree = async (step: string) => {
      for (const today of ["2026-11-01", "2026-11-27", "2026-11-28", "2027-03-01"]) {
        for (const status of [null, ...INVOICE_STATUSES]) {
          for (const [from, to] of [
            [null, null],
            ["2026-11-20", "2026-11-20"],
            ["2026-11-21", null],
            [null, "2026-11-19"],
          ] as const) {
            const filters = { status, from, to };
            const kept = await totalsFromSums(db, filters, today);
            const scanned = await totalsByScan(db, filters, today);
            const numbers = (t: typeof kept) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Number(v)]));
            expect(numbers(kept), `${step}: ${today} ${status} ${from}-${to}`).toEqual(numbers(scanned));
          }
        }
      }
    };
    await agree("before");
    const first = await employerInvoice();
    const second = await employerInvoice();
    await agree("issued");
    await recordPayment(db, { invoiceId: first.id, method: "bank_transfer", reference: "EFT 78", receivedOn: "2026-11-21", amountCents: 500_00, actor: null });
    await agree("part paid");
    const owed = await db.selectFrom("invoices").select(["total_cents", "paid_cents"]).where("id", "=", first.id).executeTakeFirstOrThrow();
    await recordPayment(db, {
      invoiceId: first.id,
      method: "bank_transfer",
      reference: "EFT 79",
      receivedOn: "2026-11-22",
      amountCents: owed.total_cents - owed.paid_cents,
      actor: null,
    });
    await agree("paid");
    // a credit note refunds what was paid
    const due = await db.selectFrom("invoices").select("total_cents").where("id", "=", second.id).executeTakeFirstOrThrow();
    await recordPayment(db, {
      invoiceId: second.id,
      method: "bank_transfer",
      reference: "EFT 80",
      receivedOn: "2026-11-23",
      amountCents: due.total_cents,
      actor: null,
    });
    await issueCreditNote(db, { invoiceId: second.id, amountCents: 100_00, reason: "A worker cancelled", actor: null });
    await agree("credited in part");
    const left = await db.selectFrom("invoices").select(["total_cents", "credited_cents"]).where("id", "=", second.id).executeTakeFirstOrThrow();
    await issueCreditNote(db, { invoiceId: second.id, amountCents: left.total_cents - left.credited_cents, reason: "Booking cancelled", actor: null });
    await agree("credited in full");
    // a correction made in the database: the due date moved, then the invoice removed
    await db.updateTable("invoices").set({ due_date: "2027-01-31" }).where("id", "=", first.id).execute();
    await agree("due date moved");
    await db.updateTable("invoices").set({ paid_cents: 0 }).where("id", "=", first.id).execute();
    await agree("payments undone");
    await db.deleteFrom("payments").where("invoice_id", "=", first.id).execute();
    await db.deleteFrom("invoice_lines").where("invoice_id", "=", first.id).execute();
    await db.deleteFrom("invoices").where("id", "=", first.id).execute();
    await agree("removed");
  });

  it("a learner reads only their own invoices", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const course = await makeCourse(db);
    const { id } = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: { kind: "learner", id: a.id, name: "A", email: "a@example.test" },
        lines: [{ course_id: course.id, description: "C", quantity: 1, unit_price_cents: 100_00 }],
        source: { kind: "enrollment", id: crypto.randomUUID() },
        issued_by: a.id,
      }),
    );
    expect(await getInvoice(db, id, { learnerId: a.id })).not.toBeNull();
    expect(await getInvoice(db, id, { learnerId: b.id })).toBeNull();
    expect((await listLearnerInvoices(db, a.id)).map((i) => i.id)).toEqual([id]);
    expect(await listLearnerInvoices(db, b.id)).toEqual([]);
  });

  it("the finance settings reach the invoices issued after they are saved; issued ones keep theirs", async () => {
    const before = await employerInvoice();
    expect(
      financeSettingsSchema.safeParse({ seller_name: "X", seller_abn: "51 824 753 557", payment_terms_days: "14", sales_account_code: "200" }).success,
    ).toBe(false);
    const input = financeSettingsSchema.parse({
      seller_name: "Summit Lifting Pty Ltd",
      seller_abn: "33 051 775 556",
      payment_terms_days: "30",
      sales_account_code: "210",
    });
    await saveFinanceSettings(db, input, null, NOW);
    try {
      const after = await employerInvoice();
      expect((await getInvoice(db, after.id, { learnerId: null }, NOW))!).toMatchObject({ seller_name: "Summit Lifting Pty Ltd", seller_abn: "33051775556" });
      expect((await getInvoice(db, before.id, { learnerId: null }, NOW))!).toMatchObject({ seller_abn: "51824753556" });
      const audit = await db.selectFrom("audit_log").select("detail").where("action", "=", "finance.settings_changed").execute();
      expect(audit.map((a) => a.detail)).toEqual(["terms 30 days"]);
    } finally {
      await saveFinanceSettings(
        db,
        { seller_name: "Summit Crane & Rigging Training Pty Ltd", seller_abn: "51824753556", payment_terms_days: 14, sales_account_code: "200" },
        null,
        NOW,
      );
    }
  });
});

/** An organisation with one user of its own (role employer), made as the database keeps them. */
async function employerWithUser(name: string) {
  const id = crypto.randomUUID();
  const at = NOW.toISOString();
  await db
    .insertInto("employers")
    .values({
      id,
      name,
      abn: String(10_000_000_000 + crypto.randomInt(89_999_999_999)),
      contact_name: "Pat Lee",
      contact_email: "pat@example.test",
      contact_phone: "0299990000",
      address: "1 George St",
      created_at: at,
      updated_at: at,
    })
    .execute();
  const user = await makeUser(db, { role: "employer" });
  await db.updateTable("users").set({ employer_id: id }).where("id", "=", user.id).execute();
  return { id, userId: user.id };
}

/** An invoice of $1,100.00 (taxable: $100.00 GST) to the buyer, paid in full on the day. */
async function paidInvoice(buyer: { kind: "employer" | "learner"; id: string }) {
  const invoice = await writeTransaction(db, (trx) =>
    issueInvoice(trx, {
      buyer: { ...buyer, name: "Buyer", email: "buyer@example.test" },
      lines: [{ course_id: null, description: "Site induction", quantity: 1, unit_price_cents: 1_100_00, gst_treatment: "taxable" }],
      source: { kind: buyer.kind === "employer" ? "booking" : "enrollment", id: crypto.randomUUID() },
      issued_by: null,
      now: NOW,
    }),
  );
  await recordPayment(db, { invoiceId: invoice.id, method: "card", reference: "Card", receivedOn: "2026-11-20", amountCents: 1_100_00, actor: null, now: NOW });
  return invoice;
}

describe("a buyer's credit notes", () => {
  it("an employer user reads their organisation's credit notes, with what is owed; another organisation's, a learner's and an unknown id are not found", async () => {
    const [mine, theirs] = [await employerWithUser("Mine Pty Ltd"), await employerWithUser("Theirs Pty Ltd")];
    const learner = await makeUser(db);
    const [own, other, learners] = [
      await paidInvoice({ kind: "employer", id: mine.id }),
      await paidInvoice({ kind: "employer", id: theirs.id }),
      await paidInvoice({ kind: "learner", id: learner.id }),
    ];
    const note = await issueCreditNote(db, { invoiceId: own.id, amountCents: 550_00, reason: "Two workers cancelled", actor: null, now: NOW });
    const otherNote = await issueCreditNote(db, { invoiceId: other.id, amountCents: 100_00, reason: "Theirs", actor: null, now: NOW });
    const learnerNote = await issueCreditNote(db, { invoiceId: learners.id, amountCents: 100_00, reason: "Learner's", actor: null, now: NOW });
    const scope = { employerUserId: mine.userId };

    expect(await getCreditNote(db, note.id, scope)).toMatchObject({ number: note.number, invoice_number: own.number, amount_cents: 550_00, gst_cents: 50_00 });
    for (const id of [otherNote.id, learnerNote.id, crypto.randomUUID()]) expect(await getCreditNote(db, id, scope)).toBeNull();
    // a learner's scope never reaches an organisation's credit note, nor the office's id alone a buyer's
    expect(await getCreditNote(db, note.id, { learnerId: learner.id })).toBeNull();
    expect(await getCreditNote(db, note.id, { employerUserId: learner.id })).toBeNull();

    const list = await listEmployerInvoices(db, mine.userId, NOW);
    expect(list.map((i) => i.number)).toEqual([own.number]);
    // a credit note refunds money paid: $1,100 billed and paid, $550 of it credited and refunded, nothing owed
    expect(list[0]).toMatchObject({ total_cents: 1_100_00, owed_cents: 0, credited_cents: 550_00, status: "paid" });
    expect(list[0]!.credit_notes).toEqual([
      {
        id: note.id,
        number: note.number,
        issue_date: "2026-11-20",
        reason: "Two workers cancelled",
        amount_cents: 550_00,
        gst_cents: 50_00,
        refund_policy_version: null,
      },
    ]);
    expect((await listEmployerInvoices(db, theirs.userId, NOW))[0]!.credit_notes.map((c) => c.number)).toEqual([otherNote.number]);
  });

  it("a learner reads the credit notes against their own invoices only, and what is owed after a part payment and a refund", async () => {
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const employer = await employerWithUser("Books For A Pty Ltd");
    const invoice = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: { kind: "learner", id: a.id, name: "A", email: "a@example.test" },
        lines: [{ course_id: null, description: "Dogging", quantity: 1, unit_price_cents: 1_000_00, gst_treatment: "gst_free" }],
        source: { kind: "enrollment", id: crypto.randomUUID() },
        issued_by: a.id,
        now: NOW,
      }),
    );
    await recordPayment(db, {
      invoiceId: invoice.id,
      method: "bank_transfer",
      reference: "EFT",
      receivedOn: "2026-11-20",
      amountCents: 500_00,
      actor: null,
      now: NOW,
    });
    const first = await issueCreditNote(db, { invoiceId: invoice.id, amountCents: 150_00, reason: "Half a day missed", actor: null, now: NOW });
    const second = await issueCreditNote(db, { invoiceId: invoice.id, amountCents: 50_00, reason: "Parking", actor: null, now: NOW });
    // a seat an employer paid for is the employer's invoice: its credit note is not the learner's
    const booked = await paidInvoice({ kind: "employer", id: employer.id });
    const employers = await issueCreditNote(db, { invoiceId: booked.id, amountCents: 100_00, reason: "Employer's", actor: null, now: NOW });

    expect(await getCreditNote(db, first.id, { learnerId: a.id })).toMatchObject({
      number: first.number,
      invoice_id: invoice.id,
      amount_cents: 150_00,
      gst_cents: 0,
    });
    for (const id of [first.id, second.id]) expect(await getCreditNote(db, id, { learnerId: b.id })).toBeNull();
    for (const id of [employers.id, crypto.randomUUID()]) expect(await getCreditNote(db, id, { learnerId: a.id })).toBeNull();

    const [mine] = await listLearnerInvoices(db, a.id, NOW);
    // $1,000 billed, $500 paid, $200 of it refunded: $800 billed after the credit notes, $300 kept, $500 owed
    expect(mine).toMatchObject({ id: invoice.id, owed_cents: 500_00, credited_cents: 200_00, status: "part_paid" });
    expect(mine!.credit_notes.map((c) => [c.number, c.amount_cents, c.reason])).toEqual([
      [first.number, 150_00, "Half a day missed"],
      [second.number, 50_00, "Parking"],
    ]);
    expect(await listLearnerInvoices(db, b.id, NOW)).toEqual([]);
    // the office's page and the buyer's list give the same figure
    expect((await getInvoice(db, invoice.id, { learnerId: null }, NOW))!.owed_cents).toBe(500_00);

    // the invoice's PDF: each credit note as a credit against the total, then as a refund of money paid, down to what is owed
    const text = pdfText(await renderInvoicePdf((await getInvoice(db, invoice.id, { learnerId: a.id }, NOW))!));
    const amounts = [
      ["Total including GST", "\\$1,000\\.00"],
      [`Less credit note ${first.number} of ${formatDate("2026-11-20")}`, "-\\$150\\.00"],
      [`Less credit note ${second.number} of ${formatDate("2026-11-20")}`, "-\\$50\\.00"],
      ["GST after credit notes", "\\$0\\.00"],
      ["Total after credit notes", "\\$800\\.00"],
      [`Paid ${formatDate("2026-11-20")} \\(Bank transfer\\)`, "-\\$500\\.00"],
      [`Refunded under credit note ${first.number}`, "\\$150\\.00"],
      [`Refunded under credit note ${second.number}`, "\\$50\\.00"],
      ["Amount owed", "\\$500\\.00"],
    ];
    expect(text).toMatch(new RegExp(amounts.map(([label, amount]) => `${label}\\s+${amount}`).join("\\s+")));
    // the tax invoice's own words stay
    for (const words of ["Tax invoice", invoice.number, "ABN 51 824 753 556", `Issue date: ${formatDate("2026-11-20")}`]) expect(text).toContain(words);
  });
});
