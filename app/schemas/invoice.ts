import { z } from "zod";
import { calendarDate, pastCalendarDate, requiredText } from "./fields";
import { abnField } from "./employer";
import { INVOICE_STATUSES } from "./invoice-text";

/** An amount of money typed in dollars (1,234.50 or $1234.5), as whole cents. */
export const moneyCents = z
  .string({ message: "Enter an amount" })
  .trim()
  .min(1, "Enter an amount")
  .transform((v) => v.replace(/[$,\s]/g, ""))
  .refine((v) => /^\d{1,7}(\.\d{1,2})?$/.test(v), "Enter an amount in dollars and cents, e.g. 450.00")
  .transform((v) => Math.round(Number(v) * 100))
  .refine((v) => v >= 1, "Enter an amount of at least $0.01");

export const paymentFormSchema = z.object({
  method: z.enum(["bank_transfer", "card", "employer_account"], { message: "Choose how it was paid" }),
  reference: requiredText("Reference", 100),
  // a payment is recorded once it has come in: a day after today is a slip of the keyboard
  received_on: pastCalendarDate("Date received"),
  amount: moneyCents,
});

/** A new version of the refund policy: the day it takes effect (it is named by that day). */
export const refundPolicyFormSchema = z.object({
  effective_from: calendarDate("Takes effect on", "2020-01-01"),
});

export const creditNoteFormSchema = z.object({
  amount: moneyCents,
  reason: requiredText("Reason", 300),
});

const optionalDate = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || /^\d{4}-\d{2}-\d{2}$/.test(v), "Enter the date as YYYY-MM-DD");

/** The finance list's filters (a GET form, so every view is a link). */
export const invoiceFiltersSchema = z.object({
  status: z
    .union([z.enum(INVOICE_STATUSES), z.literal("")], { message: "Choose a status" })
    .optional()
    .transform((v) => (v ? v : null)),
  from: optionalDate,
  to: optionalDate,
  buyer: z
    .string()
    .trim()
    .max(100, "Buyer must be at most 100 characters")
    .optional()
    .transform((v) => (v ? v : null)),
  page: z.coerce.number().int().min(1).optional(),
});

/** The finance settings (administrators): the seller printed on new invoices, the payment terms, the export's sales account. */
export const financeSettingsSchema = z.object({
  seller_name: requiredText("Seller's legal name", 200),
  seller_abn: abnField,
  payment_terms_days: z.coerce
    .number({ message: "Payment terms must be a whole number of days from 0 to 120" })
    .int("Payment terms must be a whole number of days from 0 to 120")
    .min(0, "Payment terms must be a whole number of days from 0 to 120")
    .max(120, "Payment terms must be a whole number of days from 0 to 120"),
  sales_account_code: requiredText("Sales account code", 10).refine(
    (v) => /^[A-Za-z0-9.-]+$/.test(v),
    "Sales account code may use only letters, digits, dots and dashes",
  ),
});
export type FinanceSettingsInput = z.infer<typeof financeSettingsSchema>;

/** The accounting export's period: both days required. */
export const exportPeriodSchema = z
  .object({ from: calendarDate("From", "2020-01-01"), to: calendarDate("To", "2020-01-01") })
  .refine((v) => v.from <= v.to, { message: "From must be on or before To", path: ["to"] });

/**
 * The finance page's query that brings back an export period the download refused: the page
 * shows the period as typed with each error at its field, since a file download has no page of
 * its own to show them on. Named apart from the invoice filters' own from and to.
 */
export const REFUSED_EXPORT_PERIOD = { from: "export_from", to: "export_to" } as const;
