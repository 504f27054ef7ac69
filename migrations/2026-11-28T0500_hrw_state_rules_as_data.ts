import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Each state's high-risk work rules become data with their sources
 * (docs/decisions/025-hrw-state-rules.md):
 * - hrw_rules: one row per state, rule and date it comes into force (null: in force before any
 *   date the portal records, the source giving no start). An edit is a new row with its reason;
 *   earlier rows stay, so the rule in force on any date can be read back. Seeded below from the
 *   sources the RTO gathered; rows marked secondary come from an RTO's or consultant's copy and
 *   are defaults to confirm. The notice lead times an administrator set in hrw_state_rules are
 *   carried over (a figure that differs from that table's seed is the administrator's), then
 *   the table goes.
 * - hrw_notices: every notice given to a regulator, one per assessment day it covers, with the
 *   day it was given and its reference (the booking's single notice_reference moves here).
 * - hrw_regulator_tasks: things to tell a regulator by a date (an assessor who stopped
 *   assessing), open until recorded done with the regulator's reference.
 * - hrw_assessments.hours: the hours an assessment was booked for (assessor currency counts
 *   hours as well as assessments); null for bookings made before.
 */

type Seed = { state: string; rule: string; value: string; unit: string; source: string; secondary?: boolean; from?: string | null };

const SEEDS: Seed[] = [
  { state: "NSW", rule: "aen_required", value: "yes", unit: "", from: "2025-05-07", source: "SafeWork NSW, high risk work licences page; Service NSW, \"apply for a high risk work licence\": the candidate needs an assessment enrolment number (AEN) on the day of assessment" },
  { state: "NSW", rule: "aen_format", value: "^[A-Z0-9]{6,20}$", unit: "pattern", secondary: true, from: "2025-05-07", source: "No regulator page states the AEN's format: 6 to 20 capital letters or digits until Service NSW's own format is confirmed" },
  { state: "NSW", rule: "booking_lead_days", value: "7", unit: "calendar days", secondary: true, source: "An RTO's internal procedure: assessments are scheduled in the regulator's online system at least 7 calendar days ahead" },
  { state: "NSW", rule: "change_lead_hours", value: "48", unit: "hours", secondary: true, source: "An RTO's internal procedure: scheduled assessments are changed at least 48 hours ahead" },
  { state: "NSW", rule: "assessor_change_report_days", value: "14", unit: "calendar days", source: "SafeWork NSW, \"high risk work RTOs\" page: the RTO tells the regulator within 14 days when an assessor stops assessing" },
  { state: "NSW", rule: "nsa_application_days", value: "60", unit: "calendar days", source: "Service NSW, \"apply for a high risk work licence\": the NSA arrives by mail and lasts 60 days" },
  { state: "NSW", rule: "apply_where", value: "through Service NSW (apply for a high risk work licence)", unit: "", source: "Service NSW, \"apply for a high risk work licence\"" },
  { state: "QLD", rule: "notice_business_days", value: "3", unit: "business days", source: "ABLIS, \"notification of high risk work class assessment\" (QLD): at least 3 business days before any assessment, reassessments included" },
  { state: "QLD", rule: "notice_each_part_day", value: "yes", unit: "", source: "ABLIS, \"notification of high risk work class assessment\" (QLD): a separate notice for each part held on a non-consecutive day" },
  { state: "QLD", rule: "currency_assessments", value: "9", unit: "assessments per class", source: "WorkSafe QLD, \"information for accredited assessors\": 9 assessments or 35 hours per class in 3 years" },
  { state: "QLD", rule: "currency_hours", value: "35", unit: "hours per class", source: "WorkSafe QLD, \"information for accredited assessors\": 9 assessments or 35 hours per class in 3 years" },
  { state: "QLD", rule: "currency_years", value: "3", unit: "years", source: "WorkSafe QLD, \"information for accredited assessors\": accreditation lasts 3 years" },
  { state: "QLD", rule: "nsa_application_days", value: "60", unit: "calendar days", source: "WorkSafe QLD, \"apply for a high risk work licence\": apply online within 60 days" },
  { state: "QLD", rule: "apply_where", value: "online with WorkSafe Queensland, using your Queensland Digital Identity", unit: "", source: "WorkSafe QLD, \"apply for a high risk work licence\"" },
  { state: "WA", rule: "notice_business_days", value: "1", unit: "business days", source: "WA government, \"recognition of interstate accreditation\" guide; WorkSafe WA assessor accreditations page: notice through WorkSafe's online form before any assessment (one business day is the least that is before)" },
  { state: "WA", rule: "accreditation_exact_classes", value: "no", unit: "", source: "WorkSafe WA, \"changes to high risk work accreditation, October 2024\": until January 2025 a higher class implied a lower one" },
  { state: "WA", rule: "accreditation_exact_classes", value: "yes", unit: "", from: "2025-01-01", source: "WorkSafe WA, \"changes to high risk work accreditation, October 2024\": from January 2025 an accreditation covers only the classes it lists" },
  { state: "WA", rule: "nsa_application_days", value: "60", unit: "calendar days", source: "WorkSafe WA, \"high risk work licence new\" page: the notice of assessment is lodged within 60 days" },
  { state: "WA", rule: "apply_where", value: "with WorkSafe WA (high risk work licence, new)", unit: "", source: "WorkSafe WA, \"high risk work licence new\" page" },
  { state: "VIC", rule: "annual_audit_due", value: "10-31", unit: "month-day each year", secondary: true, source: "WorkSafe Victoria licence page; an auditor's \"WorkSafe 2025\" page: an annual independent audit of each RTO is due by 31 October" },
  { state: "SA", rule: "nsa_application_days", value: "60", unit: "calendar days", secondary: true, source: "SafeWork SA page (its age is unknown): the assessor issues the NSA; it lasts 60 days" },
];

/** The lead times hrw_state_rules was seeded with: a different figure is an administrator's. */
const OLD_SEEDS: Record<string, number | null> = { NSW: 5, QLD: 3, WA: 1 };

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("hrw_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("rule", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("unit", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("secondary", "integer", (c) => c.notNull())
    .addColumn("in_force_from", "text")
    .addColumn("reason", "text")
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .addColumn("recorded_by", "text", (c) => c.references("users.id"))
    .execute();
  await db.schema.createIndex("hrw_rules_state_rule").on("hrw_rules").columns(["state", "rule", "in_force_from"]).execute();

  const at = new Date().toISOString();
  let n = 0;
  const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
  for (const s of SEEDS) {
    await db
      .insertInto("hrw_rules")
      .values({ id: id(), state: s.state, rule: s.rule, value: s.value, unit: s.unit, source: s.source, secondary: s.secondary ? 1 : 0, in_force_from: s.from ?? null, reason: null, recorded_at: at, recorded_by: null })
      .execute();
  }
  const kept = await db.selectFrom("hrw_state_rules").select(["state", "notice_business_days", "updated_at", "updated_by"]).execute();
  for (const row of kept as Array<{ state: string; notice_business_days: number | null; updated_at: string; updated_by: string | null }>) {
    if ((OLD_SEEDS[row.state] ?? null) === row.notice_business_days) continue;
    await db
      .insertInto("hrw_rules")
      .values({
        id: id(),
        state: row.state,
        rule: "notice_business_days",
        value: row.notice_business_days === null ? "" : String(row.notice_business_days),
        unit: "business days",
        source: "Set by an administrator before rules carried their sources",
        secondary: 1,
        in_force_from: null,
        reason: "Carried over from the notice lead times page",
        recorded_at: row.updated_at > at ? row.updated_at : at,
        recorded_by: row.updated_by,
      })
      .execute();
  }
  await db.schema.dropTable("hrw_state_rules").execute();

  await db.schema
    .createTable("hrw_notices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("assessment_id", "text", (c) => c.notNull().references("hrw_assessments.id"))
    .addColumn("held_on", "text", (c) => c.notNull())
    .addColumn("reference", "text", (c) => c.notNull())
    .addColumn("sent_on", "text", (c) => c.notNull())
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .addColumn("recorded_by", "text", (c) => c.references("users.id"))
    .execute();
  await db.schema.createIndex("hrw_notices_day").unique().on("hrw_notices").columns(["assessment_id", "held_on"]).execute();
  await sql`insert into hrw_notices (id, assessment_id, held_on, reference, sent_on, recorded_at, recorded_by)
    select id, id, assessment_date, notice_reference, substr(notice_recorded_at, 1, 10), notice_recorded_at, notice_recorded_by
    from hrw_assessments where notice_reference is not null`.execute(db);
  for (const column of ["notice_reference", "notice_recorded_at", "notice_recorded_by"]) {
    await sql`alter table hrw_assessments drop column ${sql.ref(column)}`.execute(db);
  }

  await db.schema
    .createTable("hrw_regulator_tasks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("trainer_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("what", "text", (c) => c.notNull())
    .addColumn("raised_on", "text", (c) => c.notNull())
    .addColumn("due_on", "text", (c) => c.notNull())
    .addColumn("done_reference", "text")
    .addColumn("done_at", "text")
    .addColumn("done_by", "text", (c) => c.references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("hrw_regulator_tasks_open").on("hrw_regulator_tasks").columns(["done_at", "due_on"]).execute();
  await sql`alter table hrw_assessments add column hours real`.execute(db);
  if (dialectOf(db) === "postgres") await sql`analyze hrw_rules`.execute(db);
}

/** Back to one notice per booking and one lead time per state (the rule history is lost). */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table hrw_assessments drop column hours`.execute(db);
  await db.schema.dropTable("hrw_regulator_tasks").execute();
  await sql`alter table hrw_assessments add column notice_reference text`.execute(db);
  await sql`alter table hrw_assessments add column notice_recorded_at text`.execute(db);
  await sql`alter table hrw_assessments add column notice_recorded_by text references users(id)`.execute(db);
  await sql`update hrw_assessments set
    notice_reference = (select n.reference from hrw_notices n where n.assessment_id = hrw_assessments.id and n.held_on = hrw_assessments.assessment_date),
    notice_recorded_at = (select n.recorded_at from hrw_notices n where n.assessment_id = hrw_assessments.id and n.held_on = hrw_assessments.assessment_date),
    notice_recorded_by = (select n.recorded_by from hrw_notices n where n.assessment_id = hrw_assessments.id and n.held_on = hrw_assessments.assessment_date)`.execute(db);
  await db.schema.dropTable("hrw_notices").execute();
  await db.schema
    .createTable("hrw_state_rules")
    .addColumn("state", "text", (c) => c.primaryKey())
    .addColumn("notice_business_days", "integer")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.references("users.id"))
    .execute();
  const at = new Date().toISOString();
  for (const state of ["ACT", "NSW", "NT", "QLD", "SA", "TAS", "VIC", "WA"]) {
    await db.insertInto("hrw_state_rules").values({ state, notice_business_days: OLD_SEEDS[state] ?? null, updated_at: at, updated_by: null }).execute();
  }
  await db.schema.dropTable("hrw_rules").execute();
}
