import { writeTransaction, type DB } from "#db/connection";
import { attendanceAlertEmail, classReminderEmail, seatOfferedEmail } from "~/mail/class-mails.server";
import type { MailRto } from "~/mail/layout.server";
import type { MailMessage, Mailer } from "~/mail/transport.server";
import { formatDateTime } from "~/utils/format";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { offerFreeSeats } from "./class-seats.server";

/**
 * The classes' scheduled work, run by every server process once a minute: expired waitlist
 * offers pass on, offer mails, reminder mails two days before a class starts, and the office's
 * attendance alerts. Each mail is claimed in the database inside one write transaction before
 * it is sent (a row marked or inserted), so with several workers and several servers each is
 * sent once: a second process finds nothing left to claim.
 */

export const REMINDER_DAYS = 2;

export interface ClassJobContext {
  now?: Date;
  mailer: Mailer;
  /** where links in mail point (APP_URL, else this machine) */
  origin: string;
  rto: MailRto;
}

/** Expired offers pass to the next learner waiting, for every class with a waitlist. */
async function passOnOffers(db: DB, now: Date): Promise<void> {
  const classes = await db
    .selectFrom("class_waitlist")
    .select("class_id")
    .distinct()
    .where((eb) => eb.or([eb.and([eb("status", "=", "offered"), eb("offer_expires_at", "<=", now.toISOString())]), eb("status", "=", "waiting")]))
    .execute();
  for (const c of classes) await writeTransaction(db, (trx) => offerFreeSeats(trx, c.class_id, now));
}

async function claimOfferMails(db: DB, ctx: Required<ClassJobContext>): Promise<MailMessage[]> {
  const at = ctx.now.toISOString();
  return writeTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom("class_waitlist as w")
      .innerJoin("users as u", "u.id", "w.student_id")
      .innerJoin("classes as c", "c.id", "w.class_id")
      .innerJoin("courses", "courses.id", "c.course_id")
      .select(["w.id", "u.email", "u.full_name", "courses.id as course_id", "courses.name", "c.start_date", "c.end_date", "w.offer_expires_at"])
      .where("w.status", "=", "offered")
      .where("w.offer_mailed_at", "is", null)
      .where("w.offer_expires_at", ">", at)
      .limit(100)
      .execute();
    if (rows.length) await trx.updateTable("class_waitlist").set({ offer_mailed_at: at }).where("id", "in", rows.map((r) => r.id)).execute();
    return rows.map((r) =>
      seatOfferedEmail({ to: r.email, fullName: r.full_name, course: r.name, start: r.start_date, end: r.end_date, expires: formatDateTime(r.offer_expires_at), link: `${ctx.origin}/enroll/${r.course_id}`, rto: ctx.rto }),
    );
  });
}

async function claimReminders(db: DB, ctx: Required<ClassJobContext>): Promise<MailMessage[]> {
  const today = organisationToday(ctx.now);
  const at = ctx.now.toISOString();
  return writeTransaction(db, async (trx) => {
    const due = await trx
      .selectFrom("enrollments as e")
      .innerJoin("classes as c", "c.id", "e.class_id")
      .innerJoin("courses", "courses.id", "c.course_id")
      .innerJoin("users as u", "u.id", "e.student_id")
      .leftJoin("delivery_locations as l", "l.id", "c.location_id")
      .select((eb) => [
        "e.id as enrollment_id",
        "c.id as class_id",
        "c.start_date",
        "c.end_date",
        "courses.name",
        "u.email",
        "u.full_name",
        "l.name as location",
        eb.selectFrom("class_sessions as s").select("s.starts_at").whereRef("s.class_id", "=", "c.id").orderBy("s.session_date").orderBy("s.starts_at").limit(1).as("first_starts_at"),
      ])
      .where("c.cancelled_at", "is", null)
      .where("c.start_date", ">", today)
      .where("c.start_date", "<=", addDays(today, REMINDER_DAYS))
      .where("e.status", "in", ["enrolled", "in_progress"])
      .where((eb) => eb.not(eb.exists(eb.selectFrom("class_reminders as r").select("r.class_id").whereRef("r.class_id", "=", "c.id").whereRef("r.enrollment_id", "=", "e.id"))))
      .limit(200)
      .execute();
    for (const d of due) await trx.insertInto("class_reminders").values({ class_id: d.class_id, enrollment_id: d.enrollment_id, sent_at: at }).execute();
    return due.map((d) =>
      classReminderEmail({
        to: d.email,
        fullName: d.full_name,
        course: d.name,
        start: d.start_date,
        end: d.end_date,
        firstSession: `${new Date(`${d.start_date}T00:00:00Z`).toLocaleDateString("en-AU", { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" })}${d.first_starts_at ? ` at ${d.first_starts_at}` : ""}`,
        location: d.location,
        link: `${ctx.origin}/student/courses`,
        rto: ctx.rto,
      }),
    );
  });
}

async function claimAlertMails(db: DB, ctx: Required<ClassJobContext>): Promise<MailMessage[]> {
  const at = ctx.now.toISOString();
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
    if (alerts.length === 0) return [];
    await trx.updateTable("attendance_alerts").set({ mailed_at: at }).where("id", "in", alerts.map((a) => a.id)).execute();
    const admins = await trx.selectFrom("users").select(["email", "full_name"]).where("role", "=", "admin").where("is_active", "=", 1).limit(20).execute();
    return alerts.flatMap((a) =>
      admins.map((admin) =>
        attendanceAlertEmail({ to: admin.email, fullName: admin.full_name, learner: a.full_name, course: a.name, date: a.session_date, link: `${ctx.origin}/admin/students/${a.student_id}`, rto: ctx.rto }),
      ),
    );
  });
}

/** One run of the jobs; returns the mails it sent. */
export async function runClassJobs(db: DB, context: ClassJobContext): Promise<MailMessage[]> {
  const ctx = { ...context, now: context.now ?? new Date() };
  await passOnOffers(db, ctx.now);
  const mails = [...(await claimOfferMails(db, ctx)), ...(await claimReminders(db, ctx)), ...(await claimAlertMails(db, ctx))];
  for (const mail of mails) await ctx.mailer.send(mail);
  return mails;
}
