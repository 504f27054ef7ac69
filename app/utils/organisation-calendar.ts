/**
 * The RTO's calendar. "Today", "in the future" and every date shown to people are judged in its
 * time zone, not the server's or UTC: from 13:00 or 14:00 UTC it is already tomorrow in Sydney.
 * No imports, so pages, the server, the PDF template and the tests all read it from here.
 *
 * It is the one place that turns an instant into a calendar date or year: the linter refuses
 * `toISOString().slice(0, 10)`, `getFullYear()` and their kin elsewhere in app/ (a UTC date is
 * yesterday's until 10 or 11 in the morning in Sydney, and 1 January's morning falls in the
 * previous year).
 */

/** The organisation's time zone. */
export const ORGANISATION_TIME_ZONE = "Australia/Sydney";

/**
 * Made once: building an Intl.DateTimeFormat costs a fraction of a millisecond (it loads the
 * zone and locale data), more than the query a catalogue page runs, and pages ask for "today"
 * on every request.
 */
const CALENDAR_DATE = new Intl.DateTimeFormat("en-CA", { timeZone: ORGANISATION_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today's date (YYYY-MM-DD) on the organisation's calendar. */
export function organisationToday(now: Date = new Date()): string {
  return CALENDAR_DATE.format(now);
}

/** This year on the organisation's calendar. */
export function organisationYear(now: Date = new Date()): number {
  return Number(organisationToday(now).slice(0, 4));
}

/**
 * The calendar date (YYYY-MM-DD) of an instant on the organisation's calendar. A value that is
 * already a calendar date (a planned date, a date of birth) is that date.
 */
export function organisationDate(iso: string): string {
  if (ISO_DATE.test(iso)) return iso;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso.slice(0, 10) : organisationToday(d);
}

/** The UTC date of a calendar date's midnight: the date itself, for arithmetic on dates (no zone involved). */
const utcDay = (date: string) => new Date(`${date}T00:00:00Z`);
const dateOfUtcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The date `days` after an ISO date (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const d = utcDay(date.slice(0, 10));
  d.setUTCDate(d.getUTCDate() + days);
  return dateOfUtcDay(d);
}

/** A calendar date (YYYY-MM-DD) `months` later; a day past the month's end becomes its last day (31 Aug + 6 months: 28 or 29 Feb). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** Whether a YYYY-MM-DD string names a day the calendar has (2026-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const d = utcDay(value);
  return !Number.isNaN(d.getTime()) && dateOfUtcDay(d) === value;
}

/** The day of the week of a calendar date: 0 Sunday to 6 Saturday. */
export function weekdayOf(date: string): number {
  return utcDay(date).getUTCDay();
}

/** Made once, as CALENDAR_DATE: the organisation's clocks, to the second (24-hour). */
const WALL_CLOCK = new Intl.DateTimeFormat("en-CA", {
  timeZone: ORGANISATION_TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** What the organisation's clocks show at an instant: year, month (1-12), day, hour, minute, second. */
export function organisationWallClock(now: Date = new Date()): [number, number, number, number, number, number] {
  const parts = WALL_CLOCK.formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return [get("year"), get("month"), get("day"), get("hour"), get("minute"), get("second")];
}

/** The organisation's wall-clock reading of an instant, field by field (24-hour clock). */
function wallClock(at: Date): { date: string; time: string; offsetMinutes: number } {
  const part: Record<string, string> = {};
  for (const p of WALL_CLOCK.formatToParts(at)) part[p.type] = p.value;
  const date = `${part.year}-${part.month}-${part.day}`;
  const time = `${part.hour}:${part.minute}:${part.second}`;
  const asUtc = Date.parse(`${date}T${time}Z`);
  return { date, time, offsetMinutes: Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000) };
}

/**
 * The instant (ISO, UTC) the organisation's calendar date (YYYY-MM-DD) begins: its local
 * midnight, whose UTC offset depends on daylight saving (Sydney: +11:00 in summer, +10:00 in
 * winter). A search "from" a day starts here, and "to" a day ends where the next one starts.
 */
export function organisationDayStart(date: string): string {
  const midnightAsUtc = Date.parse(`${date}T00:00:00Z`);
  // the offset at a guess, then at the instant that guess gives: right on both sides of a change
  let instant = midnightAsUtc - wallClock(new Date(midnightAsUtc)).offsetMinutes * 60_000;
  instant = midnightAsUtc - wallClock(new Date(instant)).offsetMinutes * 60_000;
  return new Date(instant).toISOString();
}

/**
 * An instant as the organisation's local time with its UTC offset, to the second
 * (2026-11-28T01:23:52+11:00): unambiguous in a file read anywhere, and the day it shows is the
 * organisation's. The text as given when it is not an instant.
 */
export function organisationTimestamp(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const { date, time, offsetMinutes } = wallClock(at);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${date}T${time}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}
