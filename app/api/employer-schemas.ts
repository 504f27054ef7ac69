import { z } from "zod";
import { ENROLLMENT_STATUSES } from "#db/schema";
import { addWorkersSchema, bookingSchema, employerSchema } from "~/schemas/employer";
import { CONSENT_LABELS, WORKER_STATE_LABELS } from "~/schemas/employer-text";
import { creditNoteFormSchema, invoiceFiltersSchema, paymentFormSchema } from "~/schemas/invoice";
import { GST_TREATMENT_CODES, INVOICE_STATUSES, PAYMENT_METHODS } from "~/schemas/invoice-text";
import { requests, responses } from "./schemas";

/**
 * Employers, their group bookings and workers, and invoices, payments and credit notes over /api
 * (docs/decisions/032 and 033): the bodies are the pages' own schemas, strict; amounts are sent
 * as the forms take them (dollars and cents, "450.00") and answered in whole cents.
 */

const instant = z.iso.datetime({ offset: true }).describe("ISO 8601 date-time");
const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe("YYYY-MM-DD, a day on the organisation's calendar");
const cents = z.int().describe("Whole cents, GST-inclusive");
const keys = <T extends Record<string, unknown>>(o: T) => Object.keys(o) as [keyof T & string, ...(keyof T & string)[]];

export const employerRequest = employerSchema.strict().register(requests, { id: "EmployerRequest" });
/** A PUT's body: any of the fields, laid over the record (parsePartialInput checks the whole). */
export const employerUpdateRequest = employerSchema.partial().strict().register(requests, { id: "EmployerUpdate" });
export const bookingRequest = bookingSchema.strict().register(requests, { id: "BookingRequest" });
export const addWorkersRequest = addWorkersSchema.strict().register(requests, { id: "BookingWorkersRequest" });
export const paymentRequest = paymentFormSchema.strict().register(requests, { id: "PaymentRequest" });
export const creditNoteRequest = creditNoteFormSchema.strict().register(requests, { id: "CreditNoteRequest" });
export const invoiceListQuery = invoiceFiltersSchema;

export const employerResponse = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    abn: z.string().describe("11 digits"),
    contact_name: z.string(),
    contact_email: z.string(),
    contact_phone: z.string(),
    address: z.string(),
    created_at: instant,
    updated_at: instant,
  })
  .register(responses, { id: "Employer" });
export type EmployerResponse = z.input<typeof employerResponse>;

export const employerListResponse = z
  .strictObject({ employers: z.array(employerResponse.extend({ users: z.int().min(0), bookings: z.int().min(0) })) })
  .register(responses, { id: "EmployerList" });
export type EmployerListResponse = z.input<typeof employerListResponse>;

const bookingSummary = z.strictObject({
  id: z.uuid(),
  course: z.string(),
  class_id: z.uuid(),
  start_date: day,
  end_date: day,
  seats: z.int().min(0).describe("Seats held now (after a release, the workers enrolled)"),
  seats_booked: z.int().min(1).describe("Seats asked for"),
  workers: z.int().min(0).describe("Workers named who have not declined (the seats they hold)"),
  accepted: z.int().min(0).describe("Workers who accepted their seat"),
  declined: z.int().min(0).describe("Workers who declined their seat: the booking may name someone else in it"),
  release_on: day.describe("The day unfilled seats go back to the class"),
  released: z.boolean(),
  created_at: instant,
});

export const workerResponse = z
  .strictObject({
    id: z.uuid(),
    booking_id: z.uuid(),
    full_name: z.string(),
    email: z.string(),
    state: z.enum(keys(WORKER_STATE_LABELS)),
    consent: z.enum(keys(CONSENT_LABELS)).describe("Whether the worker shares their results with the employer"),
    course: z.string(),
    start_date: day,
    end_date: day,
    enrollment: z
      .strictObject({ status: z.enum(ENROLLMENT_STATUSES), progress_percentage: z.int().min(0).max(100), completion_date: day.nullable() })
      .nullable(),
    attendance: z.strictObject({ present: z.int().min(0), late: z.int().min(0), absent: z.int().min(0), sessions: z.int().min(0) }),
    results: z
      .strictObject({
        statements: z.array(z.strictObject({ id: z.uuid(), certificate_number: z.string(), issue_date: day })),
        nsas: z.array(z.strictObject({ licence_class: z.string(), nsa_number: z.string(), nsa_date: day })),
        deadlines: z.array(z.strictObject({ licence_class: z.string(), deadline: day, apply_where: z.string() })),
      })
      .nullable()
      .describe("Null unless the worker shares their results"),
  })
  .register(responses, { id: "BookingWorker" });
export type WorkerResponse = z.input<typeof workerResponse>;

export const workerListResponse = z.strictObject({ workers: z.array(workerResponse) }).register(responses, { id: "BookingWorkerList" });
export type WorkerListResponse = z.input<typeof workerListResponse>;

export const bookingListResponse = z.strictObject({ bookings: z.array(bookingSummary) }).register(responses, { id: "BookingList" });
export type BookingListResponse = z.input<typeof bookingListResponse>;

export const bookingResponse = bookingSummary
  .extend({
    worker_list: z.array(workerResponse),
    invoice: z
      .strictObject({
        id: z.uuid(),
        number: z.string(),
        seat_cents: cents.describe("Price per seat, GST included where the course is taxable"),
        seats: z.int().min(1),
        gst_cents: cents,
        total_cents: cents,
        owed_cents: cents,
        status: z.enum(INVOICE_STATUSES),
      })
      .nullable()
      .describe("The booking's tax invoice to the organisation (its PDF: /employer/invoices/{id}/pdf)"),
  })
  .register(responses, { id: "Booking" });
export type BookingResponse = z.input<typeof bookingResponse>;

const invoiceSummary = z.strictObject({
  id: z.uuid(),
  number: z.string(),
  status: z.enum(INVOICE_STATUSES),
  buyer_kind: z.enum(["employer", "learner"]),
  buyer_id: z.uuid(),
  buyer_name: z.string(),
  buyer_abn: z.string().nullable(),
  issue_date: day,
  due_date: day,
  total_cents: cents,
  gst_cents: cents,
  paid_cents: cents,
  credited_cents: cents,
  owed_cents: cents,
});

export const invoiceListResponse = z
  .strictObject({
    invoices: z.array(invoiceSummary),
    totals: z
      .strictObject({ count: z.int().min(0), total_cents: cents, paid_cents: cents, owed_cents: cents, overdue_cents: cents, credited_cents: cents })
      .describe("Of every invoice matching the filters"),
    page: z.int().min(1),
    pages: z.int().min(1),
  })
  .register(responses, { id: "InvoiceList" });
export type InvoiceListResponse = z.input<typeof invoiceListResponse>;

export const invoiceResponse = invoiceSummary
  .extend({
    seller_name: z.string(),
    seller_abn: z.string(),
    buyer_email: z.string(),
    source_kind: z.enum(["booking", "enrollment", "recognition"]),
    source_id: z.uuid(),
    subtotal_cents: cents.describe("The lines' amounts less their GST"),
    refundable_cents: cents.describe("Paid less credit notes: the most a new credit note may be"),
    lines: z.array(
      z.strictObject({
        position: z.int().min(1),
        course_id: z.uuid().nullable(),
        description: z.string(),
        quantity: z.int().min(1),
        unit_price_cents: cents,
        gst_treatment: z.enum(GST_TREATMENT_CODES),
        amount_cents: cents,
        gst_cents: cents.describe("One eleventh of a taxable line's amount, rounded to the cent; 0 when GST-free"),
      }),
    ),
    payments: z.array(
      z.strictObject({
        id: z.uuid(),
        method: z.enum(keys(PAYMENT_METHODS)),
        reference: z.string(),
        received_on: day,
        amount_cents: cents,
        recorded_at: instant,
      }),
    ),
    credit_notes: z.array(
      z.strictObject({
        id: z.uuid(),
        number: z.string(),
        issue_date: day,
        reason: z.string(),
        amount_cents: cents,
        gst_cents: cents,
        refund_policy_version: z.string().nullable(),
      }),
    ),
  })
  .register(responses, { id: "Invoice" });
export type InvoiceResponse = z.input<typeof invoiceResponse>;
