import type { DB, WriteTransaction } from "#db/connection";
import type { MailData } from "~/schemas/mail-text";
import { locationLabel } from "~/utils/format";
import { queueMail } from "./outbox.server";

/** What a confirmation tells beside the enrolment itself: the class's sessions, the place, the employer paying. */
export interface ConfirmationSetting {
  sessions: Array<{ date: string; starts_at: string; ends_at: string }>;
  place: { name: string; suburb: string | null } | undefined;
  employer: { name: string } | undefined;
}

/** Reads a confirmation's setting: a scoped enrolment reads it before its turn to write. */
export async function readConfirmationSetting(
  db: DB,
  input: { classId: string | null; locationId: string | null; groupBookingId: string | null },
): Promise<ConfirmationSetting> {
  const [sessions, place, employer] = await Promise.all([
    input.classId
      ? db
          .selectFrom("class_sessions")
          .select(["session_date as date", "starts_at", "ends_at"])
          .where("class_id", "=", input.classId)
          .orderBy("session_date")
          .orderBy("starts_at")
          .execute()
      : Promise.resolve([]),
    input.locationId
      ? db.selectFrom("delivery_locations").select(["name", "suburb"]).where("id", "=", input.locationId).executeTakeFirst()
      : Promise.resolve(undefined),
    input.groupBookingId
      ? db
          .selectFrom("group_bookings as b")
          .innerJoin("employers as m", "m.id", "b.employer_id")
          .select("m.name")
          .where("b.id", "=", input.groupBookingId)
          .executeTakeFirst()
      : Promise.resolve(undefined),
  ]);
  return { sessions, place, employer };
}

/** An enrolment as its confirmation names it. */
export interface ConfirmedEnrollment {
  id: string;
  student_id: string;
  class_id: string | null;
  review_status: string | null;
  course: string;
  unit_code: string;
  start_date: string | null;
  end_date: string | null;
}

/**
 * The one place an enrolment's confirmation is queued: createEnrollment calls it when an
 * enrolment takes its seat, so enrolling, taking a waitlist seat (acceptOffer) and accepting an
 * employer's booking (acceptWorkerInvitation) all send it, in the enrolment's own transaction.
 * The key names the enrolment and its class: choosing another class after a cancellation
 * confirms that one too; a retried request queues nothing twice. `known` is the enrolment as the
 * transaction just wrote it, its setting and its invoice, so nothing is read again.
 */
export async function queueEnrollmentConfirmation(
  trx: WriteTransaction,
  input: {
    enrollmentId: string;
    now: Date;
    known?: { enrollment: ConfirmedEnrollment; setting: ConfirmationSetting; invoice: { number: string; total_cents: number; paid_cents: number } | null };
  },
): Promise<void> {
  let e: ConfirmedEnrollment;
  let setting: ConfirmationSetting;
  let invoice: { number: string; total_cents: number | string; paid_cents: number | string } | undefined | null;
  if (input.known) {
    ({ enrollment: e, setting, invoice } = input.known);
  } else {
    const row = await trx
      .selectFrom("enrollments as e")
      .innerJoin("courses", "courses.id", "e.course_id")
      .leftJoin("classes as c", "c.id", "e.class_id")
      .select([
        "e.id",
        "e.student_id",
        "e.class_id",
        "e.location_id",
        "e.group_booking_id",
        "e.review_status",
        "courses.name as course",
        "courses.unit_code",
        "c.start_date",
        "c.end_date",
        "c.location_id as class_location_id",
      ])
      .where("e.id", "=", input.enrollmentId)
      .executeTakeFirstOrThrow();
    e = { ...row, start_date: row.start_date ?? null, end_date: row.end_date ?? null };
    [setting, invoice] = await Promise.all([
      readConfirmationSetting(trx, { classId: row.class_id, locationId: row.class_location_id ?? row.location_id, groupBookingId: row.group_booking_id }),
      trx
        .selectFrom("invoices")
        .select(["number", "total_cents", "paid_cents"])
        .where("source_kind", "=", "enrollment")
        .where("source_id", "=", row.id)
        .orderBy("issued_at", "desc")
        .executeTakeFirst(),
    ]);
  }
  const fee: MailData["enrolment-confirmed"]["fee"] = invoice
    ? { kind: "invoice", number: invoice.number, totalCents: Number(invoice.total_cents), paidCents: Number(invoice.paid_cents), path: "/student/invoices" }
    : setting.employer
      ? { kind: "employer", employer: setting.employer.name }
      : { kind: "none" };
  await queueMail(trx, {
    key: `enrolment-confirmed:${e.id}:${e.class_id ?? "no-class"}`,
    template: "enrolment-confirmed",
    recipientId: e.student_id,
    data: {
      course: e.course,
      unitCode: e.unit_code,
      start: e.start_date,
      end: e.end_date,
      sessions: setting.sessions,
      location: setting.place ? locationLabel(setting.place.name, setting.place.suburb) : null,
      held: e.review_status === "awaiting" || e.review_status === "referred",
      fee,
      path: "/student/courses",
      calendarPath: "/student/calendar",
    },
    now: input.now,
  });
}
