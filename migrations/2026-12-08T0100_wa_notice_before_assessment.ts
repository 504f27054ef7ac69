import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * WA's notice rule as its sources state it. WorkSafe WA asks the assessor to notify it through
 * its online form before any assessment and names no lead time; the rule was seeded as one
 * business day ahead, a figure no source gives, and it was not marked as a default to confirm.
 * The seeded row becomes 0 business days (the notice is due by the assessment day itself) with
 * the source's own words. Corrected in place rather than edited from a date: the figure was a
 * misreading of the source, never a rule in force. When no administrator has set WA's figure
 * since, the bookings' stored notice deadlines follow the corrected rule.
 */

const SEED_SOURCE_START = 'WA government, "recognition of interstate accreditation" guide';
const OLD_SOURCE =
  "WA government, \"recognition of interstate accreditation\" guide; WorkSafe WA assessor accreditations page: notice through WorkSafe's online form before any assessment (one business day is the least that is before)";
const NEW_SOURCE =
  "WA government, \"recognition of interstate accreditation\" guide; WorkSafe WA assessor accreditations page: the assessor notifies WorkSafe through its online form before any assessment, with no lead time stated (0: by the assessment day, before it starts)";

export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db.selectFrom("hrw_rules").select(["id", "value", "source"]).where("state", "=", "WA").where("rule", "=", "notice_business_days").execute();
  const seed = rows.find((r) => r.value === "1" && String(r.source).startsWith(SEED_SOURCE_START));
  if (!seed) return;
  await db.updateTable("hrw_rules").set({ value: "0", source: NEW_SOURCE, secondary: 0 }).where("id", "=", seed.id).execute();
  if (rows.length > 1) return;
  await db
    .updateTable("hrw_assessments")
    .set((eb) => ({ notice_due_on: eb.ref("assessment_date") }))
    .where("state", "=", "WA")
    .where("notice_due_on", "is not", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db
    .updateTable("hrw_rules")
    .set({ value: "1", source: OLD_SOURCE })
    .where("state", "=", "WA")
    .where("rule", "=", "notice_business_days")
    .where("source", "=", NEW_SOURCE)
    .execute();
}
