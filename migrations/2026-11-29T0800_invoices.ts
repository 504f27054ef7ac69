import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Tax invoices, payments and credit notes.
 *
 * - courses.gst_treatment: 'gst_free' (an accredited VET course) or 'taxable' (10%); every course
 *   so far is an accredited unit, so 'gst_free'.
 * - enrollments.refund_policy_version: the refund policy shown when the learner enrolled (a
 *   refund is decided under it); null for enrolments made before it was kept.
 * - finance_settings: one row (id 1): the seller's name and ABN printed on every invoice, payment
 *   terms in days, and the sales account code of the accounting export.
 * - finance_sequences: one counter row per document series ('invoice', 'credit_note'), updated in
 *   the transaction that inserts the document, so numbers run without gaps.
 * - invoices: the buyer (an employer or a learner) and the seller copied onto the invoice when it
 *   is issued, so a tax invoice never changes when either is later edited; buyer_id names the
 *   employer or user without a foreign key. The source is the booking or enrolment it bills.
 *   Totals in integer cents; paid_cents and credited_cents are kept by the model in the same
 *   transaction as each payment and credit note.
 * - invoice_lines: description, quantity, unit price (GST-inclusive cents), the GST treatment and
 *   the line's GST, rounded per line.
 * - payments: method, reference, the day received, amount.
 * - credit_notes: a refund against an invoice, numbered in its own series, with its GST share and
 *   the refund policy version it was decided under.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("courses").addColumn("gst_treatment", "text", (c) => c.notNull().defaultTo("gst_free")).execute();
  await db.schema.alterTable("enrollments").addColumn("refund_policy_version", "text").execute();

  await db.schema
    .createTable("finance_settings")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("seller_name", "text", (c) => c.notNull())
    .addColumn("seller_abn", "text", (c) => c.notNull())
    .addColumn("payment_terms_days", "integer", (c) => c.notNull())
    .addColumn("sales_account_code", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db
    .insertInto("finance_settings")
    .values({ id: 1, seller_name: "Summit Crane & Rigging Training Pty Ltd", seller_abn: "51824753556", payment_terms_days: 14, sales_account_code: "200", updated_at: "2026-11-29T08:00:00.000Z" })
    .execute();

  await db.schema
    .createTable("finance_sequences")
    .addColumn("series", "text", (c) => c.primaryKey())
    .addColumn("last_value", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("invoices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("seller_name", "text", (c) => c.notNull())
    .addColumn("seller_abn", "text", (c) => c.notNull())
    .addColumn("buyer_kind", "text", (c) => c.notNull())
    .addColumn("buyer_id", "text", (c) => c.notNull())
    .addColumn("buyer_name", "text", (c) => c.notNull())
    .addColumn("buyer_abn", "text")
    .addColumn("buyer_email", "text", (c) => c.notNull())
    .addColumn("buyer_address_line1", "text")
    .addColumn("buyer_address_line2", "text")
    .addColumn("buyer_city", "text")
    .addColumn("buyer_region", "text")
    .addColumn("buyer_postcode", "text")
    .addColumn("buyer_country", "text")
    .addColumn("source_kind", "text", (c) => c.notNull())
    .addColumn("source_id", "text", (c) => c.notNull())
    .addColumn("issue_date", "text", (c) => c.notNull())
    .addColumn("due_date", "text", (c) => c.notNull())
    .addColumn("subtotal_cents", "integer", (c) => c.notNull())
    .addColumn("gst_cents", "integer", (c) => c.notNull())
    .addColumn("total_cents", "integer", (c) => c.notNull())
    .addColumn("paid_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credited_cents", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("issued_by", "text", (c) => c.references("users.id"))
    .addColumn("issued_at", "text", (c) => c.notNull())
    .addUniqueConstraint("invoices_one_per_source", ["source_kind", "source_id"])
    .execute();
  await db.schema.createIndex("invoices_issue_date").on("invoices").columns(["issue_date", "number"]).execute();
  await db.schema.createIndex("invoices_buyer").on("invoices").columns(["buyer_kind", "buyer_id", "issue_date"]).execute();
  await db.schema.createIndex("invoices_due_date").on("invoices").columns(["due_date"]).execute();

  await db.schema
    .createTable("invoice_lines")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("invoice_id", "text", (c) => c.notNull().references("invoices.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("course_id", "text", (c) => c.references("courses.id"))
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull())
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("gst_treatment", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("gst_cents", "integer", (c) => c.notNull())
    .addUniqueConstraint("invoice_lines_position", ["invoice_id", "position"])
    .execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("invoice_id", "text", (c) => c.notNull().references("invoices.id"))
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("received_on", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("recorded_by", "text", (c) => c.references("users.id"))
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payments_invoice").on("payments").columns(["invoice_id", "received_on"]).execute();

  await db.schema
    .createTable("credit_notes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("number", "text", (c) => c.notNull().unique())
    .addColumn("invoice_id", "text", (c) => c.notNull().references("invoices.id"))
    .addColumn("issue_date", "text", (c) => c.notNull())
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("amount_cents", "integer", (c) => c.notNull())
    .addColumn("gst_cents", "integer", (c) => c.notNull())
    .addColumn("refund_policy_version", "text")
    .addColumn("issued_by", "text", (c) => c.references("users.id"))
    .addColumn("issued_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("credit_notes_invoice").on("credit_notes").columns(["invoice_id", "issue_date"]).execute();
  await db.schema.createIndex("credit_notes_issue_date").on("credit_notes").columns(["issue_date", "number"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["credit_notes", "payments", "invoice_lines", "invoices", "finance_sequences", "finance_settings"]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.alterTable("enrollments").dropColumn("refund_policy_version").execute();
  await db.schema.alterTable("courses").dropColumn("gst_treatment").execute();
}
