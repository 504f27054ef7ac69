import type { WriteTransaction } from "#db/connection";
import { organisationToday } from "~/utils/organisation-calendar";
import { learnerAddress } from "./invoice-address";
import { issueInvoice, recordPaymentIn } from "./invoice.server";

/** The reference the self-enrolment's mock card payment is recorded under. */
export const MOCK_CARD_REFERENCE = "Card payment at enrolment (mock)";

/**
 * A learner's own enrolment is billed to them: a tax invoice for the course at its price, issued
 * in the enrolment's transaction, and the enrolment page's card payment (the mock one) recorded
 * against it at once, so it reads paid. A free course is not invoiced.
 */
export async function invoiceSelfEnrolment(
  trx: WriteTransaction,
  input: { enrollmentId: string; studentId: string; course: { id: string; name: string; unit_code: string; price_cents: number }; classStart: string | null; actorId: string; now: Date },
): Promise<{ id: string; number: string } | null> {
  if (input.course.price_cents <= 0) return null;
  const learner = await trx
    .selectFrom("users")
    .select(["full_name", "email", "address", "address_unit", "address_building", "address_street_number", "address_street_name", "suburb", "state", "postcode"])
    .where("id", "=", input.studentId)
    .executeTakeFirstOrThrow();
  const invoice = await issueInvoice(trx, {
    buyer: {
      kind: "learner",
      id: input.studentId,
      name: learner.full_name,
      email: learner.email,
      address: learnerAddress(learner),
    },
    lines: [{ course_id: input.course.id, description: `${input.course.unit_code} ${input.course.name}${input.classStart ? ` (class from ${input.classStart})` : ""}`, quantity: 1, unit_price_cents: input.course.price_cents }],
    source: { kind: "enrollment", id: input.enrollmentId },
    issued_by: input.actorId,
    due_by: input.classStart,
    now: input.now,
  });
  await recordPaymentIn(trx, { invoiceId: invoice.id, method: "card", reference: MOCK_CARD_REFERENCE, receivedOn: organisationToday(input.now), amountCents: invoice.total_cents, actor: input.actorId, now: input.now });
  return { id: invoice.id, number: invoice.number };
}
