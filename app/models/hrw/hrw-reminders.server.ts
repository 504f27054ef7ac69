import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import { NSA_APPLICATION_DAYS, REMINDER_DAYS_BEFORE } from "~/schemas/hrw-codes";
import { addDays } from "~/utils/organisation-calendar";
import { applicationDeadline, applyWhere } from "./hrw-assessment.server";
import { ruleReader } from "./hrw-rules.server";
import { queueMail } from "../outbox.server";

/**
 * The licence-application reminders (14 and 3 days before the NSA date + the state's window), a job of the
 * background runner (app/jobs/). Every worker of every server runs it; a reminder is queued in
 * the outbox by whoever records its row in hrw_reminders first, in the same transaction (the
 * primary key, and the message's key, make it once). A row from before the outbox whose mail
 * was claimed but never marked sent is queued too. The outbox delivers and retries.
 */

/** Which reminder (days before the deadline) is due on `today` for `deadline`: the 14-day one stops when the 3-day one starts. */
function reminderDue(today: string, deadline: string): number | null {
  for (const daysBefore of [...REMINDER_DAYS_BEFORE].sort((a, b) => a - b)) {
    if (today >= addDays(deadline, -daysBefore) && today < deadline) return daysBefore;
  }
  return null;
}

/** Queues the reminders due on `today` that are not yet queued; returns how many this call queued. */
export async function queueDueReminders(db: DB, today: string, now = new Date()): Promise<number> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const rulesOn = await ruleReader(trx);
    const open = await trx
      .selectFrom("hrw_assessments as a")
      .innerJoin("users as c", "c.id", "a.candidate_id")
      .select(["a.id", "a.candidate_id", "a.licence_class", "a.state", "a.nsa_number", "a.nsa_date"])
      .where("a.nsa_date", ">=", addDays(today, -LONGEST_WINDOW_DAYS))
      .where("a.nsa_date", "<=", today)
      .where("c.is_active", "=", 1)
      .orderBy("a.id")
      .limit(2000)
      .execute();
    let queued = 0;
    for (const row of open) {
      const rules = rulesOn(row.state, row.nsa_date!);
      const deadline = applicationDeadline(row.nsa_date!, rules);
      const daysBefore = reminderDue(today, deadline);
      if (daysBefore === null) continue;
      const reminded = await trx
        .selectFrom("hrw_reminders")
        .select(["sent_at"])
        .where("assessment_id", "=", row.id)
        .where("days_before", "=", daysBefore)
        .executeTakeFirst();
      if (reminded?.sent_at) continue;
      if (reminded)
        await trx.updateTable("hrw_reminders").set({ sent_at: at }).where("assessment_id", "=", row.id).where("days_before", "=", daysBefore).execute();
      else await trx.insertInto("hrw_reminders").values({ assessment_id: row.id, days_before: daysBefore, claimed_at: at, sent_at: at }).execute();
      const made = await queueMail(trx, {
        key: `hrw-reminder:${row.id}:${daysBefore}`,
        template: "hrw-reminder",
        recipientId: row.candidate_id,
        data: {
          licenceClass: row.licence_class,
          nsaNumber: row.nsa_number!,
          deadline,
          daysBefore,
          applyWhere: applyWhere(rules),
          windowDays: rules.number("nsa_application_days") ?? NSA_APPLICATION_DAYS,
        },
        now,
      });
      if (made !== null) queued += 1;
    }
    return queued;
  });
}

/** No state's window is read past a year: older NSAs are long lapsed. */
const LONGEST_WINDOW_DAYS = 366;

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
