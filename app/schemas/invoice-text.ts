/**
 * Invoice words and rules pages show, kept free of zod and server code so components can import
 * them; app/schemas/invoice.ts builds its validation from them.
 */
import type { GstTreatment, PaymentMethod } from "#db/schema-finance";

export const NO_LINES = "An invoice needs at least one line";
export const OVERPAYMENT = "That is more than is owed on this invoice: record at most what is owed";
export const CREDIT_EXCEEDS_PAID = "A credit note cannot be more than was paid, less earlier credit notes";

export const GST_TREATMENTS: Record<GstTreatment, string> = {
  gst_free: "GST-free (accredited VET course)",
  taxable: "Taxable (GST 10%)",
};
export const GST_TREATMENT_CODES = Object.keys(GST_TREATMENTS) as [GstTreatment, ...GstTreatment[]];
export const GST_TREATMENT_INVALID = "GST must be GST-free or taxable";

/** The methods the office records; "card" is also the self-enrolment's card payment. */
export const PAYMENT_METHODS: Record<PaymentMethod, string> = {
  bank_transfer: "Bank transfer",
  card: "Card (taken elsewhere)",
  employer_account: "Employer account",
};

export const INVOICE_STATUSES = ["owed", "part_paid", "overdue", "paid", "credited"] as const;
export const INVOICE_STATUS_LABELS: Record<(typeof INVOICE_STATUSES)[number], string> = {
  owed: "Owed",
  part_paid: "Part paid",
  overdue: "Overdue",
  paid: "Paid",
  credited: "Refunded in full",
};

/** The columns of the accounting package's sales-invoice import, in its order (docs/decisions/033-invoices.md). */
export const XERO_COLUMNS = [
  "ContactName",
  "EmailAddress",
  "POAddressLine1",
  "POAddressLine2",
  "POAddressLine3",
  "POAddressLine4",
  "POCity",
  "PORegion",
  "POPostalCode",
  "POCountry",
  "InvoiceNumber",
  "Reference",
  "InvoiceDate",
  "DueDate",
  "InventoryItemCode",
  "Description",
  "Quantity",
  "UnitAmount",
  "Discount",
  "AccountCode",
  "TaxType",
  "TaxAmount",
  "TrackingName1",
  "TrackingOption1",
  "TrackingName2",
  "TrackingOption2",
  "Currency",
] as const;

/** The Australian tax rates the import names: GST on income (10%) and GST-free income. */
export const XERO_TAX_TYPES: Record<GstTreatment, string> = {
  taxable: "GST on Income",
  gst_free: "GST Free Income",
};

export const PAYMENT_RECORDED = "Payment recorded";
export const CREDIT_NOTE_ISSUED = "Credit note issued";
export const FINANCE_SETTINGS_SAVED = "Finance settings saved: new invoices carry them";

export const REFUND_POLICY_ADDED = "Refund policy version added: enrolments from its day on are made under it";
export const REFUND_POLICY_NOT_BACKDATED = "A new version takes effect today or later: enrolments already made keep the version they were made under";
export const REFUND_POLICY_DAY_TAKEN = "A version already takes effect on that day";
