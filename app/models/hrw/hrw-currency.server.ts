import crypto from "node:crypto";
import type { DB, WriteTransaction } from "#db/connection";
import { hrwDate, type HrwState, type LicenceClass } from "~/schemas/hrw-codes";
import { conflict, notFound } from "~/utils/errors";
import { addDays, isCalendarDate } from "~/utils/organisation-calendar";
import { writeTransaction } from "#db/connection";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { ruleReader, stateRulesOn } from "./hrw-rules.server";

/**
 * Two things a regulator asks of the RTO about its assessors, computed from the portal's own
 * records: each assessor's currency per class (assessments and hours within the state's
 * window), and what must be told to a regulator by a date when an assessor stops assessing.
 */

/** Dashboards warn this many days before an assessor's currency in a class would lapse. */
export const CURRENCY_WARNING_DAYS = 90;

export interface ClassCurrency {
  state: HrwState;
  licence_class: LicenceClass;
  assessments: number;
  hours: number;
  /** the state's rule: so many assessments, or so many hours, within so many years */
  needs: { assessments: number | null; hours: number | null; years: number };
  /** the last day the records keep the assessor current if nothing more is assessed; null: not current */
  current_until: string | null;
  status: "current" | "lapsing" | "lapsed";
}

/** The same day `years` later (29 Feb in a year without one: 1 Mar). */
const addYears = (date: string, years: number) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const shifted = `${String(y + years).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  return isCalendarDate(shifted) ? shifted : `${String(y + years).padStart(4, "0")}-03-01`;
};

/**
 * The assessor's currency in each class they are accredited for by a state whose rules set a
 * currency, on `today`. An assessment counts when a result was recorded for it, on its date,
 * for `years` years (its last day is the date `years` later, less a day); its hours are the
 * hours booked. Current while either the assessments or the hours reach the rule.
 */
export async function assessorCurrency(db: DB, trainerId: string, today: string): Promise<ClassCurrency[]> {
  const accreditations = await db
    .selectFrom("hrw_accreditations")
    .select(["regulator", "classes"])
    .where("trainer_id", "=", trainerId)
    .where("starts_on", "<=", today)
    .where("expires_on", ">=", today)
    .execute();
  const rulesOn = await ruleReader(db);
  const wanted = new Map<string, { state: HrwState; licence_class: LicenceClass }>();
  for (const a of accreditations) {
    const rules = rulesOn(a.regulator, today);
    if (rules.number("currency_years") === null || (rules.number("currency_assessments") === null && rules.number("currency_hours") === null)) continue;
    for (const cls of JSON.parse(a.classes) as LicenceClass[]) wanted.set(`${a.regulator}:${cls}`, { state: a.regulator as HrwState, licence_class: cls });
  }
  if (wanted.size === 0) return [];
  const longest = Math.max(...[...wanted.values()].map((w) => rulesOn(w.state, today).number("currency_years")!));
  const done = await db
    .selectFrom("hrw_assessments as a")
    .select(["a.state", "a.licence_class", "a.assessment_date", "a.hours"])
    .where("a.assessor_id", "=", trainerId)
    .where("a.assessment_date", "<=", today)
    .where("a.assessment_date", ">", addYears(today, -longest))
    .where((eb) => eb.exists(eb.selectFrom("hrw_assessment_parts as p").select("p.id").whereRef("p.assessment_id", "=", "a.id")))
    .orderBy("a.assessment_date", "desc")
    .execute();
  const out: ClassCurrency[] = [];
  for (const w of wanted.values()) {
    const rules = rulesOn(w.state, today);
    const years = rules.number("currency_years")!;
    const needs = { assessments: rules.number("currency_assessments"), hours: rules.number("currency_hours"), years };
    const mine = done.filter((d) => d.state === w.state && d.licence_class === w.licence_class && d.assessment_date > addYears(today, -years));
    const hours = mine.reduce((sum, d) => sum + (d.hours ?? 0), 0);
    // the day the window loses the assessment that keeps each test met
    const untils: string[] = [];
    if (needs.assessments !== null && needs.assessments > 0 && mine.length >= needs.assessments)
      untils.push(addDays(addYears(mine[needs.assessments - 1]!.assessment_date, years), -1));
    if (needs.hours !== null && needs.hours > 0) {
      let sum = 0;
      for (const d of mine) {
        sum += d.hours ?? 0;
        if (sum >= needs.hours) {
          untils.push(addDays(addYears(d.assessment_date, years), -1));
          break;
        }
      }
    }
    const currentUntil = untils.length ? untils.reduce((a, b) => (a > b ? a : b)) : null;
    const status = currentUntil === null ? "lapsed" : currentUntil <= addDays(today, CURRENCY_WARNING_DAYS) ? "lapsing" : "current";
    out.push({ ...w, assessments: mine.length, hours, needs, current_until: currentUntil, status });
  }
  return out.sort((a, b) => a.state.localeCompare(b.state) || a.licence_class.localeCompare(b.licence_class));
}

/** Currency in words: "4 of 9 assessments, 12 of 35 hours in 3 years; current until 9 Jan 2027". */
export function currencyText(c: ClassCurrency): string {
  const counts = [
    c.needs.assessments !== null ? `${c.assessments} of ${c.needs.assessments} assessments` : null,
    c.needs.hours !== null ? `${c.hours} of ${c.needs.hours} hours` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const when = c.current_until ? `current until ${hrwDate(c.current_until)}` : "not current";
  return `${c.state} ${c.licence_class}: ${counts} in ${c.needs.years} years; ${when}`;
}

export interface RegulatorTask {
  id: string;
  state: HrwState;
  trainer: { id: string; full_name: string };
  what: string;
  raised_on: string;
  due_on: string;
  done_reference: string | null;
  done_at: string | null;
}

/**
 * Raises "Tell the regulator within N days" for each of `states` whose rules on `today` ask to
 * be told when an assessor stops; runs inside the caller's transaction (deactivation, an
 * accreditation removed).
 */
export async function raiseAssessorStopped(
  trx: WriteTransaction,
  input: { trainerId: string; states: string[]; what: string; today: string; actor: SignedInActorRef; at: string },
): Promise<number> {
  let raised = 0;
  for (const state of [...new Set(input.states)]) {
    const days = (await stateRulesOn(trx, state, input.today)).number("assessor_change_report_days");
    if (days === null) continue;
    const id = crypto.randomUUID();
    await trx
      .insertInto("hrw_regulator_tasks")
      .values({
        id,
        state,
        trainer_id: input.trainerId,
        what: input.what,
        raised_on: input.today,
        due_on: addDays(input.today, days),
        done_reference: null,
        done_at: null,
        done_by: null,
        created_at: input.at,
      })
      .execute();
    await recordAudit(trx, {
      action: "hrw.regulator_task_raised",
      actor: signedInActor(input.actor),
      subject: { type: "user", id: input.trainerId },
      detail: `${state}: ${input.what}, due ${addDays(input.today, days)}`,
      now: input.at,
    });
    raised += 1;
  }
  return raised;
}

/** The regulator tasks: open ones first by due date, then the last done; one trainer's when asked. */
export async function listRegulatorTasks(db: DB, filter: { trainerId?: string; open?: boolean } = {}): Promise<RegulatorTask[]> {
  let query = db
    .selectFrom("hrw_regulator_tasks as t")
    .innerJoin("users as u", "u.id", "t.trainer_id")
    .select(["t.id", "t.state", "t.trainer_id", "u.full_name", "t.what", "t.raised_on", "t.due_on", "t.done_reference", "t.done_at"]);
  if (filter.trainerId) query = query.where("t.trainer_id", "=", filter.trainerId);
  if (filter.open) query = query.where("t.done_at", "is", null);
  const rows = await query.orderBy("t.due_on").orderBy("t.id").limit(200).execute();
  return rows.map((r) => ({
    id: r.id,
    state: r.state as HrwState,
    trainer: { id: r.trainer_id, full_name: r.full_name },
    what: r.what,
    raised_on: r.raised_on,
    due_on: r.due_on,
    done_reference: r.done_reference,
    done_at: r.done_at,
  }));
}

/** Records a regulator task done, with the regulator's reference (or how it was told). */
export async function completeRegulatorTask(db: DB, id: string, reference: string, actorRef: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(actorRef);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const task = await trx.selectFrom("hrw_regulator_tasks").select(["id", "state", "trainer_id", "done_at"]).where("id", "=", id).executeTakeFirst();
    if (!task) throw notFound("Regulator task");
    if (task.done_at) throw conflict("This task is already recorded done");
    await trx.updateTable("hrw_regulator_tasks").set({ done_reference: reference, done_at: at, done_by: actor.id }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "hrw.regulator_task_done",
      actor,
      subject: { type: "user", id: task.trainer_id },
      detail: `${task.state}: ${reference}`,
      now: at,
    });
  });
}
