import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import type { RuleEditInput } from "~/schemas/hrw";
import { HRW_RULES, HRW_STATE_CODES, type HrwRuleName, type HrwState } from "~/schemas/hrw-codes";
import { hrwDate } from "~/schemas/hrw-codes";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";

/**
 * Each state's high-risk work rules as data (table hrw_rules): a rule is read by name for a
 * state on a date, and the row in force then answers. An edit never overwrites: it adds a row
 * in force from its date, with its reason, so an outcome judged on an earlier date is judged by
 * the rule of that date. Code asks what a rule says, never which state it is.
 */

export interface HrwRule {
  id: string;
  state: HrwState;
  rule: HrwRuleName;
  label: string;
  value: string;
  unit: string;
  source: string;
  secondary: boolean;
  /** null: in force before any date the portal records */
  in_force_from: string | null;
  reason: string | null;
  recorded_at: string;
  recorded_by: string | null;
}

type Row = Awaited<ReturnType<ReturnType<typeof ruleRows>["execute"]>>[number];

const toRule = (r: Row): HrwRule => ({
  id: r.id,
  state: r.state as HrwState,
  rule: r.rule as HrwRuleName,
  label: HRW_RULES[r.rule as HrwRuleName]?.label ?? r.rule,
  value: r.value,
  unit: r.unit,
  source: r.source,
  secondary: r.secondary === 1,
  in_force_from: r.in_force_from,
  reason: r.reason,
  recorded_at: r.recorded_at,
  recorded_by: r.recorded_by_name,
});

function ruleRows(db: DB) {
  return db
    .selectFrom("hrw_rules as r")
    .leftJoin("users as u", "u.id", "r.recorded_by")
    .select([
      "r.id",
      "r.state",
      "r.rule",
      "r.value",
      "r.unit",
      "r.source",
      "r.secondary",
      "r.in_force_from",
      "r.reason",
      "r.recorded_at",
      "u.full_name as recorded_by_name",
    ]);
}

/** Later in force first; of two rows in force from the same day, the later recorded. */
const newestFirst = (a: HrwRule, b: HrwRule) =>
  (b.in_force_from ?? "").localeCompare(a.in_force_from ?? "") || b.recorded_at.localeCompare(a.recorded_at) || b.id.localeCompare(a.id);

/** The row of `rows` (one state's rule, any order) in force on `date`, or null. */
function inForceOn(rows: HrwRule[], date: string): HrwRule | null {
  return [...rows].sort(newestFirst).find((r) => r.in_force_from === null || r.in_force_from <= date) ?? null;
}

/** One state's rules on one date, read by name. */
export interface StateRuleBook {
  state: HrwState;
  date: string;
  row(name: HrwRuleName): HrwRule | null;
  /** a number rule; null when the state sets none (or sets it blank) */
  number(name: HrwRuleName): number | null;
  flag(name: HrwRuleName): boolean;
  text(name: HrwRuleName): string | null;
}

function ruleBook(state: HrwState, date: string, rows: HrwRule[]): StateRuleBook {
  const byName = new Map<string, HrwRule[]>();
  for (const r of rows) byName.set(r.rule, [...(byName.get(r.rule) ?? []), r]);
  const row = (name: HrwRuleName) => inForceOn(byName.get(name) ?? [], date);
  return {
    state,
    date,
    row,
    number: (name) => {
      const value = row(name)?.value.trim() ?? "";
      return /^\d+$/.test(value) ? Number(value) : null;
    },
    flag: (name) => row(name)?.value === "yes",
    text: (name) => {
      const value = row(name)?.value.trim() ?? "";
      return value === "" ? null : value;
    },
  };
}

/** The rules of `state` in force on `date`. */
export async function stateRulesOn(db: DB, state: string, date: string): Promise<StateRuleBook> {
  const rows = (await ruleRows(db).where("r.state", "=", state).execute()).map(toRule);
  return ruleBook(state as HrwState, date, rows);
}

/** Every state's rules read once, for lists that judge many records on many dates. */
export async function ruleReader(db: DB): Promise<(state: string, date: string) => StateRuleBook> {
  const rows = (await ruleRows(db).execute()).map(toRule);
  const byState = new Map<string, HrwRule[]>();
  for (const r of rows) byState.set(r.state, [...(byState.get(r.state) ?? []), r]);
  return (state, date) => ruleBook(state as HrwState, date, byState.get(state) ?? []);
}

export interface RuleListing {
  state: HrwState;
  rule: HrwRuleName;
  label: string;
  /** the row in force on the day asked */
  current: HrwRule | null;
  /** rows in force from a later day */
  upcoming: HrwRule[];
  /** rows no longer in force, newest first */
  earlier: HrwRule[];
}

/** Every state's rules as the rules page and GET /api/admin/hrw/rules show them on `today`. */
export async function listRules(db: DB, today: string): Promise<RuleListing[]> {
  const rows = (await ruleRows(db).orderBy("r.state").orderBy("r.rule").orderBy("r.recorded_at").execute()).map(toRule);
  const groups = new Map<string, HrwRule[]>();
  for (const r of rows) groups.set(`${r.state}\u0000${r.rule}`, [...(groups.get(`${r.state}\u0000${r.rule}`) ?? []), r]);
  const out: RuleListing[] = [];
  for (const group of groups.values()) {
    const sorted = [...group].sort(newestFirst);
    const current = inForceOn(sorted, today);
    out.push({
      state: group[0]!.state,
      rule: group[0]!.rule,
      label: group[0]!.label,
      current,
      upcoming: sorted.filter((r) => r.in_force_from !== null && r.in_force_from > today).reverse(),
      earlier: current ? sorted.filter((r) => r !== current && !(r.in_force_from !== null && r.in_force_from > today)) : [],
    });
  }
  const order = (l: RuleListing) => [HRW_STATE_CODES.indexOf(l.state), Object.keys(HRW_RULES).indexOf(l.rule)] as const;
  return out.sort((a, b) => order(a)[0] - order(b)[0] || order(a)[1] - order(b)[1]);
}

const valueText = (r: Pick<HrwRule, "value" | "unit"> | null) =>
  r ? (r.value === "" ? "not set" : `${r.value}${r.unit && r.unit !== "pattern" ? ` ${r.unit}` : ""}`) : "not set";

/**
 * Records a rule's new value in force from a date, with the reason, as a new row (earlier rows
 * stay). The unit, and the source unless a new one is given, follow the row it replaces.
 */
export async function editRule(db: DB, input: RuleEditInput, actorRef: SignedInActorRef, now = new Date()): Promise<HrwRule> {
  const actor = signedInActor(actorRef);
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const before = (await stateRulesOn(trx, input.state, input.in_force_from)).row(input.rule);
    const id = crypto.randomUUID();
    const row = {
      id,
      state: input.state,
      rule: input.rule,
      value: input.value,
      unit: before?.unit ?? "",
      source: input.source ?? before?.source ?? "Set by an administrator",
      secondary: input.source ? 0 : before?.secondary ? 1 : 0,
      in_force_from: input.in_force_from,
      reason: input.reason,
      recorded_at: at,
      recorded_by: actor.id,
    };
    await trx.insertInto("hrw_rules").values(row).execute();
    await recordAudit(trx, {
      action: "hrw.state_rule_changed",
      actor,
      subject: { type: "hrw_rule", id: `${input.state}:${input.rule}` },
      fields: ["value"],
      detail: `${input.state} ${input.rule}: ${valueText(before)} to ${valueText(row)} from ${hrwDate(input.in_force_from)}. Reason: ${input.reason}`,
      now: at,
    });
    return toRule({ ...row, recorded_by_name: null });
  });
}
