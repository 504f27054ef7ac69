import type { DB, WriteTransaction } from "#db/connection";
import { organisationToday } from "~/utils/organisation-calendar";
import { issueInvoice, learnerAsBuyer, prepareInvoice, recordPaymentIn, type IssueInvoiceInput, type PreparedInvoice } from "./invoice.server";

/** The reference the self-enrolment's mock card payment is recorded under. */
export const MOCK_CARD_REFERENCE = "Card payment at enrolment (mock)";

/** A self-enrolment's invoice, read and priced before the enrolment's turn to write. */
export interface SelfEnrollmentBill {
  input: IssueInvoiceInput;
  prepared: PreparedInvoice;
}

/**
 * A learner's own enrolment is billed to them: a tax invoice for the course at its price. This
 * reads the learner's name and address and prices the line (prepareInvoice); null for a free
 * course, which is not invoiced.
 */
export async function billSelfEnrollment(
  db: DB,
  input: {
    enrollmentId: string;
    studentId: string;
    course: { id: string; name: string; unit_code: string; price_cents: number };
    classStart: string | null;
    actorId: string;
    now: Date;
  },
): Promise<SelfEnrollmentBill | null> {
  if (input.course.price_cents <= 0) return null;
  const invoice: IssueInvoiceInput = {
    buyer: await learnerAsBuyer(db, input.studentId),
    lines: [
      {
        course_id: input.course.id,
        description: `${input.course.unit_code} ${input.course.name}${input.classStart ? ` (class from ${input.classStart})` : ""}`,
        quantity: 1,
        unit_price_cents: input.course.price_cents,
      },
    ],
    source: { kind: "enrollment", id: input.enrollmentId },
    issued_by: input.actorId,
    due_by: input.classStart,
    now: input.now,
  };
  return { input: invoice, prepared: await prepareInvoice(db, invoice) };
}

/**
 * The bill issued in the enrolment's transaction, and the enrolment page's card payment (the
 * mock one) recorded against it at once, so it reads paid.
 */
export async function invoiceSelfEnrollment(trx: WriteTransaction, bill: SelfEnrollmentBill): Promise<{ id: string; number: string; total_cents: number }> {
  const invoice = await issueInvoice(trx, bill.input, bill.prepared);
  const now = bill.input.now ?? new Date();
  const issued = { id: invoice.id, number: invoice.number, total_cents: invoice.total_cents, buyer_kind: "learner" as const, buyer_id: bill.input.buyer.id };
  await recordPaymentIn(
    trx,
    {
      invoiceId: invoice.id,
      method: "card",
      reference: MOCK_CARD_REFERENCE,
      receivedOn: organisationToday(now),
      amountCents: invoice.total_cents,
      actor: bill.input.issued_by,
      now,
    },
    issued,
  );
  return { id: invoice.id, number: invoice.number, total_cents: invoice.total_cents };
}
