import { sql, type Selectable } from "kysely";
import type { DB, WriteTransaction } from "#db/connection";
import type { ClassesTable } from "#db/schema";
import { ALL_CLASSES_FULL, CLASS_FULL, CLASS_NOT_OPEN, OFFER_HOURS } from "~/schemas/class-text";
import { DomainError, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { actorOf, recordAudit, type ActorRef } from "./audit.server";
import { queueMail } from "./outbox.server";

/**
 * The seat rule of classes (docs/decisions/013-classes.md), in one place. A seat is held by every
 * enrolment of the class that is not withdrawn, and by every open waitlist offer (a seat
 * offered to the first on the list is kept for them for OFFER_HOURS). Callers run inside
 * writeTransaction, whose writers take turns on both dialects and across servers, so the count
 * and the insert it allows see the same data: K seats give exactly K enrolments.
 */

/**
 * Seats taken in class `classId`: every enrolment but withdrawn ones, and every seat a group
 * booking holds (its workers' enrolments sit in those seats, so they are not counted again).
 */
export function takenSeats(classRef: string) {
  return sql<number>`((select count(*) from enrollments e where e.class_id = ${sql.ref(classRef)} and e.status <> 'withdrawn' and e.group_booking_id is null)
    + (select coalesce(sum(b.seats), 0) from group_bookings b where b.class_id = ${sql.ref(classRef)}))`;
}

/** Open offers holding a seat (optionally leaving out one learner's own). */
export function offeredSeats(classRef: string, nowIso: string, exceptStudentId?: string) {
  const except = exceptStudentId ? sql`and w.student_id <> ${exceptStudentId}` : sql``;
  return sql<number>`(select count(*) from class_waitlist w where w.class_id = ${sql.ref(classRef)} and w.status = 'offered' and w.offer_expires_at > ${nowIso} ${except})`;
}

/** Seats left in a class for anyone, as a SQL expression over the classes row `alias`. */
export function seatsLeftExpression(alias: string, nowIso: string, exceptStudentId?: string) {
  return sql<number>`(${sql.ref(`${alias}.seats`)} - ${takenSeats(`${alias}.id`)} - ${offeredSeats(`${alias}.id`, nowIso, exceptStudentId)})`;
}

export const classFull = () => new DomainError(409, CLASS_FULL, {}, "class_id");

export type Placement = Pick<Selectable<ClassesTable>, "id" | "start_date" | "end_date" | "location_id">;

/**
 * The class an enrolment in `courseId` takes a seat in, or null for a course without upcoming
 * classes (it enrols as before). With `classId`: that class, or 409 "This class is full"; a
 * class of another course, cancelled or already started is 404/409. Without: the next upcoming
 * class with a free seat, or 409 when every class is full. Call inside writeTransaction.
 */
export async function placeInClass(trx: DB, input: { courseId: string; studentId: string; classId?: string | null; now: Date }): Promise<Placement | null> {
  const nowIso = input.now.toISOString();
  const today = organisationToday(input.now);
  const base = trx
    .selectFrom("classes as c")
    .select(["c.id", "c.start_date", "c.end_date", "c.location_id", "c.cancelled_at", seatsLeftExpression("c", nowIso, input.studentId).as("seats_left")])
    .where("c.course_id", "=", input.courseId);
  if (input.classId) {
    const chosen = await base.where("c.id", "=", input.classId).executeTakeFirst();
    // the field a form shows it at: a class of another course, or one deleted while the page was open
    if (!chosen) throw notFound("Class", "class_id");
    if (chosen.cancelled_at || chosen.start_date < today) throw new DomainError(409, CLASS_NOT_OPEN, {}, "class_id");
    if (Number(chosen.seats_left) <= 0) throw classFull();
    return chosen;
  }
  const upcoming = await base.where("c.cancelled_at", "is", null).where("c.start_date", ">=", today).orderBy("c.start_date").orderBy("c.id").execute();
  if (upcoming.length === 0) return null;
  const free = upcoming.find((c) => Number(c.seats_left) > 0);
  if (!free) throw new DomainError(409, ALL_CLASSES_FULL, {}, "class_id");
  return free;
}

/**
 * Offers each free seat of a class to the next learner waiting, first come first served, for
 * OFFER_HOURS, and queues each offer's mail with it. Expired offers pass on first. Each offer
 * made and each offer expired goes into the audit trail, caused by `actorRef` (whoever freed the
 * seat; none for the background job). Call inside writeTransaction; returns how many offers were
 * made.
 */
export async function offerFreeSeats(trx: WriteTransaction, classId: string, now: Date, actorRef: ActorRef = null): Promise<number> {
  const nowIso = now.toISOString();
  const actor = actorOf(actorRef);
  const waitlistEntry = (w: { id: number; student_id: string }) => ({ type: "class", id: classId, userId: w.student_id });
  const expired = await trx
    .updateTable("class_waitlist")
    .set({ status: "expired" })
    .where("class_id", "=", classId)
    .where("status", "=", "offered")
    .where("offer_expires_at", "<=", nowIso)
    .returning(["id", "student_id"])
    .execute();
  for (const w of expired) await recordAudit(trx, { action: "waitlist.offer_expired", actor, subject: waitlistEntry(w), now: nowIso });
  const cls = await trx
    .selectFrom("classes as c")
    .select(["c.id", "c.cancelled_at", "c.start_date", seatsLeftExpression("c", nowIso).as("seats_left")])
    .where("c.id", "=", classId)
    .executeTakeFirst();
  if (!cls || cls.cancelled_at || cls.start_date < organisationToday(now)) return 0;
  const free = Number(cls.seats_left);
  if (free <= 0) return 0;
  // a learner who has since enrolled in the course (another class) is passed over; one whose
  // class was cancelled (enrolled, still to choose a class) is not
  const next = await trx
    .selectFrom("class_waitlist as w")
    .innerJoin("classes as c", "c.id", "w.class_id")
    .select(["w.id", "w.student_id"])
    .where("w.class_id", "=", classId)
    .where("w.status", "=", "waiting")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("enrollments as e")
            .select("e.id")
            .whereRef("e.student_id", "=", "w.student_id")
            .whereRef("e.course_id", "=", "c.course_id")
            .where((e) => e.or([e("e.class_id", "is not", null), e("e.status", "not in", ["enrolled", "in_progress"])])),
        ),
      ),
    )
    .orderBy("w.id")
    .limit(free)
    .execute();
  if (next.length === 0) return 0;
  const expires = new Date(now.getTime() + OFFER_HOURS * 3600_000).toISOString();
  await trx
    .updateTable("class_waitlist")
    .set({ status: "offered", offered_at: nowIso, offer_expires_at: expires, offer_mailed_at: null })
    .where(
      "id",
      "in",
      next.map((n) => n.id),
    )
    .execute();
  for (const w of next) await recordAudit(trx, { action: "waitlist.offer_made", actor, subject: waitlistEntry(w), detail: `until ${expires}`, now: nowIso });
  await queueOfferMails(
    trx,
    now,
    next.map((n) => n.id),
  );
  return next.length;
}

/**
 * Queues the mail of each open offer not yet mailed (offer_mailed_at marks it), all of them or
 * those of `waitlistIds`. The key names the offer (the entry and when it was made), so an
 * offer is mailed once however often this runs; a later offer to the same learner is mailed again.
 */
export async function queueOfferMails(trx: WriteTransaction, now: Date, waitlistIds?: number[]): Promise<number> {
  const at = now.toISOString();
  let query = trx
    .selectFrom("class_waitlist as w")
    .innerJoin("classes as c", "c.id", "w.class_id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .select(["w.id", "w.student_id", "w.offered_at", "w.offer_expires_at", "courses.id as course_id", "courses.name", "c.start_date", "c.end_date"])
    .where("w.status", "=", "offered")
    .where("w.offer_mailed_at", "is", null)
    .where("w.offer_expires_at", ">", at)
    .orderBy("w.id")
    .limit(100);
  if (waitlistIds) query = query.where("w.id", "in", waitlistIds);
  const offers = await query.execute();
  for (const o of offers) {
    await queueMail(trx, {
      key: `seat-offer:${o.id}:${o.offered_at}`,
      template: "seat-offered",
      recipientId: o.student_id,
      data: { course: o.name, start: o.start_date, end: o.end_date, expiresAt: o.offer_expires_at!, path: `/enroll/${o.course_id}` },
      now,
    });
  }
  if (offers.length)
    await trx
      .updateTable("class_waitlist")
      .set({ offer_mailed_at: at })
      .where(
        "id",
        "in",
        offers.map((o) => o.id),
      )
      .execute();
  return offers.length;
}

/** 409 "This class is full" unless the class has a seat for one more learner (a withdrawn enrolment coming back). */
export async function assertSeatFree(trx: DB, classId: string, studentId: string, now: Date): Promise<void> {
  const cls = await trx
    .selectFrom("classes as c")
    .select(seatsLeftExpression("c", now.toISOString(), studentId).as("seats_left"))
    .where("c.id", "=", classId)
    .executeTakeFirst();
  if (cls && Number(cls.seats_left) <= 0) throw classFull();
}
