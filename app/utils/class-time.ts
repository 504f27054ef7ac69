import { ORGANISATION_TIME_ZONE } from "./organisation-calendar";

/** One formatter per time zone, kept: a calendar feed converts every session twice. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let f = wallClocks.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallClocks.set(timeZone, f);
  }
  return f;
}

/**
 * Class sessions are written as a date and HH:MM on the RTO's clock; calendars and reminders
 * need the instant. The offset is read from the time zone database for that very date, so a
 * session after the daylight-saving change gets its own offset.
 */
function offsetMs(instant: number, timeZone: string): number {
  const parts = wallClock(timeZone).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant of `date` (YYYY-MM-DD) at `time` (HH:MM) on the organisation's clock. */
export function organisationInstant(date: string, time: string, timeZone = ORGANISATION_TIME_ZONE): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const [hh, mm] = time.split(":").map(Number) as [number, number];
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let guess = wall - offsetMs(wall, timeZone);
  guess = wall - offsetMs(guess, timeZone);
  return new Date(guess);
}
