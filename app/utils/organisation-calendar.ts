/**
 * The RTO's calendar. "Today", "in the future" and every date shown to people are judged in its
 * time zone, not the server's or UTC: from 13:00 or 14:00 UTC it is already tomorrow in Sydney.
 * No imports, so pages, the server, the PDF template and the tests all read it from here.
 */

/** The organisation's time zone. */
export const ORGANISATION_TIME_ZONE = "Australia/Sydney";

/**
 * Made once: building an Intl.DateTimeFormat costs a fraction of a millisecond (it loads the
 * zone and locale data), more than the query a catalogue page runs, and pages ask for "today"
 * on every request.
 */
const CALENDAR_DATE = new Intl.DateTimeFormat("en-CA", { timeZone: ORGANISATION_TIME_ZONE, year: "numeric", month: "2-digit", day: "2-digit" });

/** Today's date (YYYY-MM-DD) on the organisation's calendar. */
export function organisationToday(now: Date = new Date()): string {
  return CALENDAR_DATE.format(now);
}

/** The calendar date (YYYY-MM-DD) of an instant on the organisation's calendar. */
export function organisationDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso.slice(0, 10) : organisationToday(d);
}

/** The date `days` after an ISO date (YYYY-MM-DD). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

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

/** How far the organisation's clock is ahead of UTC at an instant, in milliseconds. */
function zoneOffset(ms: number): number {
  const p = Object.fromEntries(WALL_CLOCK.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(ms / 1000) * 1000;
}

/** The instant (ISO) a date (YYYY-MM-DD) begins on the organisation's calendar: a "from" filter's bound. */
export function organisationDayStart(date: string): string {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  // the offset at the guess, then again at the result: right on either side of a clock change
  const guess = midnight - zoneOffset(midnight);
  return new Date(midnight - zoneOffset(guess)).toISOString();
}
