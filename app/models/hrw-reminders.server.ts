import { sql } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import { NSA_APPLICATION_DAYS, REMINDER_DAYS_BEFORE } from "~/schemas/hrw-codes";
import { addDays } from "~/utils/organisation-calendar";
import { applicationDeadline } from "./hrw-assessment.server";

/**
 * The licence-application reminders (14 and 3 days before NSA date + 60). Every worker of every
 * server runs the same job; a reminder goes to whoever inserts its row in hrw_reminders first
 * (the primary key makes the claim atomic), so it is mailed once. A claim whose mail was never
 * marked sent (the process died between claim and send) may be taken again after
 * STALE_CLAIM_MINUTES.
 */

export const STALE_CLAIM_MINUTES = 15;

export interface ReminderClaim {
  assessment_id: string;
  days_before: number;
  to: string;
  full_name: string;
  licence_class: string;
  nsa_number: string;
  deadline: string;
}

/** The window of NSA dates whose `daysBefore` reminder is due today (the 14-day one stops when the 3-day one starts). */
function nsaWindow(today: string, daysBefore: number): { from: string; to: string } {
  const next = REMINDER_DAYS_BEFORE.filter((d) => d < daysBefore).reduce((max, d) => Math.max(max, d), -1);
  return { from: addDays(today, -(NSA_APPLICATION_DAYS - next - 1)), to: addDays(today, -(NSA_APPLICATION_DAYS - daysBefore)) };
}

/** Claims the reminders due on `today` that nobody has claimed; the caller sends them. */
export async function claimDueReminders(db: DB, today: string, now = new Date()): Promise<ReminderClaim[]> {
  const at = now.toISOString();
  const stale = new Date(now.getTime() - STALE_CLAIM_MINUTES * 60_000).toISOString();
  return writeTransaction(db, async (trx) => {
    const claims: ReminderClaim[] = [];
    for (const daysBefore of REMINDER_DAYS_BEFORE) {
      const window = nsaWindow(today, daysBefore);
      const due = await trx
        .selectFrom("hrw_assessments as a")
        .innerJoin("users as c", "c.id", "a.candidate_id")
        .leftJoin("hrw_reminders as r", (join) => join.onRef("r.assessment_id", "=", "a.id").on("r.days_before", "=", daysBefore))
        .select(["a.id", "c.email", "c.full_name", "a.licence_class", "a.nsa_number", "a.nsa_date", "r.claimed_at", "r.sent_at"])
        .where("a.nsa_date", ">=", window.from)
        .where("a.nsa_date", "<=", window.to)
        .where("c.is_active", "=", 1)
        .where((eb) => eb.or([eb("r.assessment_id", "is", null), eb.and([eb("r.sent_at", "is", null), eb("r.claimed_at", "<", stale)])]))
        .orderBy("a.id")
        .limit(200)
        .execute();
      for (const row of due) {
        const claimed = row.claimed_at
          ? await trx
              .updateTable("hrw_reminders")
              .set({ claimed_at: at })
              .where("assessment_id", "=", row.id)
              .where("days_before", "=", daysBefore)
              .where("claimed_at", "=", row.claimed_at)
              .where("sent_at", "is", null)
              .returning("assessment_id")
              .executeTakeFirst()
          : await trx
              .insertInto("hrw_reminders")
              .values({ assessment_id: row.id, days_before: daysBefore, claimed_at: at })
              .onConflict((oc) => oc.columns(["assessment_id", "days_before"]).doNothing())
              .returning("assessment_id")
              .executeTakeFirst();
        if (!claimed) continue;
        claims.push({
          assessment_id: row.id,
          days_before: daysBefore,
          to: row.email,
          full_name: row.full_name,
          licence_class: row.licence_class,
          nsa_number: row.nsa_number!,
          deadline: applicationDeadline(row.nsa_date!),
        });
      }
    }
    return claims;
  });
}

export async function markReminderSent(db: DB, claim: Pick<ReminderClaim, "assessment_id" | "days_before">, now = new Date()): Promise<void> {
  await db
    .updateTable("hrw_reminders")
    .set({ sent_at: now.toISOString() })
    .where("assessment_id", "=", claim.assessment_id)
    .where("days_before", "=", claim.days_before)
    .execute();
}

/** How many reminders were marked sent for one assessment (tests and the assessment page). */
export async function remindersSent(db: DB, assessmentId: string): Promise<number> {
  const row = await db
    .selectFrom("hrw_reminders")
    .select(sql<number>`count(*)`.as("n"))
    .where("assessment_id", "=", assessmentId)
    .where("sent_at", "is not", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
