import type { EnrollmentStatus, Tier } from "#db/schema";
import { ORGANISATION_TIME_ZONE } from "./organisation-calendar";

const TIER_LABELS: Record<Tier, string> = { tier_1: "Tier 1", tier_2: "Tier 2", tier_3: "Tier 3" };

export function tierLabel(tier: string): string {
  return TIER_LABELS[tier as Tier] ?? tier;
}

const STATUS_LABELS: Record<string, string> = {
  enrolled: "Enrolled",
  in_progress: "In Progress",
  completed: "Completed",
  withdrawn: "Withdrawn",
  passed: "Passed",
  failed: "Failed",
  resubmission: "Resubmission",
  pending: "Pending",
};

export function statusLabel(status: EnrollmentStatus | string): string {
  return STATUS_LABELS[status] ?? status.replace(/_/g, " ");
}

const money = new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD", currencyDisplay: "narrowSymbol" });
const wholeMoney = new Intl.NumberFormat("en-AU", {
  style: "currency",
  currency: "AUD",
  currencyDisplay: "narrowSymbol",
  maximumFractionDigits: 0,
});

/** An amount in cents, always with cents: $1,234.50, -$20.00 (invoices, payments). */
export function formatCents(cents: number): string {
  return money.format(cents / 100);
}

/** $1,200 for whole dollars, $1,234.50 otherwise. */
export function formatPrice(dollars: number): string {
  return Number.isInteger(dollars) ? wholeMoney.format(dollars) : money.format(dollars);
}

// Formatters are made once: building one costs a fraction of a millisecond, and a list page
// formats a date per row.
// Numeric parts only: the month's name is ours, three letters always (en-AU would write "June",
// "July" and "Sept" beside "Nov").
const dateFormat = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "numeric", year: "numeric", timeZone: ORGANISATION_TIME_ZONE });
/** A calendar date (YYYY-MM-DD) is a day, not an instant: shown as written, whatever the zone. */
const calendarDateFormat = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "numeric", year: "numeric", timeZone: "UTC" });
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const;

function dayMonthYear(format: Intl.DateTimeFormat, d: Date): string {
  const parts = format.formatToParts(d);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return `${part("day")} ${MONTHS[part("month") - 1]} ${part("year")}`;
}

/** A date for people (22 Nov 2026); `fallback` when there is none. */
export function formatDate(iso: string | null | undefined, fallback = "Unknown"): string {
  if (!iso) return fallback;
  const d = new Date(iso.length === 10 ? `${iso}T00:00:00Z` : iso);
  if (Number.isNaN(d.getTime())) return fallback;
  return dayMonthYear(iso.length === 10 ? calendarDateFormat : dateFormat, d);
}

const wallClock = new Intl.DateTimeFormat("en-CA", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: ORGANISATION_TIME_ZONE });

/** An instant for people, in the RTO's time zone: "22 Nov 2026, 7:30 am". */
export function formatDateTime(iso: string | null | undefined, fallback = "Never"): string {
  if (!iso) return fallback;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? fallback : `${dayMonthYear(dateFormat, d)}, ${clockTime(wallClock.format(d))}`;
}

export function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? fullName;
}

export function initial(fullName: string): string {
  return (fullName.trim()[0] ?? "?").toUpperCase();
}

export const ROLE_LABELS = { student: "Student", trainer: "Trainer", admin: "Administrator", employer: "Employer" } as const;

/**
 * A count with its noun: "1 learner", "3 learners", "0 entries". The one place a count meets
 * its noun, so no page says "1 learners".
 */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString("en-AU")} ${count === 1 ? one : many}`;
}

/**
 * A training location as people read it: its name, then its suburb unless the name already says
 * it ("Mayfield West", not "Mayfield West, Mayfield West").
 */
export function locationLabel(name: string, suburb: string | null | undefined): string {
  const where = suburb?.trim();
  if (!where || name.toLowerCase().includes(where.toLowerCase())) return name;
  return `${name}, ${where}`;
}

/** A wall-clock time typed as HH:MM (24-hour, the organisation's) shown as people read it: "7:30 am", "3:05 pm", "12:00 pm". */
export function clockTime(hhmm: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  if (!m) return hhmm;
  const hour = Number(m[1]);
  return `${hour % 12 === 0 ? 12 : hour % 12}:${m[2]} ${hour < 12 ? "am" : "pm"}`;
}

/** A session as people read it: "28 Nov 2026, 7:30 am – 3:30 pm". */
export function sessionWhen(s: { date: string; starts_at: string; ends_at: string }): string {
  return `${formatDate(s.date)}, ${clockTime(s.starts_at)} – ${clockTime(s.ends_at)}`;
}

/** A keeping period as people read it: whole years in years ("30 years", not "360 months"). */
export function keepingPeriod(months: number | null): string {
  if (months === null) return "For ever";
  return months > 0 && months % 12 === 0 ? plural(months / 12, "year") : plural(months, "month");
}
