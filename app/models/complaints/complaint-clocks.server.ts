import { sql, type Expression, type SqlBool } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { ComplaintStatus } from "#db/schema-complaints";
import type { ComplaintSettingsInput } from "~/schemas/complaint";
import { DEFAULT_ACKNOWLEDGE_BUSINESS_DAYS, DEFAULT_RESOLVE_DAYS, defaultPolicyText } from "~/schemas/complaint-text";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { isBusinessDay } from "../hrw/hrw-calendar.server";

/**
 * The clocks of complaints and appeals (docs/decisions/029-complaints-and-appeals.md): the
 * organisation's settings (days to acknowledge and to resolve, the policy's text), the
 * acknowledge-by day in business days and the resolve-by day in calendar days, and which clock
 * an item has run past.
 */

/** The state whose public holidays the acknowledge clock skips: where the organisation is. */
export const ORGANISATION_STATE = "NSW" as const;

export interface ComplaintSettings {
  acknowledge_business_days: number;
  resolve_days: number;
  policy: string;
  /** whether the policy is the one written for the organisation by default (no admin has set it) */
  policy_is_default: boolean;
}

/** The clocks' lengths and the policy: as admins set them, else the defaults. */
export async function complaintSettings(db: DB, rto: { name: string; code: string }): Promise<ComplaintSettings> {
  const rows = await db.selectFrom("complaint_settings").select(["key", "value"]).execute();
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const policy = byKey.get("policy");
  return {
    acknowledge_business_days: Number(byKey.get("acknowledge_business_days") ?? DEFAULT_ACKNOWLEDGE_BUSINESS_DAYS),
    resolve_days: Number(byKey.get("resolve_days") ?? DEFAULT_RESOLVE_DAYS),
    policy: policy ?? defaultPolicyText(rto),
    policy_is_default: policy === undefined,
  };
}

/** Saves the settings (administrators); the audit entry names the fields that changed. Clocks already running keep their days. */
export async function saveComplaintSettings(
  db: DB,
  input: ComplaintSettingsInput,
  actorRef: SignedInActorRef,
  rto: { name: string; code: string },
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(actorRef);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const before = await complaintSettings(trx, rto);
    const values = { acknowledge_business_days: String(input.acknowledge_business_days), resolve_days: String(input.resolve_days), policy: input.policy };
    const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
      (k) => String(before[k]) !== values[k] || (k === "policy" && before.policy_is_default),
    );
    if (changed.length === 0) return;
    for (const key of changed) {
      await trx
        .insertInto("complaint_settings")
        .values({ key, value: values[key], updated_by: actor.id, updated_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: values[key], updated_by: actor.id, updated_at: at }))
        .execute();
    }
    await recordAudit(trx, { action: "complaints.settings_changed", actor, subject: { type: "complaint_settings", id: null }, fields: changed, now: at });
  });
}

/** The day `businessDays` business days after `date` (weekends and the organisation's state's public holidays skipped). */
export function addBusinessDays(date: string, businessDays: number): string {
  let day = date;
  let left = businessDays;
  while (left > 0) {
    day = addDays(day, 1);
    if (isBusinessDay(day, ORGANISATION_STATE)) left -= 1;
  }
  return day;
}

/** The clocks of an item received at `receivedAt`: the last day to acknowledge it and the last day to resolve it. */
export function clocksFor(
  receivedAt: Date,
  settings: Pick<ComplaintSettings, "acknowledge_business_days" | "resolve_days">,
): { acknowledge_by: string; resolve_by: string } {
  const day = organisationToday(receivedAt);
  return { acknowledge_by: addBusinessDays(day, settings.acknowledge_business_days), resolve_by: addDays(day, settings.resolve_days) };
}

/** Which clock an item has run past on `today`, if any: not acknowledged after acknowledge-by, or not resolved after resolve-by. */
export function overdueClock(item: { status: ComplaintStatus; acknowledge_by: string; resolve_by: string }, today: string): "acknowledge" | "resolve" | null {
  if (item.status === "resolved") return null;
  if (item.resolve_by < today) return "resolve";
  if (item.status === "received" && item.acknowledge_by < today) return "acknowledge";
  return null;
}

/** The same test in SQL, for the register's filter and order. */
export function overdueSql(today: string): Expression<SqlBool> {
  return sql<SqlBool>`(c.status <> 'resolved' and (c.resolve_by < ${today} or (c.status = 'received' and c.acknowledge_by < ${today})))`;
}

/** How many complaints and appeals are past a clock today: the admin dashboard's Standards panel. */
export async function overdueComplaintCount(db: DB, today: string): Promise<number> {
  const row = await db
    .selectFrom("complaints as c")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where(overdueSql(today))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
