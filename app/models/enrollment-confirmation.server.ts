import type { WriteTransaction } from "#db/connection";
import type { MailData } from "~/schemas/mail-text";
import { locationLabel } from "~/utils/format";
import { queueMail } from "./outbox.server";

/**
 * The one place an enrolment's confirmation is queued: createEnrollment calls it when an
 * enrolment takes its seat, so enrolling, taking a waitlist seat (acceptOffer) and accepting an
 * employer's booking (acceptWorkerInvitation) all send it, in the enrolment's own transaction.
 * The key names the enrolment and its class: choosing another class after a cancellation
 * confirms that one too; a retried request queues nothing twice.
 */
export async function queueEnrolmentConfirmation(trx: WriteTransaction, input: { enrollmentId: string; now: Date }): Promise<void> {
  const e = await trx
    .selectFrom("enrollments as e")
    .innerJoin("courses", "courses.id", "e.course_id")
    .leftJoin("classes as c", "c.id", "e.class_id")
    .select(["e.id", "e.student_id", "e.class_id", "e.location_id", "e.group_booking_id", "e.review_status", "courses.name as course", "courses.unit_code", "c.start_date", "c.end_date", "c.location_id as class_location_id"])
    .where("e.id", "=", input.enrollmentId)
    .executeTakeFirstOrThrow();
  const locationId = e.class_location_id ?? e.location_id;
  const [sessions, place, invoice, employer] = await Promise.all([
    e.class_id
      ? trx.selectFrom("class_sessions").select(["session_date as date", "starts_at", "ends_at"]).where("class_id", "=", e.class_id).orderBy("session_date").orderBy("starts_at").execute()
      : Promise.resolve([]),
    locationId ? trx.selectFrom("delivery_locations").select(["name", "suburb"]).where("id", "=", locationId).executeTakeFirst() : Promise.resolve(undefined),
    trx.selectFrom("invoices").select(["number", "total_cents", "paid_cents"]).where("source_kind", "=", "enrollment").where("source_id", "=", e.id).orderBy("issued_at", "desc").executeTakeFirst(),
    e.group_booking_id
      ? trx.selectFrom("group_bookings as b").innerJoin("employers as m", "m.id", "b.employer_id").select("m.name").where("b.id", "=", e.group_booking_id).executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  const fee: MailData["enrolment-confirmed"]["fee"] = invoice
    ? { kind: "invoice", number: invoice.number, totalCents: Number(invoice.total_cents), paidCents: Number(invoice.paid_cents), path: "/student/invoices" }
    : employer
      ? { kind: "employer", employer: employer.name }
      : { kind: "none" };
  await queueMail(trx, {
    key: `enrolment-confirmed:${e.id}:${e.class_id ?? "no-class"}`,
    template: "enrolment-confirmed",
    recipientId: e.student_id,
    data: {
      course: e.course,
      unitCode: e.unit_code,
      start: e.start_date ?? null,
      end: e.end_date ?? null,
      sessions,
      location: place ? locationLabel(place.name, place.suburb) : null,
      held: e.review_status === "awaiting" || e.review_status === "referred",
      fee,
      path: "/student/courses",
      calendarPath: "/student/calendar",
    },
    now: input.now,
  });
}
