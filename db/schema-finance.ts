import type { ColumnType } from "kysely";

/**
 * The tables of tax invoices, payments and credit notes (migration 2026-11-29T0800). Amounts are
 * integer cents; days YYYY-MM-DD on the RTO's calendar; instants ISO 8601 text.
 */

type Optional = ColumnType<string | null, string | null | undefined, string | null>;
type Defaulted<T> = ColumnType<T, T | undefined, T>;

/** A course's GST: GST-free (an accredited VET course) or taxable at 10%. */
export type GstTreatment = "gst_free" | "taxable";
/** Who an invoice is made out to. */
export type BuyerKind = "employer" | "learner";
/** What an invoice bills: an employer's group booking or a learner's own enrolment. */
export type InvoiceSourceKind = "booking" | "enrollment" | "recognition";
/** How a payment was received ('card': the self-enrolment card payment or a card taken elsewhere). */
export type PaymentMethod = "bank_transfer" | "card" | "employer_account";
/** A document series numbered without gaps. */
export type FinanceSeries = "invoice" | "credit_note";

export interface FinanceSettingsTable {
  id: number;
  seller_name: string;
  seller_abn: string;
  payment_terms_days: number;
  sales_account_code: string;
  updated_by: Optional;
  updated_at: string;
}

export interface FinanceSequencesTable {
  series: FinanceSeries;
  last_value: number;
}

export interface InvoicesTable {
  id: string;
  number: string;
  seller_name: string;
  seller_abn: string;
  buyer_kind: BuyerKind;
  buyer_id: string;
  buyer_name: string;
  buyer_abn: Optional;
  buyer_email: string;
  buyer_address_line1: Optional;
  buyer_address_line2: Optional;
  buyer_city: Optional;
  buyer_region: Optional;
  buyer_postcode: Optional;
  buyer_country: Optional;
  source_kind: InvoiceSourceKind;
  source_id: string;
  issue_date: string;
  due_date: string;
  /** the lines' amounts less their GST */
  subtotal_cents: number;
  gst_cents: number;
  /** GST-inclusive: what the buyer pays */
  total_cents: number;
  /** kept by the model with each payment */
  paid_cents: Defaulted<number>;
  /** kept by the model with each credit note */
  credited_cents: Defaulted<number>;
  issued_by: Optional;
  issued_at: string;
}

export interface InvoiceLinesTable {
  id: string;
  invoice_id: string;
  position: number;
  course_id: Optional;
  description: string;
  quantity: number;
  /** GST-inclusive price of one */
  unit_price_cents: number;
  gst_treatment: GstTreatment;
  /** quantity × unit price, GST-inclusive */
  amount_cents: number;
  gst_cents: number;
}

export interface PaymentsTable {
  id: string;
  invoice_id: string;
  method: PaymentMethod;
  reference: string;
  received_on: string;
  amount_cents: number;
  recorded_by: Optional;
  recorded_at: string;
}

export interface CreditNotesTable {
  id: string;
  number: string;
  invoice_id: string;
  issue_date: string;
  reason: string;
  /** GST-inclusive amount refunded */
  amount_cents: number;
  gst_cents: number;
  refund_policy_version: Optional;
  issued_by: Optional;
  issued_at: string;
}

/** A version of the refund policy and the day it took effect (migration 2026-12-04T1030). */
export interface RefundPoliciesTable {
  version: string;
  /** YYYY-MM-DD (the organisation's day): enrolments from this day on are made under it */
  effective_from: string;
  created_at: string;
  created_by: string | null;
}

/**
 * Invoice figures summed per issue date, due date and the facts a status is decided by (credited
 * in full, paid in full, nothing paid), kept by triggers (migration 2026-12-05T1510); read-only
 * to the app.
 */
export interface InvoiceSumsTable {
  issue_date: ColumnType<string, never, never>;
  due_date: ColumnType<string, never, never>;
  credited: ColumnType<0 | 1, never, never>;
  paid: ColumnType<0 | 1, never, never>;
  unpaid: ColumnType<0 | 1, never, never>;
  n: ColumnType<number, never, never>;
  total_cents: ColumnType<number, never, never>;
  paid_cents: ColumnType<number, never, never>;
  credited_cents: ColumnType<number, never, never>;
}

export interface FinanceTables {
  invoice_sums: InvoiceSumsTable;
  refund_policies: RefundPoliciesTable;
  finance_settings: FinanceSettingsTable;
  finance_sequences: FinanceSequencesTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  payments: PaymentsTable;
  credit_notes: CreditNotesTable;
}
