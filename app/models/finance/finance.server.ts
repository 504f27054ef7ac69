import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from "kysely";
import { cursorBatches, type DB } from "#db/connection";
import type { Database } from "#db/schema";
import type { InvoicesTable } from "#db/schema-finance";
import type { InvoiceStatus } from "~/rules/invoice-rules";
import { invoiceStatus } from "~/rules/invoice-rules";
import { recordAuditAlone, actorOf, type ActorRef } from "../audit.server";
import { financeSettings } from "./invoice.server";
import { parseAddress, stateAbbreviation } from "./invoice-address";
import { employerOf } from "../employers/employer-scope.server";
import { afterKey, BATCH_ROWS, flattened, keysetRows } from "../batches.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { XERO_COLUMNS, XERO_TAX_TYPES } from "~/schemas/invoice-text";

/**
 * The office's view of invoices (/admin/finance and /api): filtered lists with their totals
 * summed by the database, one invoice with its lines, payments and credit notes, and the
 * accounting export of a period.
 */

export interface InvoiceFilters {
  status?: InvoiceStatus | null;
  /** issue dates from and to (YYYY-MM-DD, inclusive) */
  from?: string | null;
  to?: string | null;
  /** the buyer's name, email or ABN, in part */
  buyer?: string | null;
}

export const FINANCE_PAGE_SIZE = 50;

/**
 * What is still owed on an invoice: its total less what was paid, worked out by the database for
 * every list, page, PDF and /api answer that shows it. A credit note refunds money paid, so its
 * amount comes off the total and off what was paid alike and leaves this figure unchanged.
 */
export function owedCents(table: "invoices" | "invoice_sums" | "i" = "invoices") {
  return sql<number>`${sql.ref(`${table}.total_cents`)} - ${sql.ref(`${table}.paid_cents`)}`;
}

/**
 * Whose invoices a read reaches: a learner's own (bought for themselves), those of an employer
 * user's own organisation, or every one for the office (learnerId null).
 */
export type InvoiceScope = { learnerId: string | null } | { employerUserId: string };

/** A buyer's scope: never the office's. */
export type BuyerScope = { learnerId: string } | { employerUserId: string };

/**
 * The scope as a condition on `invoices`, the one place a buyer's reach over invoices and the
 * credit notes against them is written: anything outside it reads as if it did not exist.
 */
function ownedBy(db: DB, scope: InvoiceScope) {
  return (eb: ExpressionBuilder<Database, "invoices">) => {
    if ("employerUserId" in scope)
      return eb.and([eb("invoices.buyer_kind", "=", "employer"), eb("invoices.buyer_id", "=", employerOf(db, scope.employerUserId))]);
    if (scope.learnerId !== null) return eb.and([eb("invoices.buyer_kind", "=", "learner"), eb("invoices.buyer_id", "=", scope.learnerId)]);
    return eb.and([]);
  };
}

/** The SQL condition of a status on `today` (the same rule as invoiceStatus). */
function statusCondition(status: InvoiceStatus, today: string): Expression<SqlBool> {
  switch (status) {
    case "credited":
      return sql<SqlBool>`(invoices.total_cents > 0 and invoices.credited_cents >= invoices.total_cents)`;
    case "paid":
      return sql<SqlBool>`(invoices.paid_cents >= invoices.total_cents and not (invoices.total_cents > 0 and invoices.credited_cents >= invoices.total_cents))`;
    case "overdue":
      return sql<SqlBool>`(invoices.paid_cents < invoices.total_cents and invoices.due_date < ${today})`;
    case "part_paid":
      return sql<SqlBool>`(invoices.paid_cents > 0 and invoices.paid_cents < invoices.total_cents and invoices.due_date >= ${today})`;
    case "owed":
      return sql<SqlBool>`(invoices.paid_cents = 0 and invoices.total_cents > 0 and invoices.due_date >= ${today})`;
  }
}

function filtered(db: DB, filters: InvoiceFilters, today: string) {
  let q = db.selectFrom("invoices");
  if (filters.status) q = q.where(statusCondition(filters.status, today));
  if (filters.from) q = q.where("issue_date", ">=", filters.from);
  if (filters.to) q = q.where("issue_date", "<=", filters.to);
  if (filters.buyer) {
    const term = `%${filters.buyer.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const abn = `%${filters.buyer.replace(/\D/g, "") || "-"}%`;
    q = q.where(
      sql<SqlBool>`(lower(invoices.buyer_name) like ${term} escape '\\' or lower(invoices.buyer_email) like ${term} escape '\\' or lower(invoices.number) like ${term} escape '\\' or invoices.buyer_abn like ${abn})`,
    );
  }
  return q;
}

export interface FinanceTotals {
  count: number;
  total_cents: number;
  paid_cents: number;
  owed_cents: number;
  overdue_cents: number;
  credited_cents: number;
}

/** The totals of every invoice matching the filters, summed over the invoices themselves: the only way once a buyer is searched for. */
export function totalsByScan(db: DB, filters: InvoiceFilters, today: string) {
  return filtered(db, filters, today)
    .select([
      sql<number>`count(*)`.as("count"),
      sql<number>`coalesce(sum(invoices.total_cents), 0)`.as("total_cents"),
      sql<number>`coalesce(sum(invoices.paid_cents), 0)`.as("paid_cents"),
      sql<number>`coalesce(sum(${owedCents()}), 0)`.as("owed_cents"),
      sql<number>`coalesce(sum(case when invoices.paid_cents < invoices.total_cents and invoices.due_date < ${today} then invoices.total_cents - invoices.paid_cents else 0 end), 0)`.as(
        "overdue_cents",
      ),
      sql<number>`coalesce(sum(invoices.credited_cents), 0)`.as("credited_cents"),
    ])
    .executeTakeFirstOrThrow();
}

/** statusCondition over invoice_sums' facts: the same invoices, a group of them at a time. */
function sumsStatusCondition(status: InvoiceStatus, today: string): Expression<SqlBool> {
  switch (status) {
    case "credited":
      return sql<SqlBool>`(invoice_sums.credited = 1)`;
    case "paid":
      return sql<SqlBool>`(invoice_sums.paid = 1 and invoice_sums.credited = 0)`;
    case "overdue":
      return sql<SqlBool>`(invoice_sums.paid = 0 and invoice_sums.due_date < ${today})`;
    case "part_paid":
      return sql<SqlBool>`(invoice_sums.unpaid = 0 and invoice_sums.paid = 0 and invoice_sums.due_date >= ${today})`;
    case "owed":
      return sql<SqlBool>`(invoice_sums.unpaid = 1 and invoice_sums.paid = 0 and invoice_sums.due_date >= ${today})`;
  }
}

/**
 * The same totals as totalsByScan for filters without a buyer, from the sums triggers keep per
 * issue date, due date and status facts (migration 2026-12-05T1510): a few rows per issue day
 * instead of every invoice (1,500,000 at a national provider's volume).
 */
export function totalsFromSums(db: DB, filters: InvoiceFilters, today: string) {
  let q = db.selectFrom("invoice_sums");
  if (filters.status) q = q.where(sumsStatusCondition(filters.status, today));
  if (filters.from) q = q.where("issue_date", ">=", filters.from);
  if (filters.to) q = q.where("issue_date", "<=", filters.to);
  return q
    .select([
      sql<number>`coalesce(sum(invoice_sums.n), 0)`.as("count"),
      sql<number>`coalesce(sum(invoice_sums.total_cents), 0)`.as("total_cents"),
      sql<number>`coalesce(sum(invoice_sums.paid_cents), 0)`.as("paid_cents"),
      sql<number>`coalesce(sum(${owedCents("invoice_sums")}), 0)`.as("owed_cents"),
      sql<number>`coalesce(sum(case when invoice_sums.paid = 0 and invoice_sums.due_date < ${today} then invoice_sums.total_cents - invoice_sums.paid_cents else 0 end), 0)`.as(
        "overdue_cents",
      ),
      sql<number>`coalesce(sum(invoice_sums.credited_cents), 0)`.as("credited_cents"),
    ])
    .executeTakeFirstOrThrow();
}

/** Invoices matching the filters, newest first, a page at a time, with the totals of every match (summed in SQL). */
export async function listInvoices(db: DB, filters: InvoiceFilters, options: { page?: number; now?: Date } = {}) {
  const today = organisationToday(options.now);
  const page = Math.max(1, options.page ?? 1);
  const [rows, sums] = await Promise.all([
    // the page's ids first, then their rows: a status filter finds its ids in the unpaid
    // invoices' index without reading the rows it passes (migration 2026-12-05T1530)
    db
      .selectFrom("invoices")
      .select([
        "id",
        "number",
        "buyer_kind",
        "buyer_id",
        "buyer_name",
        "buyer_abn",
        "issue_date",
        "due_date",
        "total_cents",
        "gst_cents",
        "paid_cents",
        "credited_cents",
        owedCents().as("owed_cents"),
      ])
      .where(
        "id",
        "in",
        filtered(db, filters, today)
          .select("invoices.id")
          .orderBy("issue_date", "desc")
          .orderBy("number", "desc")
          .limit(FINANCE_PAGE_SIZE)
          .offset((page - 1) * FINANCE_PAGE_SIZE),
      )
      .orderBy("issue_date", "desc")
      .orderBy("number", "desc")
      .execute(),
    filters.buyer ? totalsByScan(db, filters, today) : totalsFromSums(db, filters, today),
  ]);
  const totals: FinanceTotals = {
    count: Number(sums.count),
    total_cents: Number(sums.total_cents),
    paid_cents: Number(sums.paid_cents),
    owed_cents: Number(sums.owed_cents),
    overdue_cents: Number(sums.overdue_cents),
    credited_cents: Number(sums.credited_cents),
  };
  return {
    invoices: rows.map((r) => ({ ...r, owed_cents: Number(r.owed_cents), status: invoiceStatus(r, today) })),
    totals,
    page,
    pages: Math.max(1, Math.ceil(totals.count / FINANCE_PAGE_SIZE)),
  };
}

/**
 * One invoice with its lines, payments and credit notes. `learnerId` scopes it to a learner's own
 * invoices (any other is not found, as if it did not exist); staff pass null.
 */
export async function getInvoice(db: DB, id: string, scope: InvoiceScope, now: Date = new Date()) {
  const invoice = await db
    .selectFrom("invoices")
    .selectAll()
    .select(owedCents().as("owed_cents"))
    .where("id", "=", id)
    .where(ownedBy(db, scope))
    .executeTakeFirst();
  if (!invoice) return null;
  const [lines, payments, creditNotes] = await Promise.all([
    db
      .selectFrom("invoice_lines")
      .select(["position", "course_id", "description", "quantity", "unit_price_cents", "gst_treatment", "amount_cents", "gst_cents"])
      .where("invoice_id", "=", id)
      .orderBy("position")
      .execute(),
    db
      .selectFrom("payments")
      .select(["id", "method", "reference", "received_on", "amount_cents", "recorded_at"])
      .where("invoice_id", "=", id)
      .orderBy("received_on")
      .orderBy("recorded_at")
      .execute(),
    db.selectFrom("credit_notes").select(CREDIT_NOTE_COLUMNS).where("invoice_id", "=", id).orderBy("number").execute(),
  ]);
  const today = organisationToday(now);
  return {
    ...invoice,
    owed_cents: Number(invoice.owed_cents),
    refundable_cents: invoice.paid_cents - invoice.credited_cents,
    status: invoiceStatus(invoice, today),
    lines,
    payments,
    credit_notes: creditNotes,
  };
}

export type InvoiceDetail = NonNullable<Awaited<ReturnType<typeof getInvoice>>>;

/** What a page shows of a credit note against an invoice. */
const CREDIT_NOTE_COLUMNS = ["id", "number", "issue_date", "reason", "amount_cents", "gst_cents", "refund_policy_version"] as const;

/**
 * A buyer's own invoices, newest first: what each is, what is owed, and the credit notes issued
 * against it (two statements, however many invoices).
 */
async function buyerInvoices(db: DB, scope: BuyerScope, now: Date) {
  const today = organisationToday(now);
  const [rows, notes] = await Promise.all([
    db
      .selectFrom("invoices")
      .select(["id", "number", "issue_date", "due_date", "total_cents", "gst_cents", "paid_cents", "credited_cents", owedCents().as("owed_cents")])
      .where(ownedBy(db, scope))
      .orderBy("issue_date", "desc")
      .orderBy("number", "desc")
      .execute(),
    db
      .selectFrom("credit_notes")
      .innerJoin("invoices", "invoices.id", "credit_notes.invoice_id")
      .select(["credit_notes.invoice_id", ...CREDIT_NOTE_COLUMNS.map((c) => `credit_notes.${c}` as const)])
      .where(ownedBy(db, scope))
      .orderBy("credit_notes.number")
      .execute(),
  ]);
  const notesOf = new Map<string, Omit<(typeof notes)[number], "invoice_id">[]>();
  for (const { invoice_id, ...note } of notes) notesOf.set(invoice_id, [...(notesOf.get(invoice_id) ?? []), note]);
  return rows.map((r) => ({ ...r, owed_cents: Number(r.owed_cents), status: invoiceStatus(r, today), credit_notes: notesOf.get(r.id) ?? [] }));
}

/** A learner's own invoices, newest first, each with its credit notes. */
export function listLearnerInvoices(db: DB, learnerId: string, now: Date = new Date()) {
  return buyerInvoices(db, { learnerId }, now);
}

/** The invoices of an employer user's own organisation, newest first: what each is, what is owed, and its credit notes. */
export function listEmployerInvoices(db: DB, userId: string, now: Date = new Date()) {
  return buyerInvoices(db, { employerUserId: userId }, now);
}

/**
 * A credit note, with its invoice's parties, scoped like getInvoice: a buyer reaches only those
 * against their own invoices; any other id is not found, as if it did not exist.
 */
export async function getCreditNote(db: DB, id: string, scope: InvoiceScope) {
  const note = await db
    .selectFrom("credit_notes")
    .innerJoin("invoices", "invoices.id", "credit_notes.invoice_id")
    .select([
      "credit_notes.id",
      "credit_notes.number",
      "credit_notes.issue_date",
      "credit_notes.reason",
      "credit_notes.amount_cents",
      "credit_notes.gst_cents",
      "credit_notes.refund_policy_version",
      "invoices.id as invoice_id",
      "invoices.number as invoice_number",
      "invoices.issue_date as invoice_issue_date",
      "invoices.seller_name",
      "invoices.seller_abn",
      "invoices.buyer_name",
      "invoices.buyer_abn",
      "invoices.buyer_email",
    ])
    .where("credit_notes.id", "=", id)
    .where(ownedBy(db, scope))
    .executeTakeFirst();
  return note ?? null;
}

/** DD/MM/YYYY, as the accounting import reads Australian dates. */
const xeroDate = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The buyer's address fields of an invoice (or of the invoice a credit note is against). */
type BuyerAddressRow = Pick<
  Selectable<InvoicesTable>,
  "buyer_address_line1" | "buyer_address_line2" | "buyer_city" | "buyer_region" | "buyer_postcode" | "buyer_country"
>;

/**
 * The address columns of the import. Invoices issued before the address was kept field by field
 * carry the state as its AVETMISS code, or an employer's "Town NSW 2000" as their second line:
 * both are read back into the town, state and postcode columns here.
 */
function xeroAddress(r: BuyerAddressRow) {
  const typed =
    r.buyer_city || r.buyer_region || r.buyer_postcode ? null : parseAddress([r.buyer_address_line1, r.buyer_address_line2].filter(Boolean).join("\n"));
  const address =
    typed && typed.city
      ? typed
      : {
          line1: r.buyer_address_line1,
          line2: r.buyer_address_line2,
          city: r.buyer_city,
          region: r.buyer_region,
          postcode: r.buyer_postcode,
          country: r.buyer_country,
        };
  return {
    POAddressLine1: address.line1,
    POAddressLine2: address.line2,
    POCity: address.city,
    PORegion: stateAbbreviation(address.region),
    POPostalCode: address.postcode,
    POCountry: address.country ?? r.buyer_country,
  };
}

const BUYER_COLUMNS = [
  "invoices.buyer_name",
  "invoices.buyer_email",
  "invoices.buyer_address_line1",
  "invoices.buyer_address_line2",
  "invoices.buyer_city",
  "invoices.buyer_region",
  "invoices.buyer_postcode",
  "invoices.buyer_country",
] as const;

/**
 * The invoices and credit notes issued in a period (issue dates from..to, inclusive) in the
 * sales-invoice import layout of the accounting package: one row per invoice line, the invoice's
 * columns repeated on each; amounts GST-inclusive (import them as "Tax inclusive"); the tax type
 * names a taxable line "GST on Income" and a GST-free one "GST Free Income". A credit note is
 * imported through the same file as a document of its own number whose total is negative (a
 * quantity of -1): the package files such a document as a credit note. Its amount is split by the
 * credited invoice's lines: the taxable part (its GST × 11, at most the amount) and the GST-free
 * rest, each a row with its tax type. Recorded in the audit trail (a bulk read of buyers' names
 * and emails) before the first row is read, so the download's first byte (the header line) does
 * not wait for the counts the entry gives: a year's invoices at a national provider's volume took
 * a second to count.
 */
export async function exportXeroCsv(
  db: DB,
  input: { from: string; to: string; actor: ActorRef; now?: Date },
): Promise<{ columns: typeof XERO_COLUMNS; rows: AsyncGenerator<XeroRow, void, undefined> }> {
  const settings = await financeSettings(db);
  return { columns: XERO_COLUMNS, rows: recordedThenRead(db, input, settings.sales_account_code) };
}

/** The audit entry of a Xero export, written before its rows are read; its counts are the file's documents. */
async function* recordedThenRead(
  db: DB,
  input: { from: string; to: string; actor: ActorRef; now?: Date },
  accountCode: string,
): AsyncGenerator<XeroRow, void, undefined> {
  const counts = await db
    .selectNoFrom((eb) => [
      // every invoice has its lines (issueInvoice refuses one without and writes them with it;
      // nothing removes a line), so the period's invoices are the file's: counted from the
      // (issue_date, number) index alone, where asking each for a line read every line (a month
      // at the national volume: 1.5 s on three processes, five times a minute under load)
      eb
        .selectFrom("invoices")
        .select((c) => c.fn.countAll<number>().as("n"))
        .where("issue_date", ">=", input.from)
        .where("issue_date", "<=", input.to)
        .as("invoices"),
      eb
        .selectFrom("credit_notes")
        .select((c) => c.fn.countAll<number>().as("n"))
        .where("issue_date", ">=", input.from)
        .where("issue_date", "<=", input.to)
        .as("notes"),
    ])
    .executeTakeFirstOrThrow();
  await recordAuditAlone(db, {
    action: "finance.exported",
    actor: actorOf(input.actor),
    detail: `${input.from} to ${input.to}: ${Number(counts.invoices ?? 0)} invoices, ${Number(counts.notes ?? 0)} credit notes`,
    now: input.now,
  });
  yield* xeroRows(db, input, accountCode);
}

type XeroRow = Record<(typeof XERO_COLUMNS)[number], string | number | null>;

/**
 * The period's invoices with their lines, by issue date and number, then position. PostgreSQL
 * reads them as one statement through a cursor (a month at 1,500,000 invoices took 476
 * statements a batch at a time). SQLite reads the invoices by keyset over their own
 * (issue_date, number) index, a batch at a time, and each batch's lines by their invoices: keyed
 * on the three columns of the two tables at once, PostgreSQL's planner could not bound the index
 * range and read the rest of the period for every batch (0.8-2.4 s a batch for a month at
 * 1,500,000 invoices). Numbers are given in issue order, so this is number order too.
 */
async function* invoiceLinesInOrder(db: DB, input: { from: string; to: string }) {
  const invoiceColumns = [...BUYER_COLUMNS, "invoices.id", "invoices.number", "invoices.source_kind", "invoices.issue_date", "invoices.due_date"] as const;
  const lineColumns = ["invoice_id", "position", "description", "quantity", "unit_price_cents", "gst_treatment", "gst_cents"] as const;
  // PostgreSQL reads the period's lines with their invoices as one statement, through a cursor
  const cursor = cursorBatches(
    db,
    db
      .selectFrom("invoices")
      .innerJoin("invoice_lines", "invoice_lines.invoice_id", "invoices.id")
      .select(invoiceColumns)
      .select(lineColumns.map((c) => `invoice_lines.${c}` as const))
      .where("invoices.issue_date", ">=", input.from)
      .where("invoices.issue_date", "<=", input.to)
      .orderBy("invoices.issue_date")
      .orderBy("invoices.number")
      .orderBy("invoice_lines.position"),
    BATCH_ROWS,
  );
  if (cursor) {
    yield* flattened(cursor);
    return;
  }
  const invoices = (after: { issue_date: string; number: string } | null) => {
    let query = db.selectFrom("invoices").select(invoiceColumns).where("invoices.issue_date", ">=", input.from).where("invoices.issue_date", "<=", input.to);
    if (after)
      query = query.where(
        afterKey([
          ["invoices.issue_date", "asc", after.issue_date],
          ["invoices.number", "asc", after.number],
        ]),
      );
    return query.orderBy("invoices.issue_date").orderBy("invoices.number").limit(BATCH_ROWS).execute();
  };
  let after: { issue_date: string; number: string } | null = null;
  for (;;) {
    const batch = await invoices(after);
    if (batch.length === 0) return;
    const lines = await db
      .selectFrom("invoice_lines")
      .select(lineColumns)
      .where(
        "invoice_id",
        "in",
        batch.map((i) => i.id),
      )
      .orderBy("invoice_id")
      .orderBy("position")
      .execute();
    const linesOf = new Map<string, typeof lines>();
    for (const line of lines) {
      const of = linesOf.get(line.invoice_id);
      if (of) of.push(line);
      else linesOf.set(line.invoice_id, [line]);
    }
    for (const invoice of batch) for (const line of linesOf.get(invoice.id) ?? []) yield { ...invoice, ...line };
    if (batch.length < BATCH_ROWS) return;
    after = batch[batch.length - 1]!;
  }
}

/** The Xero file's rows: each invoice line by invoice number and position, then each credit note's parts, a batch at a time. */
async function* xeroRows(db: DB, input: { from: string; to: string }, accountCode: string): AsyncGenerator<XeroRow, void, undefined> {
  const lines = invoiceLinesInOrder(db, input);
  const notes = keysetRows((after: { issue_date: string; number: string } | null, limit) => {
    let query = db
      .selectFrom("credit_notes")
      .innerJoin("invoices", "invoices.id", "credit_notes.invoice_id")
      .select((eb) => [
        ...BUYER_COLUMNS,
        "credit_notes.number",
        "credit_notes.issue_date",
        "credit_notes.reason",
        "credit_notes.amount_cents",
        "credit_notes.gst_cents",
        "invoices.number as invoice_number",
        eb
          .selectFrom("invoice_lines")
          .select((l) => l.fn.countAll<number>().as("n"))
          .whereRef("invoice_lines.invoice_id", "=", "invoices.id")
          .where("invoice_lines.gst_treatment", "=", "gst_free")
          .as("free_lines"),
      ])
      .where("credit_notes.issue_date", ">=", input.from)
      .where("credit_notes.issue_date", "<=", input.to);
    if (after)
      query = query.where(
        afterKey([
          ["credit_notes.issue_date", "asc", after.issue_date],
          ["credit_notes.number", "asc", after.number],
        ]),
      );
    return query.orderBy("credit_notes.issue_date").orderBy("credit_notes.number").limit(limit).execute();
  });
  for await (const r of lines)
    yield xeroRow(r, accountCode, {
      number: r.number,
      reference: r.source_kind === "booking" ? "Group booking" : "Enrolment",
      date: r.issue_date,
      due: r.due_date,
      description: r.description,
      quantity: r.quantity,
      unitAmount: dollars(r.unit_price_cents),
      taxType: XERO_TAX_TYPES[r.gst_treatment],
      taxAmount: dollars(r.gst_cents),
    });
  for await (const n of notes) {
    const taxable = Number(n.free_lines) > 0 ? Math.min(n.amount_cents, n.gst_cents * 11) : n.amount_cents;
    const parts = [
      { treatment: "taxable" as const, cents: n.gst_cents > 0 ? taxable : 0, gst: n.gst_cents },
      { treatment: "gst_free" as const, cents: n.gst_cents > 0 ? n.amount_cents - taxable : n.amount_cents, gst: 0 },
    ].filter((p) => p.cents > 0);
    for (const p of parts)
      yield xeroRow(n, accountCode, {
        number: n.number,
        reference: `Credit note against ${n.invoice_number}`,
        date: n.issue_date,
        due: n.issue_date,
        description: n.reason,
        quantity: -1,
        unitAmount: dollars(p.cents),
        taxType: XERO_TAX_TYPES[p.treatment],
        // a number, not text: the CSV writer defuses text starting with "-" (a formula to a spreadsheet)
        taxAmount: -p.gst / 100,
      });
  }
}

/**
 * One row of the file, written out whole (one object of one shape, where spreading the address
 * and the fixed columns into each row was a fifth of the file's CPU at the national volume).
 */
function xeroRow(
  buyer: BuyerAddressRow & { buyer_name: string; buyer_email: string | null },
  accountCode: string,
  d: {
    number: string;
    reference: string;
    date: string;
    due: string;
    description: string;
    quantity: number;
    unitAmount: string;
    taxType: string;
    taxAmount: string | number;
  },
): XeroRow {
  const a = xeroAddress(buyer);
  return {
    ContactName: buyer.buyer_name,
    EmailAddress: buyer.buyer_email,
    POAddressLine1: a.POAddressLine1,
    POAddressLine2: a.POAddressLine2,
    POAddressLine3: null,
    POAddressLine4: null,
    POCity: a.POCity,
    PORegion: a.PORegion,
    POPostalCode: a.POPostalCode,
    POCountry: a.POCountry,
    InvoiceNumber: d.number,
    Reference: d.reference,
    InvoiceDate: xeroDate(d.date),
    DueDate: xeroDate(d.due),
    InventoryItemCode: null,
    Description: d.description,
    Quantity: d.quantity,
    UnitAmount: d.unitAmount,
    Discount: null,
    AccountCode: accountCode,
    TaxType: d.taxType,
    TaxAmount: d.taxAmount,
    TrackingName1: null,
    TrackingOption1: null,
    TrackingName2: null,
    TrackingOption2: null,
    Currency: "AUD",
  };
}
