import { refundPolicyOfInvoiceSource } from "./refund-policy.server";
import crypto from "node:crypto";
import { sql } from "kysely";
import { writeLater, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { BuyerKind, FinanceSeries, GstTreatment, InvoiceSourceKind, PaymentMethod } from "#db/schema-finance";
import { invalid, notFound } from "~/utils/errors";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { actorOf, recordAudit, type ActorRef } from "../audit.server";
import { creditGst, documentNumber, invoiceTotals } from "~/rules/invoice-rules";
import { OVERPAYMENT, CREDIT_EXCEEDS_PAID, NO_LINES } from "~/schemas/invoice-text";
import type { FinanceSettingsInput } from "~/schemas/invoice";
import { queueWebhookEvent } from "../webhook-events.server";
import { learnerAddress } from "./invoice-address";
import { spendToken, storedOnce, type OnceToken } from "../spent-tokens.server";

/**
 * Tax invoices, payments and credit notes (docs/decisions/033-invoices.md). An invoice is issued
 * inside the transaction that makes what it bills (an enrolment, a booking), so the two commit
 * or roll back together, and its number is drawn from a counter row in that same transaction:
 * numbers run 1, 2, 3… with no gap, on either database and from any number of servers.
 */

export interface InvoiceBuyer {
  kind: BuyerKind;
  /** the employer's or the learner's id, kept without a foreign key */
  id: string;
  name: string;
  abn?: string | null;
  email: string;
  address?: {
    line1?: string | null;
    line2?: string | null;
    city?: string | null;
    region?: string | null;
    postcode?: string | null;
    country?: string | null;
  } | null;
}

/**
 * A learner as the buyer of their own invoice (an enrolment they pay for, an RPL's fee): their
 * name, email and postal address as the invoice keeps them.
 */
export async function learnerAsBuyer(db: DB, studentId: string): Promise<InvoiceBuyer> {
  const learner = await db
    .selectFrom("users")
    .select([
      "full_name",
      "email",
      "address",
      "address_unit",
      "address_building",
      "address_street_number",
      "address_street_name",
      "suburb",
      "state",
      "postcode",
    ])
    .where("id", "=", studentId)
    .executeTakeFirstOrThrow();
  return { kind: "learner", id: studentId, name: learner.full_name, email: learner.email, address: learnerAddress(learner) };
}

export interface InvoiceLineInput {
  /** the course billed: its GST treatment applies; null for a line that is not a course (then gst_treatment) */
  course_id: string | null;
  description: string;
  quantity: number;
  /** GST-inclusive price of one, in cents */
  unit_price_cents: number;
  gst_treatment?: GstTreatment;
}

export interface IssueInvoiceInput {
  buyer: InvoiceBuyer;
  lines: InvoiceLineInput[];
  source: { kind: InvoiceSourceKind; id: string };
  /** who issued it (the learner enrolling, the employer's user booking, an administrator) */
  issued_by: ActorRef;
  /** the last day payment may be due, e.g. the day before the class starts: the due date is the earlier of it and the terms' */
  due_by?: string | null;
  now?: Date;
}

/** The finance settings: the seller printed on invoices, the payment terms, the export's account code. */
export async function financeSettings(db: DB) {
  return db
    .selectFrom("finance_settings")
    .select(["seller_name", "seller_abn", "payment_terms_days", "sales_account_code"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
}

/** Saves the finance settings: invoices issued from now on carry them; issued ones keep what they were issued with. */
export async function saveFinanceSettings(db: DB, input: FinanceSettingsInput, actor: ActorRef, now = new Date()): Promise<void> {
  await writeTransaction(db, async (trx) => {
    await trx
      .updateTable("finance_settings")
      .set({ ...input, updated_by: actorOf(actor).id, updated_at: now.toISOString() })
      .where("id", "=", 1)
      .execute();
    await recordAudit(trx, { action: "finance.settings_changed", actor: actorOf(actor), detail: `terms ${input.payment_terms_days} days`, now });
  });
}

/** The next number of a series, from its counter row, updated in the caller's transaction (so it never skips or repeats). */
async function nextInSeries(trx: WriteTransaction, series: FinanceSeries): Promise<number> {
  const row = await trx
    .insertInto("finance_sequences")
    .values({ series, last_value: 1 })
    .onConflict((oc) => oc.column("series").doUpdateSet({ last_value: sql`finance_sequences.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}

/** An invoice checked and priced, its course and seller details read: what issueInvoice writes. */
export interface PreparedInvoice {
  lines: Array<IssueInvoiceInput["lines"][number] & { gst_treatment: GstTreatment }>;
  settings: Awaited<ReturnType<typeof financeSettings>>;
}

/**
 * An invoice's checks and reads, before it is written: a scoped write (an enrolment paid by card)
 * makes them before its turn to write (writeTransaction), so its turn holds only the writes.
 */
export async function prepareInvoice(db: DB, input: IssueInvoiceInput): Promise<PreparedInvoice> {
  if (input.lines.length === 0) throw invalid(NO_LINES);
  for (const line of input.lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < 1) throw invalid("Each line's quantity must be a whole number of at least 1");
    if (!Number.isInteger(line.unit_price_cents) || line.unit_price_cents < 0) throw invalid("Each line's price must be a whole number of cents, 0 or more");
    if (!line.description.trim()) throw invalid("Each line needs a description");
  }
  const courseIds = input.lines.flatMap((l) => (l.course_id ? [l.course_id] : []));
  const courses = courseIds.length ? await db.selectFrom("courses").select(["id", "gst_treatment"]).where("id", "in", courseIds).execute() : [];
  const treatmentOf = new Map(courses.map((c) => [c.id, c.gst_treatment]));
  const lines = input.lines.map((line) => {
    const treatment = line.course_id ? treatmentOf.get(line.course_id) : line.gst_treatment;
    if (!treatment) throw notFound("Course");
    return { ...line, gst_treatment: treatment as GstTreatment };
  });
  return { lines, settings: await financeSettings(db) };
}

/**
 * Issues a tax invoice, inside the caller's write transaction. The buyer's and the seller's
 * details are copied onto it; each line takes its course's GST treatment and its GST is rounded
 * on the line. One invoice per source (an enrolment or booking is billed once: a second call for
 * it is refused by the database). Returns its id, number and total. `prepared` is what
 * prepareInvoice read for it earlier in the transaction.
 */
export async function issueInvoice(
  trx: WriteTransaction,
  input: IssueInvoiceInput,
  prepared?: PreparedInvoice,
): Promise<{ id: string; number: string; total_cents: number; gst_cents: number; due_date: string }> {
  const nowDate = input.now ?? new Date();
  const { lines, settings } = prepared ?? (await prepareInvoice(trx, input));
  const totals = invoiceTotals(lines);
  const issueDate = organisationToday(nowDate);
  const byTerms = addDays(issueDate, settings.payment_terms_days);
  const dueDate = input.due_by && input.due_by < byTerms ? (input.due_by < issueDate ? issueDate : input.due_by) : byTerms;
  const number = documentNumber("INV", await nextInSeries(trx, "invoice"));
  const id = crypto.randomUUID();
  const actor = actorOf(input.issued_by);
  const address = input.buyer.address ?? {};
  await writeLater(
    trx,
    trx.insertInto("invoices").values({
      id,
      number,
      seller_name: settings.seller_name,
      seller_abn: settings.seller_abn,
      buyer_kind: input.buyer.kind,
      buyer_id: input.buyer.id,
      buyer_name: input.buyer.name,
      buyer_abn: input.buyer.abn?.replace(/\s/g, "") || null,
      buyer_email: input.buyer.email,
      buyer_address_line1: address.line1 ?? null,
      buyer_address_line2: address.line2 ?? null,
      buyer_city: address.city ?? null,
      buyer_region: address.region ?? null,
      buyer_postcode: address.postcode ?? null,
      buyer_country: address.country ?? null,
      source_kind: input.source.kind,
      source_id: input.source.id,
      issue_date: issueDate,
      due_date: dueDate,
      subtotal_cents: totals.subtotal_cents,
      gst_cents: totals.gst_cents,
      total_cents: totals.total_cents,
      issued_by: actor.id,
      issued_at: nowDate.toISOString(),
    }),
  );
  await writeLater(
    trx,
    trx.insertInto("invoice_lines").values(
      totals.lines.map((line, i) => ({
        id: crypto.randomUUID(),
        invoice_id: id,
        position: i + 1,
        course_id: line.course_id,
        description: line.description.trim(),
        quantity: line.quantity,
        unit_price_cents: line.unit_price_cents,
        gst_treatment: line.gst_treatment,
        amount_cents: line.amount_cents,
        gst_cents: line.gst_cents,
      })),
    ),
  );
  await queueWebhookEvent(trx, { type: "invoice.issued", subjectId: id, now: nowDate });
  await recordAudit(trx, {
    action: "invoice.issued",
    actor,
    subject: { type: "invoice", id, userId: input.buyer.kind === "learner" ? input.buyer.id : null },
    detail: number,
    now: nowDate,
  });
  return { id, number, total_cents: totals.total_cents, gst_cents: totals.gst_cents, due_date: dueDate };
}

export interface RecordPaymentInput {
  invoiceId: string;
  method: PaymentMethod;
  reference: string;
  /** the day received (YYYY-MM-DD) */
  receivedOn: string;
  amountCents: number;
  actor: ActorRef;
  now?: Date;
  /** the post's one-time token: a second post with it is refused (409), nothing stored twice */
  once?: OnceToken;
}

/**
 * Records a payment against an invoice, inside the caller's transaction: part payments add up;
 * a payment above what is owed is refused and nothing is stored.
 */
export async function recordPaymentIn(
  trx: WriteTransaction,
  input: RecordPaymentInput,
  /** the invoice as this transaction just issued it (nothing paid yet), not read again */
  issued?: { id: string; number: string; total_cents: number; buyer_kind: BuyerKind; buyer_id: string | null },
): Promise<{ id: string; owed_cents: number }> {
  const nowDate = input.now ?? new Date();
  const invoice = issued
    ? { ...issued, paid_cents: 0 }
    : await trx
        .selectFrom("invoices")
        .select(["id", "number", "total_cents", "paid_cents", "buyer_kind", "buyer_id"])
        .where("id", "=", input.invoiceId)
        .executeTakeFirst();
  if (!invoice) throw notFound("Invoice");
  if (!Number.isInteger(input.amountCents) || input.amountCents < 1)
    throw invalid("Enter an amount of at least $0.01", { amount: "Enter an amount of at least $0.01" });
  const owed = Number(invoice.total_cents) - Number(invoice.paid_cents);
  if (input.amountCents > owed) throw invalid(OVERPAYMENT, { amount: OVERPAYMENT });
  const id = crypto.randomUUID();
  const actor = actorOf(input.actor);
  await writeLater(
    trx,
    trx.insertInto("payments").values({
      id,
      invoice_id: invoice.id,
      method: input.method,
      reference: input.reference.trim(),
      received_on: input.receivedOn,
      amount_cents: input.amountCents,
      recorded_by: actor.id,
      recorded_at: nowDate.toISOString(),
    }),
  );
  await writeLater(
    trx,
    trx
      .updateTable("invoices")
      .set({ paid_cents: sql`paid_cents + ${input.amountCents}` })
      .where("id", "=", invoice.id),
  );
  // paid in full by this payment: the one moment an invoice becomes paid
  if (input.amountCents === owed) await queueWebhookEvent(trx, { type: "invoice.paid", subjectId: invoice.id, now: nowDate });
  await recordAudit(trx, {
    action: "payment.recorded",
    actor,
    subject: { type: "invoice", id: invoice.id, userId: invoice.buyer_kind === "learner" ? invoice.buyer_id : null },
    detail: `${invoice.number} ${input.method}`,
    now: nowDate,
  });
  return { id, owed_cents: owed - input.amountCents };
}

/** recordPaymentIn in its own write transaction, spending the post's token first (a repeat is told so, not "more than is owed"). */
export async function recordPayment(db: DB, input: RecordPaymentInput): Promise<{ id: string; owed_cents: number }> {
  const actor = actorOf(input.actor);
  return storedOnce(db, input.once, actor.id, () =>
    writeTransaction(db, async (trx) => {
      await spendToken(trx, input.once, { userId: actor.id, purpose: "payment", now: input.now ?? new Date() });
      return recordPaymentIn(trx, input);
    }),
  );
}

export interface IssueCreditNoteInput {
  invoiceId: string;
  amountCents: number;
  reason: string;
  actor: ActorRef;
  now?: Date;
  /** the post's one-time token: a second post with it is refused (409), nothing stored twice */
  once?: OnceToken;
}

/**
 * A credit note: a refund against an invoice. It cannot exceed what was paid less earlier credit
 * notes. It names the refund policy version the enrolment, or the employer's group booking, was
 * made under. Numbered in its own series.
 */
export async function issueCreditNote(db: DB, input: IssueCreditNoteInput): Promise<{ id: string; number: string }> {
  const nowDate = input.now ?? new Date();
  const reason = input.reason.trim();
  if (!reason) throw invalid("Give the reason for the refund", { reason: "Give the reason for the refund" });
  if (!Number.isInteger(input.amountCents) || input.amountCents < 1)
    throw invalid("Enter an amount of at least $0.01", { amount: "Enter an amount of at least $0.01" });
  const actor = actorOf(input.actor);
  return storedOnce(db, input.once, actor.id, () =>
    writeTransaction(db, async (trx) => {
      await spendToken(trx, input.once, { userId: actor.id, purpose: "credit_note", now: nowDate });
      const invoice = await trx
        .selectFrom("invoices")
        .select(["id", "number", "total_cents", "gst_cents", "paid_cents", "credited_cents", "source_kind", "source_id", "buyer_kind", "buyer_id"])
        .where("id", "=", input.invoiceId)
        .executeTakeFirst();
      if (!invoice) throw notFound("Invoice");
      const refundable = Number(invoice.paid_cents) - Number(invoice.credited_cents);
      if (input.amountCents > refundable) throw invalid(CREDIT_EXCEEDS_PAID, { amount: CREDIT_EXCEEDS_PAID });
      // the refund is decided under the policy in force when the learner enrolled or the employer booked
      const policy = await refundPolicyOfInvoiceSource(trx, { kind: invoice.source_kind, id: invoice.source_id });
      const number = documentNumber("CN", await nextInSeries(trx, "credit_note"));
      const id = crypto.randomUUID();
      await trx
        .insertInto("credit_notes")
        .values({
          id,
          number,
          invoice_id: invoice.id,
          issue_date: organisationToday(nowDate),
          reason,
          amount_cents: input.amountCents,
          gst_cents: creditGst(input.amountCents, { total_cents: Number(invoice.total_cents), gst_cents: Number(invoice.gst_cents) }),
          refund_policy_version: policy,
          issued_by: actor.id,
          issued_at: nowDate.toISOString(),
        })
        .execute();
      await trx
        .updateTable("invoices")
        .set({ credited_cents: sql`credited_cents + ${input.amountCents}` })
        .where("id", "=", invoice.id)
        .execute();
      await recordAudit(trx, {
        action: "credit_note.issued",
        actor,
        subject: { type: "invoice", id: invoice.id, userId: invoice.buyer_kind === "learner" ? invoice.buyer_id : null },
        detail: `${number} against ${invoice.number}`,
        now: nowDate,
      });
      return { id, number };
    }),
  );
}
