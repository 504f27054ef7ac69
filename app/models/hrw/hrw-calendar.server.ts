import { createRequire } from "node:module";
import type Holidays from "date-holidays";
import type { HrwState } from "~/schemas/hrw-codes";
import { addDays, weekdayOf } from "~/utils/organisation-calendar";

/**
 * Calendar arithmetic for regulator notices and licence deadlines, on plain YYYY-MM-DD dates
 * (no time zone can shift them). Public holidays come from the date-holidays package, which
 * ships its tables with it (no network), per state; only days it marks "public" count.
 *
 * The package is loaded at the first date asked of it, not with the server: its tables cover
 * every country (800 kB), and loading them took a fifth of a server process's start, which every
 * worker pays again after a crash or a deploy (docs/decisions/006-performance.md).
 */
let HolidaysClass: typeof Holidays | undefined;
const holidaysClass = () => (HolidaysClass ??= createRequire(import.meta.url)("date-holidays") as typeof Holidays);

const calendars = new Map<string, Holidays>();
const holidayYears = new Map<string, Set<string>>();

/** The state's public holidays in one year, as YYYY-MM-DD. */
export function publicHolidays(state: HrwState, year: number): Set<string> {
  const key = `${state}:${year}`;
  let days = holidayYears.get(key);
  if (!days) {
    let calendar = calendars.get(state);
    if (!calendar) calendars.set(state, (calendar = new (holidaysClass())("AU", state)));
    days = new Set(
      calendar
        .getHolidays(year)
        .filter((h) => h.type === "public")
        .map((h) => h.date.slice(0, 10)),
    );
    holidayYears.set(key, days);
  }
  return days;
}

export function isBusinessDay(date: string, state: HrwState): boolean {
  const day = weekdayOf(date);
  if (day === 0 || day === 6) return false;
  return !publicHolidays(state, Number(date.slice(0, 4))).has(date);
}

/**
 * The last day a notice may be given `businessDays` business days ahead of `date`: counting
 * back from the day before, skipping weekends and the state's public holidays.
 */
export function businessDaysBefore(date: string, businessDays: number, state: HrwState): string {
  let day = date;
  let left = businessDays;
  while (left > 0) {
    day = addDays(day, -1);
    if (isBusinessDay(day, state)) left -= 1;
  }
  return day;
}

/** Whole years between a date of birth and a date (the age on that day). */
export function ageOn(dateOfBirth: string, date: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
