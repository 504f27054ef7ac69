import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import { NSA_APPLICATION_DAYS, REMINDER_DAYS_BEFORE } from "~/schemas/hrw-codes";
import { addDays } from "~/utils/organisation-calendar";
import { applicationDeadline } from "./hrw-assessment.server";
import { queueMail } from "./outbox.server";

/**
 * The licence-application reminders (14 and 3 days before NSA date + 60), a job of the
 * background runner (app/jobs/). Every worker of every server runs it; a reminder is queued in
 * the outbox by whoever records its row in hrw_reminders first, in the same transaction (the
 * primary key, and the message's key, make it once). A row from before the outbox whose mail
 * was claimed but never marked sent is queued too. The outbox delivers and retries.
 */

/** The window of NSA dates whose `daysBefore` reminder is due today (the 14-day one stops when the 3-day one starts). */
function nsaWindow(today: string, daysBefore: number): { from: string; to: string } {
  const next = REMINDER_DAYS_BEFORE.filter((d) => d < daysBefore).reduce((max, d) => Math.max(max, d), -1);
  return { from: addDays(today, -(NSA_APPLICATION_DAYS - next - 1)), to: addDays(today, -(NSA_APPLICATION_DAYS - daysBefore)) };
}

/** Queues the reminders due on `today` that are not yet queued; returns how many this call queued. */
export async function queueDueReminders(db: DB, today: string, now = new Date()): Promise<number> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    let queued = 0;
    for (const daysBefore of REMINDER_DAYS_BEFORE) {
      const window = nsaWindow(today, daysBefore);
      const due = await trx
        .selectFrom("hrw_assessments as a")
        .innerJoin("users as c", "c.id", "a.candidate_id")
        .leftJoin("hrw_reminders as r", (join) => join.onRef("r.assessment_id", "=", "a.id").on("r.days_before", "=", daysBefore))
        .select(["a.id", "a.candidate_id", "a.licence_class", "a.nsa_number", "a.nsa_date", "r.assessment_id as reminded"])
        .where("a.nsa_date", ">=", window.from)
        .where("a.nsa_date", "<=", window.to)
        .where("c.is_active", "=", 1)
        .where((eb) => eb.or([eb("r.assessment_id", "is", null), eb("r.sent_at", "is", null)]))
        .orderBy("a.id")
        .limit(200)
        .execute();
      for (const row of due) {
        if (row.reminded) {
          await trx.updateTable("hrw_reminders").set({ sent_at: at }).where("assessment_id", "=", row.id).where("days_before", "=", daysBefore).execute();
        } else {
          await trx.insertInto("hrw_reminders").values({ assessment_id: row.id, days_before: daysBefore, claimed_at: at, sent_at: at }).execute();
        }
        const made = await queueMail(trx, {
          key: `hrw-reminder:${row.id}:${daysBefore}`,
          template: "hrw-reminder",
          recipientId: row.candidate_id,
          data: { licenceClass: row.licence_class, nsaNumber: row.nsa_number!, deadline: applicationDeadline(row.nsa_date!), daysBefore },
          now,
        });
        if (made !== null) queued += 1;
      }
    }
    return queued;
  });
}

/** How many reminders were queued for one assessment (tests and the assessment page). */
export async function remindersSent(db: DB, assessmentId: string): Promise<number> {
  const row = await db
    .selectFrom("hrw_reminders")
    .select(sql<number>`count(*)`.as("n"))
    .where("assessment_id", "=", assessmentId)
    .where("sent_at", "is not", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
