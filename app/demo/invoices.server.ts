import { writeTransaction, type DB } from "#db/connection";
import { issueCreditNote, issueInvoice, recordPayment } from "~/models/finance/invoice.server";
import { addDays, organisationToday } from "~/utils/organisation-calendar";

const DAY = 86_400_000;

/**
 * Demo invoices, through the model functions: four learners' enrolments billed (the demo's
 * enrolments are dated months back and were not made through the enrolment page), one in each
 * state the office sees: paid by card, part-paid by bank transfer, overdue, and one paid then
 * partly refunded by a credit note.
 */
export async function seedDemoInvoices(db: DB, now: Date): Promise<void> {
  const rows = await db
    .selectFrom("enrollments")
    .innerJoin("users", "users.id", "enrollments.student_id")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([
      "enrollments.id",
      "enrollments.student_id",
      "users.full_name",
      "users.email",
      "users.suburb",
      "users.state",
      "users.postcode",
      "courses.id as course_id",
      "courses.unit_code",
      "courses.name",
      "courses.price_cents",
    ])
    .where("users.role", "=", "student")
    .where("courses.price_cents", ">", 0)
    .orderBy("enrollments.enrollment_date", "desc")
    .limit(4)
    .execute();
  const plan = [
    { daysAgo: 3, paid: "all" },
    { daysAgo: 8, paid: "part" },
    { daysAgo: 30, paid: "none" },
    { daysAgo: 20, paid: "refunded" },
  ] as const;
  for (const [i, row] of rows.entries()) {
    const step = plan[i]!;
    const issued = new Date(now.getTime() - step.daysAgo * DAY);
    const invoice = await writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: {
          kind: "learner",
          id: row.student_id,
          name: row.full_name,
          email: row.email,
          address: { city: row.suburb, region: row.state, postcode: row.postcode, country: row.suburb ? "Australia" : null },
        },
        lines: [{ course_id: row.course_id, description: `${row.unit_code} ${row.name}`, quantity: 1, unit_price_cents: Number(row.price_cents) }],
        source: { kind: "enrollment", id: row.id },
        issued_by: row.student_id,
        now: issued,
      }),
    );
    const paidOn = organisationToday(issued);
    if (step.paid === "all" || step.paid === "refunded") {
      await recordPayment(db, {
        invoiceId: invoice.id,
        method: "card",
        reference: "Card at enrolment",
        receivedOn: paidOn,
        amountCents: invoice.total_cents,
        actor: row.student_id,
        now: issued,
      });
    }
    if (step.paid === "part") {
      await recordPayment(db, {
        invoiceId: invoice.id,
        method: "bank_transfer",
        reference: "EFT deposit",
        receivedOn: addDays(paidOn, 1),
        amountCents: Math.floor(invoice.total_cents / 2),
        actor: null,
        now: issued,
      });
    }
    if (step.paid === "refunded") {
      await issueCreditNote(db, {
        invoiceId: invoice.id,
        amountCents: Math.floor(invoice.total_cents / 2),
        reason: "Cancelled fewer than 10 business days before the class: 50% refund",
        actor: null,
        now: new Date(issued.getTime() + 2 * DAY),
      });
    }
  }
}
