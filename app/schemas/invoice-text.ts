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

/** The methods the office records; "card" is also the self-enrolment's card payment. */
export const PAYMENT_METHODS: Record<PaymentMethod, string> = {
  bank_transfer: "Bank transfer",
  card: "Card (taken elsewhere)",
  employer_account: "Employer account",
};
