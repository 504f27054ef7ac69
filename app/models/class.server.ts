import crypto from "node:crypto";
import { locationLabel, formatDate } from "~/utils/format";
import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { ClassInput, ClassPatch, SessionInput } from "~/schemas/class";
import { SEATS_BELOW_TAKEN } from "~/schemas/class-text";
import { DomainError, invalid, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { offerFreeSeats, seatsLeftExpression, takenSeats } from "./class-seats.server";
import { setPlannedDates } from "./enrollment.server";
import { changeEnrollments } from "./enrollment-change.server";
import { assertCredentialed } from "./standards/trainer-credential.server";
import { recordAudit, signedInActor, type SignedInActorRef } from "./audit.server";
import { recordEvent } from "./event.server";
import { defaultLocationId } from "./location.server";
import { queueMail } from "./outbox.server";

/**
 * Classes of a course (docs/decisions/013-classes.md): a run of the course on given days, at a delivery
 * location, with a trainer and a number of seats. The seat rule is class-seats.server.ts.
 */

export interface ClassSession {
  id: string;
  date: string;
  starts_at: string;
  ends_at: string;
}

/** A class as the /api and the pages show it (the /api's shape, plus the session ids and state). */
export interface ClassView {
  id: string;
  course_id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  location_id: string | null;
  trainer_id: string | null;
  trainer_name: string | null;
  seats: number;
  seats_left: number;
  cancelled: boolean;
  sessions: ClassSession[];
}

function classQuery(db: DB, nowIso: string) {
  return db
    .selectFrom("classes as c")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .leftJoin("users as t", "t.id", "c.trainer_id")
    .select([
      "c.id",
      "c.course_id",
      "c.start_date",
      "c.end_date",
      "c.location_id",
      "c.trainer_id",
      "c.seats",
      "c.cancelled_at",
      "l.name as location_name",
      "l.suburb as location_suburb",
      "t.full_name as trainer_name",
      seatsLeftExpression("c", nowIso).as("seats_left"),
    ]);
}

type ClassRow = Awaited<ReturnType<ReturnType<typeof classQuery>["executeTakeFirstOrThrow"]>>;

async function withSessions(db: DB, rows: ClassRow[]): Promise<ClassView[]> {
  if (rows.length === 0) return [];
  const sessions = await db
    .selectFrom("class_sessions")
    .select(["id", "class_id", "session_date", "starts_at", "ends_at"])
    .where(
      "class_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("session_date")
    .orderBy("starts_at")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    course_id: r.course_id,
    start_date: r.start_date,
    end_date: r.end_date,
    location: r.location_name ? locationLabel(r.location_name, r.location_suburb) : null,
    location_id: r.location_id,
    trainer_id: r.trainer_id,
    trainer_name: r.trainer_name,
    seats: Number(r.seats),
    seats_left: Math.max(0, Number(r.seats_left)),
    cancelled: r.cancelled_at !== null,
    sessions: sessions.filter((s) => s.class_id === r.id).map((s) => ({ id: s.id, date: s.session_date, starts_at: s.starts_at, ends_at: s.ends_at })),
  }));
}

/** A course's classes not yet started and not cancelled, soonest first (the /api list, the enrolment page). */
export async function listUpcomingClasses(db: DB, courseId: string, now = new Date()): Promise<ClassView[]> {
  const rows = await classQuery(db, now.toISOString())
    .where("c.course_id", "=", courseId)
    .where("c.cancelled_at", "is", null)
    .where("c.start_date", ">=", organisationToday(now))
    .orderBy("c.start_date")
    .orderBy("c.id")
    .limit(50)
    .execute();
  return withSessions(db, rows);
}

/** Every class of a course, newest first, cancelled ones too (the course's admin page). */
export async function listCourseClasses(db: DB, courseId: string, now = new Date()): Promise<ClassView[]> {
  const rows = await classQuery(db, now.toISOString()).where("c.course_id", "=", courseId).orderBy("c.start_date", "desc").orderBy("c.id").limit(200).execute();
  return withSessions(db, rows);
}

export async function getClass(db: DB, id: string, now = new Date()): Promise<ClassView | null> {
  const row = await classQuery(db, now.toISOString()).where("c.id", "=", id).executeTakeFirst();
  return row ? (await withSessions(db, [row]))[0]! : null;
}

/** The catalogue's line per class: no sessions, one query for every card. */
export interface ClassSummary {
  id: string;
  course_id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  seats_left: number;
}

/**
 * The next `perCourse` upcoming classes of every course in one query (the catalogue's cards):
 * seats left counted in SQL, the list cut per course by a window function.
 */
export async function nextClassesByCourse(db: DB, now = new Date(), perCourse = 3, courseIds?: string[]): Promise<Record<string, ClassSummary[]>> {
  const nowIso = now.toISOString();
  if (courseIds && courseIds.length === 0) return {};
  let ranked = db
    .selectFrom("classes as c")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .select([
      "c.id",
      "c.course_id",
      "c.start_date",
      "c.end_date",
      "l.name as location",
      seatsLeftExpression("c", nowIso).as("seats_left"),
      sql<number>`row_number() over (partition by c.course_id order by c.start_date, c.id)`.as("rank"),
    ])
    .where("c.cancelled_at", "is", null)
    .where("c.start_date", ">=", organisationToday(now));
  if (courseIds) ranked = ranked.where("c.course_id", "in", courseIds);
  const rows = await db.selectFrom(ranked.as("r")).selectAll().where("r.rank", "<=", perCourse).orderBy("r.course_id").orderBy("r.rank").execute();
  const out: Record<string, ClassSummary[]> = {};
  for (const r of rows) {
    (out[r.course_id] ??= []).push({
      id: r.id,
      course_id: r.course_id,
      start_date: r.start_date,
      end_date: r.end_date,
      location: r.location,
      seats_left: Math.max(0, Number(r.seats_left)),
    });
  }
  return out;
}

async function assertTrainer(trx: DB, trainerId: string): Promise<void> {
  const t = await trx
    .selectFrom("users")
    .select("id")
    .where("id", "=", trainerId)
    .where("role", "in", ["trainer", "admin"])
    .where("is_active", "=", 1)
    .executeTakeFirst();
  if (!t) throw invalid("Choose an active trainer", { trainer_id: "Choose an active trainer" });
}

async function assertLocation(trx: DB, locationId: string): Promise<void> {
  const l = await trx.selectFrom("delivery_locations").select("id").where("id", "=", locationId).executeTakeFirst();
  if (!l) throw invalid("Choose a delivery location", { location_id: "Choose a delivery location" });
}

/** A class's sessions as one comparable text, in order, the way writeSessions keeps them (one per start). */
function sessionList(sessions: SessionInput[]): string {
  const byStart = new Map<string, string>();
  for (const s of sessions) if (!byStart.has(`${s.date} ${s.starts_at}`)) byStart.set(`${s.date} ${s.starts_at}`, s.ends_at);
  return [...byStart]
    .map(([start, end]) => `${start}-${end}`)
    .sort()
    .join(",");
}

async function writeSessions(trx: DB, classId: string, sessions: SessionInput[]): Promise<void> {
  await trx.deleteFrom("class_sessions").where("class_id", "=", classId).execute();
  const seen = new Set<string>();
  for (const s of sessions) {
    const key = `${s.date} ${s.starts_at}`;
    if (seen.has(key)) continue;
    seen.add(key);
    await trx
      .insertInto("class_sessions")
      .values({ id: crypto.randomUUID(), class_id: classId, session_date: s.date, starts_at: s.starts_at, ends_at: s.ends_at })
      .execute();
  }
}

/** Adds a class to a course (admins). The first delivery location when none is given. */
export async function createClass(db: DB, courseId: string, input: ClassInput, actorRef: SignedInActorRef, now = new Date()): Promise<ClassView> {
  const at = now.toISOString();
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  const id = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    const course = await trx.selectFrom("courses").select(["id", "name", "unit_code"]).where("id", "=", courseId).executeTakeFirst();
    if (!course) throw notFound("Course");
    await assertTrainer(trx, input.trainer_id);
    await assertCredentialed(trx, input.trainer_id, course.unit_code, [input.start_date, input.end_date], "trainer_id");
    const locationId = input.location_id ?? (await defaultLocationId(trx));
    if (input.location_id) await assertLocation(trx, input.location_id);
    await trx
      .insertInto("classes")
      .values({
        id,
        course_id: course.id,
        start_date: input.start_date,
        end_date: input.end_date,
        location_id: locationId,
        trainer_id: input.trainer_id,
        seats: input.seats,
        cancelled_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await writeSessions(trx, id, input.sessions);
    await recordAudit(trx, {
      action: "class.created",
      actor,
      subject: { type: "class", id },
      detail: `${course.name}: ${input.start_date} to ${input.end_date}, ${input.seats} seats`,
      now: at,
    });
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "class.created",
      entityType: "class",
      entityId: id,
      message: `${course.name}: class ${formatDate(input.start_date)} to ${formatDate(input.end_date)}`,
      now: at,
    });
  });
  return (await getClass(db, id, now))!;
}

/**
 * Changes a class (admins; fields left out stay). New dates flow on to its enrolments' planned
 * dates (setPlannedDates); seats may not drop below the learners holding them; more seats go to
 * the waitlist.
 */
export async function updateClass(
  db: DB,
  id: string,
  patch: ClassPatch,
  actorRef: SignedInActorRef,
  now = new Date(),
): Promise<ClassView & { offersMade: SeatOffer[] }> {
  const at = now.toISOString();
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  const offersMade = await writeTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom("classes as c")
      .innerJoin("courses as co", "co.id", "c.course_id")
      .select([
        "c.id",
        "c.start_date",
        "c.end_date",
        "c.seats",
        "c.trainer_id",
        "c.location_id",
        "c.cancelled_at",
        "co.unit_code",
        takenSeats("c.id").as("taken"),
      ])
      .where("c.id", "=", id)
      .executeTakeFirst();
    if (!current) throw notFound("Class");
    if (current.cancelled_at) throw new DomainError(409, "This class is cancelled");
    const start = patch.start_date ?? current.start_date;
    const end = patch.end_date ?? current.end_date;
    if (end < start) throw invalid("The end date cannot be before the start date", { end_date: "The end date cannot be before the start date" });
    if (patch.sessions?.some((s) => s.date < start || s.date > end))
      throw invalid("Every session must fall within the class's dates", { sessions: "Every session must fall within the class's dates" });
    if (patch.seats !== undefined && patch.seats < Number(current.taken)) throw new DomainError(409, SEATS_BELOW_TAKEN, { seats: SEATS_BELOW_TAKEN }, "seats");
    if (patch.trainer_id) await assertTrainer(trx, patch.trainer_id);
    // the trainer teaching the class (a new one, or the same one on new dates) is credentialed for its unit throughout
    const teaching = patch.trainer_id ?? current.trainer_id;
    if (teaching && (teaching !== current.trainer_id || start !== current.start_date || end !== current.end_date)) {
      await assertCredentialed(trx, teaching, current.unit_code, [start, end], "trainer_id");
    }
    if (patch.location_id) await assertLocation(trx, patch.location_id);
    await trx
      .updateTable("classes")
      .set({
        start_date: start,
        end_date: end,
        ...(patch.seats !== undefined ? { seats: patch.seats } : {}),
        ...(patch.trainer_id ? { trainer_id: patch.trainer_id } : {}),
        ...(patch.location_id ? { location_id: patch.location_id } : {}),
        updated_at: at,
      })
      .where("id", "=", id)
      .execute();
    const sessionsBefore = patch.sessions
      ? sessionList(await trx.selectFrom("class_sessions").select(["session_date as date", "starts_at", "ends_at"]).where("class_id", "=", id).execute())
      : "";
    if (patch.sessions) await writeSessions(trx, id, patch.sessions);
    if (start !== current.start_date || end !== current.end_date) {
      const held = await trx.selectFrom("enrollments").select("id").where("class_id", "=", id).where("status", "in", ["enrolled", "in_progress"]).execute();
      for (const e of held) await setPlannedDates(trx, { enrollmentId: e.id, start, end, actorId, now });
    }
    // the seats get an entry of their own (they decide who is offered a place); the rest name their fields
    const edited = [
      ...(start !== current.start_date ? ["start_date"] : []),
      ...(end !== current.end_date ? ["end_date"] : []),
      ...(patch.trainer_id && patch.trainer_id !== current.trainer_id ? ["trainer_id"] : []),
      ...(patch.location_id && patch.location_id !== current.location_id ? ["location_id"] : []),
      ...(patch.sessions && sessionList(patch.sessions) !== sessionsBefore ? ["sessions"] : []),
    ];
    if (edited.length) await recordAudit(trx, { action: "class.edited", actor, subject: { type: "class", id }, fields: edited, now: at });
    if (patch.seats !== undefined && patch.seats !== current.seats) {
      await recordAudit(trx, {
        action: "class.seats_changed",
        actor,
        subject: { type: "class", id },
        fields: ["seats"],
        detail: `${current.seats} to ${patch.seats} seats`,
        now: at,
      });
    }
    const offered = await offerFreeSeats(trx, id, now, actor);
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "class.updated",
      entityType: "class",
      entityId: id,
      message: `Class ${formatDate(start)} to ${formatDate(end)} changed`,
      now: at,
    });
    return offered ? offersMadeAt(trx, id, at) : [];
  });
  return { ...(await getClass(db, id, now))!, offersMade };
}

/** A seat offered to a waiting learner, as the office reads it. */
export interface SeatOffer {
  student_id: string;
  full_name: string;
  offer_expires_at: string;
}

/** The offers of a class made at one instant (the change that freed the seats). */
function offersMadeAt(db: DB, classId: string, at: string): Promise<SeatOffer[]> {
  return db
    .selectFrom("class_waitlist as w")
    .innerJoin("users as u", "u.id", "w.student_id")
    .select(["u.id as student_id", "u.full_name", "w.offer_expires_at"])
    .where("w.class_id", "=", classId)
    .where("w.status", "=", "offered")
    .where("w.offered_at", "=", at)
    .orderBy("w.id")
    .execute()
    .then((rows) => rows.map((r) => ({ student_id: r.student_id, full_name: r.full_name, offer_expires_at: r.offer_expires_at! })));
}

/** Who a class concerns, for the office: its learners and its waitlist in order, open offers with their expiry. */
export interface ClassPeople {
  learners: { enrollment_id: string; student_id: string; full_name: string; status: string }[];
  waitlist: { student_id: string; full_name: string; status: "waiting" | "offered"; place: number | null; offer_expires_at: string | null }[];
}

/** The roster and waitlist of a class (admins: the route's guard decides who reads it). */
export async function classPeople(db: DB, classId: string, now = new Date()): Promise<ClassPeople> {
  const nowIso = now.toISOString();
  const [learners, waiting] = await Promise.all([
    db
      .selectFrom("enrollments as e")
      .innerJoin("users as u", "u.id", "e.student_id")
      .select(["e.id as enrollment_id", "u.id as student_id", "u.full_name", "e.status"])
      .where("e.class_id", "=", classId)
      .where("e.status", "<>", "withdrawn")
      .orderBy("u.full_name")
      .orderBy("e.id")
      .limit(200)
      .execute(),
    db
      .selectFrom("class_waitlist as w")
      .innerJoin("users as u", "u.id", "w.student_id")
      .select(["u.id as student_id", "u.full_name", "w.status", "w.offer_expires_at"])
      .where("w.class_id", "=", classId)
      .where((eb) => eb.or([eb("w.status", "=", "waiting"), eb.and([eb("w.status", "=", "offered"), eb("w.offer_expires_at", ">", nowIso)])]))
      .orderBy("w.id")
      .limit(200)
      .execute(),
  ]);
  let place = 0;
  return {
    learners,
    waitlist: waiting.map((w) => ({
      student_id: w.student_id,
      full_name: w.full_name,
      status: w.status as "waiting" | "offered",
      place: w.status === "waiting" ? ++place : null,
      offer_expires_at: w.status === "offered" ? w.offer_expires_at : null,
    })),
  };
}

export interface CancelledClass {
  course_name: string;
  start_date: string;
  end_date: string;
  /** every learner enrolled (not withdrawn) and everyone still on the waitlist: each gets a mail */
  learners: { id: string; email: string; full_name: string }[];
  /** the learners whose enrolment now waits for them to choose another class */
  freed: number;
}

/**
 * Cancels a class (admins): it leaves the catalogue, its waitlist closes, and each learner
 * enrolled keeps their enrolment in the course with no class ("choose a class"), so they can
 * pick another class of the course (createEnrollment places them). Everyone concerned is mailed,
 * queued with the change.
 */
export async function cancelClass(db: DB, id: string, actorRef: SignedInActorRef, now = new Date()): Promise<CancelledClass> {
  const at = now.toISOString();
  const actor = signedInActor(actorRef);
  const actorId = actor.id;
  return writeTransaction(db, async (trx) => {
    const cls = await trx
      .selectFrom("classes")
      .innerJoin("courses", "courses.id", "classes.course_id")
      .select(["classes.id", "classes.course_id", "classes.start_date", "classes.end_date", "classes.cancelled_at", "courses.name"])
      .where("classes.id", "=", id)
      .executeTakeFirst();
    if (!cls) throw notFound("Class");
    if (cls.cancelled_at) throw new DomainError(409, "This class is already cancelled");
    await trx.updateTable("classes").set({ cancelled_at: at, updated_at: at }).where("id", "=", id).execute();
    const enrolled = await trx
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select(["users.id", "users.email", "users.full_name", "enrollments.status"])
      .where("enrollments.class_id", "=", id)
      .where("enrollments.status", "<>", "withdrawn")
      .orderBy("users.full_name")
      .execute();
    // the seat goes with the class; the enrolment (and its record of the course) stays. A
    // completed enrolment keeps its class: it is the class it was completed in.
    const freed = await changeEnrollments(trx, {
      set: { class_id: null, updated_at: at },
      where: (u) => u.where("class_id", "=", id).where("status", "in", ["enrolled", "in_progress"]),
      now: at,
    });
    const waiting = await trx
      .selectFrom("class_waitlist")
      .innerJoin("users", "users.id", "class_waitlist.student_id")
      .select(["users.id", "users.email", "users.full_name"])
      .where("class_waitlist.class_id", "=", id)
      .where("class_waitlist.status", "in", ["waiting", "offered"])
      .execute();
    await trx.updateTable("class_waitlist").set({ status: "left" }).where("class_id", "=", id).where("status", "in", ["waiting", "offered"]).execute();
    const freedCount = freed.length;
    await recordAudit(trx, {
      action: "class.cancelled",
      actor,
      subject: { type: "class", id },
      detail: `${cls.name}: ${cls.start_date} to ${cls.end_date}; ${freedCount} to choose another class`,
      now: at,
    });
    await recordEvent(trx, {
      actorId,
      subjectUserId: null,
      type: "class.cancelled",
      entityType: "class",
      entityId: id,
      message: `${cls.name}: class ${formatDate(cls.start_date)} cancelled`,
      now: at,
    });
    const learners = [...enrolled.map(({ status: _status, ...l }) => l), ...waiting];
    const kept = new Set(enrolled.filter((e) => e.status === "enrolled" || e.status === "in_progress").map((e) => e.id));
    for (const learner of learners) {
      await queueMail(trx, {
        key: `class-cancelled:${id}:${learner.id}`,
        template: "class-cancelled",
        recipientId: learner.id,
        data: { course: cls.name, start: cls.start_date, end: cls.end_date, path: `/enroll/${cls.course_id}`, kept: kept.has(learner.id) },
        now: at,
      });
    }
    return { course_name: cls.name, start_date: cls.start_date, end_date: cls.end_date, learners, freed: freedCount };
  });
}

/** Active trainers and admins, for the class form's trainer list. */
export function listClassTrainers(db: DB) {
  return db
    .selectFrom("users")
    .select(["id", "full_name"])
    .where("role", "=", "trainer")
    .where("is_active", "=", 1)
    .where("approval_status", "=", "approved")
    .orderBy("full_name")
    .limit(200)
    .execute();
}

/** The class an enrolment holds a seat in, as the learner's course card shows it: dates, place and sessions. */
export interface StudentClass {
  class_id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  cancelled: boolean;
  sessions: { date: string; starts_at: string; ends_at: string }[];
}

/** The class each of a learner's enrolments holds a seat in, with its sessions, for their course cards. */
export async function classesOfStudent(db: DB, studentId: string): Promise<Record<string, StudentClass>> {
  const rows = await db
    .selectFrom("enrollments as e")
    .innerJoin("classes as c", "c.id", "e.class_id")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .select(["e.id", "c.id as class_id", "c.start_date", "c.end_date", "l.name as location", "c.cancelled_at"])
    .where("e.student_id", "=", studentId)
    .execute();
  const sessions = rows.length
    ? await db
        .selectFrom("class_sessions")
        .select(["class_id", "session_date", "starts_at", "ends_at"])
        .where("class_id", "in", [...new Set(rows.map((r) => r.class_id))])
        .orderBy("session_date")
        .orderBy("starts_at")
        .execute()
    : [];
  return Object.fromEntries(
    rows.map((r) => [
      r.id,
      {
        class_id: r.class_id,
        start_date: r.start_date,
        end_date: r.end_date,
        location: r.location,
        cancelled: r.cancelled_at !== null,
        sessions: sessions.filter((s) => s.class_id === r.class_id).map((s) => ({ date: s.session_date, starts_at: s.starts_at, ends_at: s.ends_at })),
      },
    ]),
  );
}
