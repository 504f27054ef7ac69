import { writeTransaction, type DB } from "#db/connection";
import { formatDate } from "~/utils/format";
import type { WaitlistStatus } from "#db/schema";
import { ALREADY_ENROLLED } from "~/schemas/enrollment-text";
import { CLASS_NOT_OPEN, NO_OFFER, WAITLIST_ALREADY, WAITLIST_HAS_SEAT } from "~/schemas/class-text";
import { DomainError, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { offerFreeSeats, seatsLeftExpression } from "./class-seats.server";
import { awaitsClass, createEnrollment } from "./enrollment.server";
import { recordAudit } from "./audit.server";
import { recordEvent } from "./event.server";

/**
 * The waitlist of a full class: first come first served (the row's identity is the order). A
 * freed seat is offered to the first waiting (class-seats.server.ts offerFreeSeats); the offer
 * mail only leads to the course page, where the learner, signed in, accepts.
 */

export interface WaitlistEntry {
  class_id: string;
  status: WaitlistStatus;
  /** place among those still waiting (1 = next), null once offered */
  place: number | null;
  offer_expires_at: string | null;
}

/** Joins a full class's waitlist. A class with a free seat is 409: enrol instead. */
export async function joinWaitlist(db: DB, input: { classId: string; studentId: string; now?: Date }): Promise<WaitlistEntry> {
  const now = input.now ?? new Date();
  const nowIso = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const cls = await trx
      .selectFrom("classes as c")
      .innerJoin("courses", "courses.id", "c.course_id")
      .select([
        "c.id",
        "c.course_id",
        "c.start_date",
        "c.cancelled_at",
        "courses.name",
        "courses.is_active",
        seatsLeftExpression("c", nowIso, input.studentId).as("seats_left"),
      ])
      .where("c.id", "=", input.classId)
      .executeTakeFirst();
    if (!cls || !cls.is_active) throw notFound("Class");
    if (cls.cancelled_at || cls.start_date < organisationToday(now)) throw new DomainError(409, CLASS_NOT_OPEN);
    const held = await trx
      .selectFrom("enrollments")
      .select(["class_id", "status"])
      .where("student_id", "=", input.studentId)
      .where("course_id", "=", cls.course_id)
      .executeTakeFirst();
    if (held && !awaitsClass(held)) throw new DomainError(409, ALREADY_ENROLLED);
    const existing = await trx
      .selectFrom("class_waitlist")
      .select(["id", "status"])
      .where("class_id", "=", cls.id)
      .where("student_id", "=", input.studentId)
      .executeTakeFirst();
    if (existing && (existing.status === "waiting" || existing.status === "offered")) throw new DomainError(409, WAITLIST_ALREADY);
    if (Number(cls.seats_left) > 0) throw new DomainError(409, WAITLIST_HAS_SEAT);
    // someone who left or let an offer lapse joins again at the back
    if (existing) await trx.deleteFrom("class_waitlist").where("id", "=", existing.id).execute();
    await trx
      .insertInto("class_waitlist")
      .values({
        class_id: cls.id,
        student_id: input.studentId,
        status: "waiting",
        joined_at: nowIso,
        offered_at: null,
        offer_expires_at: null,
        offer_mailed_at: null,
      })
      .execute();
    await recordEvent(trx, {
      actorId: input.studentId,
      subjectUserId: input.studentId,
      type: "waitlist.joined",
      entityType: "class",
      entityId: cls.id,
      message: `${cls.name}: joined the waitlist of the class of ${formatDate(cls.start_date)}`,
      now: nowIso,
    });
  });
  return (await waitlistEntry(db, input.classId, input.studentId, now))!;
}

/** Leaves a waitlist (an open offer is given up and passes to the next). */
export async function leaveWaitlist(db: DB, input: { classId: string; studentId: string; now?: Date }): Promise<void> {
  const now = input.now ?? new Date();
  await writeTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("class_waitlist")
      .set({ status: "left" })
      .where("class_id", "=", input.classId)
      .where("student_id", "=", input.studentId)
      .where("status", "in", ["waiting", "offered"])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound("Waitlist entry");
    await offerFreeSeats(trx, input.classId, now, input.studentId);
  });
}

/** Takes the seat offered: an enrolment in the class (the seat rule counts the learner's own offer as theirs). */
export async function acceptOffer(db: DB, input: { classId: string; studentId: string; client?: string | null; now?: Date }) {
  const now = input.now ?? new Date();
  return writeTransaction(db, async (trx) => {
    const offer = await trx
      .selectFrom("class_waitlist")
      .innerJoin("classes", "classes.id", "class_waitlist.class_id")
      .select(["classes.course_id"])
      .where("class_waitlist.class_id", "=", input.classId)
      .where("class_waitlist.student_id", "=", input.studentId)
      .where("class_waitlist.status", "=", "offered")
      .where("class_waitlist.offer_expires_at", ">", now.toISOString())
      .executeTakeFirst();
    if (!offer) {
      // no such class at all is a 404, as for any unknown id; a class without an offer for them, a 409
      const known = await trx.selectFrom("classes").select("id").where("id", "=", input.classId).executeTakeFirst();
      throw known ? new DomainError(409, NO_OFFER) : notFound("Class");
    }
    const enrollment = await createEnrollment(trx, {
      studentId: input.studentId,
      courseId: offer.course_id,
      classId: input.classId,
      actorId: input.studentId,
      now,
    });
    await recordAudit(trx, {
      action: "waitlist.offer_accepted",
      actor: { id: input.studentId, client: input.client },
      subject: { type: "class", id: input.classId, userId: input.studentId },
      now,
    });
    return enrollment;
  });
}

/** One learner's entry on a class's waitlist, with their place, or null. */
export async function waitlistEntry(db: DB, classId: string, studentId: string, now = new Date()): Promise<WaitlistEntry | null> {
  const found = (await waitlistForStudent(db, studentId, now)).find((w) => w.class_id === classId);
  return found ? { class_id: found.class_id, status: found.status, place: found.place, offer_expires_at: found.offer_expires_at } : null;
}

/** A learner's waitlist entry with its class's course and dates (their dashboard, My Courses, the enrolment page). */
export type StudentWaitlistEntry = WaitlistEntry & { course_id: string; course_name: string; start_date: string; end_date: string };

/** Every open waitlist entry of a learner (waiting or offered), with their place in each; offers first, soonest class first. */
export async function waitlistForStudent(db: DB, studentId: string, now = new Date()): Promise<StudentWaitlistEntry[]> {
  const rows = await db
    .selectFrom("class_waitlist as w")
    .innerJoin("classes as c", "c.id", "w.class_id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .select((eb) => [
      "courses.name as course_name",
      "w.class_id",
      "w.status",
      "w.offer_expires_at",
      "c.course_id",
      "c.start_date",
      "c.end_date",
      eb
        .selectFrom("class_waitlist as o")
        .select((o) => o.fn.countAll<number>().as("n"))
        .whereRef("o.class_id", "=", "w.class_id")
        .where("o.status", "=", "waiting")
        .whereRef("o.id", "<=", "w.id")
        .as("place"),
    ])
    .where("w.student_id", "=", studentId)
    .where((eb) => eb.or([eb("w.status", "=", "waiting"), eb.and([eb("w.status", "=", "offered"), eb("w.offer_expires_at", ">", now.toISOString())])]))
    .orderBy("c.start_date")
    .execute();
  const entries = rows.map((r) => ({
    class_id: r.class_id,
    course_id: r.course_id,
    course_name: r.course_name,
    start_date: r.start_date,
    end_date: r.end_date,
    status: r.status,
    place: r.status === "waiting" ? Number(r.place) : null,
    offer_expires_at: r.status === "offered" ? r.offer_expires_at : null,
  }));
  // a seat held for the learner runs out: it leads, ahead of places still waiting (the sort is stable)
  return entries.sort((a, b) => Number(b.status === "offered") - Number(a.status === "offered"));
}
