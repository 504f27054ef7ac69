import { writeTransaction, type DB } from "#db/connection";
import { clockTime, formatDate } from "~/utils/format";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { offerFreeSeats, queueOfferMails, seatsLeftExpression } from "./class-seats.server";
import { queueMail } from "./outbox.server";

/**
 * The classes' scheduled work, a job of the background runner (app/jobs/): expired waitlist
 * offers pass on, reminders two days before a class starts, and the office's attendance
 * alerts. Each mail is queued in the outbox inside the write transaction that marks its cause
 * done (a row marked or inserted), and its key names that cause, so with several workers and
 * several servers running the job, and with a run repeated, each is queued once; the runner
 * delivers them (app/models/outbox.server.ts).
 */

export const REMINDER_DAYS = 2;

/*
 * Each job reads whether it has work before it opens a write transaction, which checks again
 * inside: a write holding the write lock makes every other write wait (the scoped ones of the
 * busiest pages included, see writeTransaction), and on most runs there is nothing to do.
 */

/**
 * Expired offers pass to the next learner waiting: every class with an expired offer, or with
 * learners waiting and a seat free in an open class (offerFreeSeats decides, in its transaction).
 */
async function passOnOffers(db: DB, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  const classes = await db
    .selectFrom("class_waitlist as w")
    .innerJoin("classes as c", "c.id", "w.class_id")
    .select("w.class_id")
    .distinct()
    .where((eb) =>
      eb.or([
        eb.and([eb("w.status", "=", "offered"), eb("w.offer_expires_at", "<=", nowIso)]),
        eb.and([
          eb("w.status", "=", "waiting"),
          eb("c.cancelled_at", "is", null),
          eb("c.start_date", ">=", organisationToday(now)),
          eb(seatsLeftExpression("c", nowIso), ">", 0),
        ]),
      ]),
    )
    .execute();
  for (const c of classes) await writeTransaction(db, (trx) => offerFreeSeats(trx, c.class_id, now));
}

/** Whether `query` finds a row: a job's look for work, outside any write transaction. */
async function found(query: { limit: (n: number) => { executeTakeFirst: () => Promise<unknown> } }): Promise<boolean> {
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** The enrolments whose class starts within REMINDER_DAYS and who were not reminded yet. */
function remindersDue(db: DB, today: string) {
  return db
    .selectFrom("enrollments as e")
    .innerJoin("classes as c", "c.id", "e.class_id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .leftJoin("delivery_locations as l", "l.id", "c.location_id")
    .select((eb) => [
      "e.id as enrollment_id",
      "e.student_id",
      "c.id as class_id",
      "c.start_date",
      "c.end_date",
      "courses.name",
      "l.name as location",
      eb
        .selectFrom("class_sessions as s")
        .select("s.starts_at")
        .whereRef("s.class_id", "=", "c.id")
        .orderBy("s.session_date")
        .orderBy("s.starts_at")
        .limit(1)
        .as("first_starts_at"),
    ])
    .where("c.cancelled_at", "is", null)
    .where("c.start_date", ">", today)
    .where("c.start_date", "<=", addDays(today, REMINDER_DAYS))
    .where("e.status", "in", ["enrolled", "in_progress"])
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom("class_reminders as r").select("r.class_id").whereRef("r.class_id", "=", "c.id").whereRef("r.enrollment_id", "=", "e.id")),
      ),
    );
}

async function queueReminders(db: DB, now: Date): Promise<number> {
  const today = organisationToday(now);
  const at = now.toISOString();
  if (!(await found(remindersDue(db, today)))) return 0;
  return writeTransaction(db, async (trx) => {
    const due = await remindersDue(trx, today).limit(200).execute();
    for (const d of due) {
      await trx.insertInto("class_reminders").values({ class_id: d.class_id, enrollment_id: d.enrollment_id, sent_at: at }).execute();
      await queueMail(trx, {
        key: `class-reminder:${d.class_id}:${d.enrollment_id}`,
        template: "class-reminder",
        recipientId: d.student_id,
        data: {
          course: d.name,
          start: d.start_date,
          end: d.end_date,
          firstSession: `${formatDate(d.start_date)}${d.first_starts_at ? `, ${clockTime(d.first_starts_at)}` : ""}`,
          location: d.location,
          path: "/student/courses",
        },
        now,
      });
    }
    return due.length;
  });
}

async function queueAlerts(db: DB, now: Date): Promise<number> {
  const at = now.toISOString();
  if (!(await found(db.selectFrom("attendance_alerts").select("id").where("mailed_at", "is", null)))) return 0;
  return writeTransaction(db, async (trx) => {
    const alerts = await trx
      .selectFrom("attendance_alerts as al")
      .innerJoin("enrollments as e", "e.id", "al.enrollment_id")
      .innerJoin("users as u", "u.id", "e.student_id")
      .innerJoin("courses", "courses.id", "e.course_id")
      .innerJoin("class_sessions as s", "s.id", "al.session_id")
      .select(["al.id", "u.id as student_id", "u.full_name", "courses.name", "s.session_date"])
      .where("al.mailed_at", "is", null)
      .limit(50)
      .execute();
    if (alerts.length === 0) return 0;
    await trx
      .updateTable("attendance_alerts")
      .set({ mailed_at: at })
      .where(
        "id",
        "in",
        alerts.map((a) => a.id),
      )
      .execute();
    const admins = await trx.selectFrom("users").select("id").where("role", "=", "admin").where("is_active", "=", 1).limit(20).execute();
    for (const a of alerts) {
      for (const admin of admins) {
        await queueMail(trx, {
          key: `attendance-alert:${a.id}:${admin.id}`,
          template: "attendance-alert",
          recipientId: admin.id,
          data: { learner: a.full_name, course: a.name, date: a.session_date, path: `/admin/students/${a.student_id}` },
          now,
        });
      }
    }
    return alerts.length * admins.length;
  });
}

/** One run of the class jobs; returns how many mails it queued (offers made by passing on included). */
export async function runClassJobs(db: DB, options: { now?: Date } = {}): Promise<number> {
  const now = options.now ?? new Date();
  await passOnOffers(db, now);
  // offers made before the outbox existed, or by code that did not queue their mail
  const unmailed = db
    .selectFrom("class_waitlist")
    .select("id")
    .where("status", "=", "offered")
    .where("offer_mailed_at", "is", null)
    .where("offer_expires_at", ">", now.toISOString());
  const offers = (await found(unmailed)) ? await writeTransaction(db, (trx) => queueOfferMails(trx, now)) : 0;
  return offers + (await queueReminders(db, now)) + (await queueAlerts(db, now));
}
