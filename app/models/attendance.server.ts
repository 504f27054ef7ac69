import { writeTransaction, type DB } from "#db/connection";
import { clockTime } from "~/utils/format";
import type { AttendanceStatus, Role } from "#db/schema";
import type { AttendanceInput } from "~/schemas/class";
import { SESSION_NOT_STARTED } from "~/schemas/class-text";
import { DomainError, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAudit } from "./audit.server";
import { recordEvent } from "./event.server";
import { ATTENDANCE_NOTICE, attendanceDayMessage } from "./attendance-notice";

/**
 * Attendance on a class's sessions (docs/decisions/013-classes.md): the class's trainer (or an admin)
 * marks each learner present, absent or late; two absences in a row raise an alert for the
 * office (its dashboard, and a mail sent once by the class jobs).
 */

export interface TrainerClass {
  id: string;
  course_name: string;
  unit_code: string;
  start_date: string;
  end_date: string;
  location: string | null;
  learners: number;
  runs_today: boolean;
  /** its last day is before today (the organisation's): listed last, and labelled so */
  past: boolean;
}

/**
 * A trainer's classes: running today first, then the coming ones soonest first, then the past
 * ones newest first, each labelled (admins: every class). The coming and the past are read
 * apart, so a long history never pushes next week's class off the list.
 */
export async function listTrainerClasses(db: DB, user: { id: string; role: Role }, now = new Date()): Promise<TrainerClass[]> {
  const today = organisationToday(now);
  let q = db
    .selectFrom("classes as c")
    .innerJoin("courses", "courses.id", "c.course_id")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .select((eb) => [
      "c.id",
      "courses.name as course_name",
      "courses.unit_code",
      "c.start_date",
      "c.end_date",
      "l.name as location",
      eb
        .selectFrom("enrollments as e")
        .select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("e.class_id", "=", "c.id")
        .where("e.status", "<>", "withdrawn")
        .as("learners"),
      eb.exists(eb.selectFrom("class_sessions as s").select("s.id").whereRef("s.class_id", "=", "c.id").where("s.session_date", "=", today)).as("runs_today"),
    ])
    .where("c.cancelled_at", "is", null);
  if (user.role !== "admin") q = q.where("c.trainer_id", "=", user.id);
  const [current, past] = await Promise.all([
    q.where("c.end_date", ">=", today).orderBy("c.start_date").orderBy("c.id").limit(200).execute(),
    q.where("c.end_date", "<", today).orderBy("c.start_date", "desc").orderBy("c.id").limit(100).execute(),
  ]);
  const mapped = [...current, ...past].map((r) => ({ ...r, learners: Number(r.learners), runs_today: Boolean(r.runs_today), past: r.end_date < today }));
  // today's first; the rest keep their query's order (coming soonest first, then past newest first)
  return [...mapped.filter((c) => c.runs_today), ...mapped.filter((c) => !c.runs_today)];
}

export interface Roster {
  id: string;
  course_name: string;
  start_date: string;
  end_date: string;
  location: string | null;
  sessions: { id: string; date: string; starts_at: string; ends_at: string }[];
  learners: { enrollment_id: string; full_name: string; marks: Record<string, AttendanceStatus> }[];
  today: string;
}

function scopedClass(db: DB, classId: string, user: { id: string; role: Role }) {
  let q = db.selectFrom("classes").where("classes.id", "=", classId);
  if (user.role !== "admin") q = q.where("classes.trainer_id", "=", user.id);
  return q;
}

/** The roster of one class: its sessions and learners with their marks. Only the class's trainer (or an admin). */
export async function getRoster(db: DB, classId: string, user: { id: string; role: Role }, now = new Date()): Promise<Roster | null> {
  const cls = await scopedClass(db, classId, user)
    .innerJoin("courses", "courses.id", "classes.course_id")
    .leftJoin("delivery_locations as l", "l.id", "classes.location_id")
    .select(["classes.id", "courses.name as course_name", "classes.start_date", "classes.end_date", "l.name as location"])
    .executeTakeFirst();
  if (!cls) return null;
  const [sessions, learners, marks] = await Promise.all([
    db
      .selectFrom("class_sessions")
      .select(["id", "session_date as date", "starts_at", "ends_at"])
      .where("class_id", "=", classId)
      .orderBy("session_date")
      .orderBy("starts_at")
      .execute(),
    db
      .selectFrom("enrollments")
      .innerJoin("users", "users.id", "enrollments.student_id")
      .select(["enrollments.id as enrollment_id", "users.full_name"])
      .where("enrollments.class_id", "=", classId)
      .where("enrollments.status", "<>", "withdrawn")
      .orderBy("users.full_name")
      .execute(),
    db
      .selectFrom("attendance")
      .innerJoin("class_sessions", "class_sessions.id", "attendance.session_id")
      .select(["attendance.session_id", "attendance.enrollment_id", "attendance.status"])
      .where("class_sessions.class_id", "=", classId)
      .execute(),
  ]);
  return {
    ...cls,
    sessions,
    learners: learners.map((l) => ({
      ...l,
      marks: Object.fromEntries(marks.filter((m) => m.enrollment_id === l.enrollment_id).map((m) => [m.session_id, m.status])),
    })),
    today: organisationToday(now),
  };
}

/**
 * A session is marked from its own day on (the RTO's calendar): learners arrive before the start
 * time and the roll is taken as they do, but a day still to come has no one to mark.
 */
export function sessionMayBeMarked(sessionDate: string, now: Date): boolean {
  return sessionDate <= organisationToday(now);
}

/**
 * Marks one learner on one session (the class's trainer or an admin; anyone else gets 404).
 * Marking again changes the mark; a session whose day has not come is 409. Two absences in a row on the class's sessions raise one
 * alert per pair (the unique key keeps a re-mark from raising it twice).
 */
export async function markAttendance(
  db: DB,
  input: AttendanceInput & { user: { id: string; role: Role }; client?: string | null; now?: Date },
): Promise<{ alerted: boolean }> {
  const now = (input.now ?? new Date()).toISOString();
  return writeTransaction(db, async (trx) => {
    const target = await trx
      .selectFrom("class_sessions as s")
      .innerJoin("classes as c", "c.id", "s.class_id")
      .innerJoin("enrollments as e", (j) => j.onRef("e.class_id", "=", "c.id"))
      .innerJoin("courses", "courses.id", "c.course_id")
      .select(["c.id as class_id", "c.trainer_id", "e.student_id", "courses.name", "s.session_date"])
      .where("s.id", "=", input.session_id)
      .where("e.id", "=", input.enrollment_id)
      .where("e.status", "<>", "withdrawn")
      .executeTakeFirst();
    if (!target || (input.user.role !== "admin" && target.trainer_id !== input.user.id)) throw notFound("Learner or session");
    if (!sessionMayBeMarked(target.session_date, input.now ?? new Date())) throw new DomainError(409, SESSION_NOT_STARTED, {}, "session_id");
    await trx
      .insertInto("attendance")
      .values({ session_id: input.session_id, enrollment_id: input.enrollment_id, status: input.status, marked_by: input.user.id, marked_at: now })
      .onConflict((oc) => oc.columns(["session_id", "enrollment_id"]).doUpdateSet({ status: input.status, marked_by: input.user.id, marked_at: now }))
      .execute();
    await recordAudit(trx, {
      action: "attendance.marked",
      actor: { id: input.user.id, client: input.client },
      subject: { type: "enrollment", id: input.enrollment_id, userId: target.student_id },
      // the audit trail keeps the session's ISO date (its CSV and filters read it); people read the event
      detail: `${input.status} on ${target.session_date}`,
      now,
    });
    await noteAttendanceDay(trx, { studentId: target.student_id, day: target.session_date, actorId: input.user.id, now });

    const sequence = await trx
      .selectFrom("class_sessions as s")
      .leftJoin("attendance as a", (j) => j.onRef("a.session_id", "=", "s.id").on("a.enrollment_id", "=", input.enrollment_id))
      .select(["s.id", "a.status"])
      .where("s.class_id", "=", target.class_id)
      .orderBy("s.session_date")
      .orderBy("s.starts_at")
      .execute();
    let alerted = false;
    for (let i = 1; i < sequence.length; i++) {
      if (sequence[i]!.status !== "absent" || sequence[i - 1]!.status !== "absent") continue;
      const result = await trx
        .insertInto("attendance_alerts")
        .values({ enrollment_id: input.enrollment_id, session_id: sequence[i]!.id, created_at: now, mailed_at: null })
        .onConflict((oc) => oc.columns(["enrollment_id", "session_id"]).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) alerted = true;
    }
    return { alerted };
  });
}

export interface AttendanceSummary {
  present: number;
  late: number;
  absent: number;
  sessions: number;
}

/** Per enrolment of a learner: their marks counted (the course card), in SQL. */
export async function attendanceForStudent(db: DB, studentId: string): Promise<Record<string, AttendanceSummary>> {
  const rows = await db
    .selectFrom("enrollments as e")
    .innerJoin("class_sessions as s", "s.class_id", "e.class_id")
    .leftJoin("attendance as a", (j) => j.onRef("a.session_id", "=", "s.id").onRef("a.enrollment_id", "=", "e.id"))
    .select((eb) => [
      "e.id",
      eb.fn.countAll<number>().as("sessions"),
      eb.fn.sum<number>(eb.case().when("a.status", "=", "present").then(1).else(0).end()).as("present"),
      eb.fn.sum<number>(eb.case().when("a.status", "=", "late").then(1).else(0).end()).as("late"),
      eb.fn.sum<number>(eb.case().when("a.status", "=", "absent").then(1).else(0).end()).as("absent"),
    ])
    .where("e.student_id", "=", studentId)
    .groupBy("e.id")
    .execute();
  return Object.fromEntries(
    rows.map((r) => [r.id, { sessions: Number(r.sessions), present: Number(r.present), late: Number(r.late), absent: Number(r.absent) }]),
  );
}

/** The office's dashboard notice: recent two-absences-in-a-row alerts. */
export function listAttendanceAlerts(db: DB, limit = 10) {
  return db
    .selectFrom("attendance_alerts as al")
    .innerJoin("enrollments as e", "e.id", "al.enrollment_id")
    .innerJoin("users as u", "u.id", "e.student_id")
    .innerJoin("courses", "courses.id", "e.course_id")
    .innerJoin("class_sessions as s", "s.id", "al.session_id")
    .select(["al.id", "u.id as student_id", "u.full_name", "courses.name as course_name", "s.session_date", "al.created_at"])
    .orderBy("al.created_at", "desc")
    .orderBy("al.id", "desc")
    .limit(limit)
    .execute();
}

/**
 * The learner's notification of a day's roll: one per learner per day (entity "attendance", its
 * id the session's day), rewritten with every mark of that day (all their classes' sessions on
 * it) and moved to the time of the latest mark, so a mark changed or added makes it unread again
 * without adding another. A mark per notification flooded the list (one per session and per
 * change); migration 2026-12-04T1402 folded the old ones the same way.
 */
export async function noteAttendanceDay(trx: DB, input: { studentId: string; day: string; actorId: string | null; now: string }): Promise<void> {
  const marks = await trx
    .selectFrom("attendance as a")
    .innerJoin("class_sessions as s", "s.id", "a.session_id")
    .innerJoin("enrollments as e", "e.id", "a.enrollment_id")
    .innerJoin("courses", "courses.id", "e.course_id")
    .select(["courses.name as course", "s.starts_at", "a.status"])
    .where("e.student_id", "=", input.studentId)
    .where("s.session_date", "=", input.day)
    .orderBy("s.starts_at")
    .orderBy("courses.name")
    .execute();
  const message = attendanceDayMessage(
    input.day,
    marks.map((m) => ({ course: m.course, time: clockTime(m.starts_at), status: m.status })),
  );
  const held = await trx
    .selectFrom("events")
    .select("id")
    .where("subject_user_id", "=", input.studentId)
    .where("entity_type", "=", ATTENDANCE_NOTICE.entityType)
    .where("entity_id", "=", input.day)
    .executeTakeFirst();
  if (held) await trx.updateTable("events").set({ message, created_at: input.now, actor_id: input.actorId }).where("id", "=", held.id).execute();
  else
    await recordEvent(trx, {
      actorId: input.actorId,
      subjectUserId: input.studentId,
      type: ATTENDANCE_NOTICE.type,
      entityType: ATTENDANCE_NOTICE.entityType,
      entityId: input.day,
      message,
      now: input.now,
    });
}
