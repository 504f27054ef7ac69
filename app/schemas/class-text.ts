/**
 * The words of classes (docs/decisions/013-classes.md), free of zod and server code so pages can import
 * them: a message has one home, shared by the forms, the /api and the tests.
 */
export const CLASS_FULL = "This class is full";
export const ALL_CLASSES_FULL = "Every class of this course is full: join a class's waitlist";
export const CLASS_NOT_OPEN = "This class is not open for enrolment";
export const CLASS_CHOICE_REQUIRED = "Choose a class";
export const CLASS_CREATED = "Class added";
export const CLASS_UPDATED = "Class saved";
export const CLASS_CANCELLED = "Class cancelled: its learners have been told";
export const SEATS_BELOW_TAKEN = "There are more learners in this class than that: withdraw some first";
export const WAITLIST_JOINED = "You are on the waitlist";
export const WAITLIST_ALREADY = "You are already on this class's waitlist";
export const WAITLIST_HAS_SEAT = "This class has a free seat: enrol instead";
export const WAITLIST_LEFT = "You have left the waitlist";
export const OFFER_ACCEPTED = "Seat accepted: you are enrolled in the class";
export const NO_OFFER = "There is no open offer of a seat for you in this class";
export const ATTENDANCE_SAVED = "Attendance saved";
export const FEED_RENEWED = "New calendar address made: the old one no longer works";
export const FEED_MADE = "Calendar address made: add it to your calendar app";
export const FEED_EXISTS = "You already have a calendar address: make a new one only if the old one got out";
export const OFFER_HOURS = 48;

/** "N seats left" or the full wording the catalogue and enrolment page show. */
export function seatsWording(seatsLeft: number): string {
  if (seatsLeft <= 0) return "Full: join the waitlist";
  return seatsLeft === 1 ? "1 seat left" : `${seatsLeft} seats left`;
}

/** What a learner with an open offer reads beside the class: the seat is theirs until `until` (already formatted). */
export function seatHeldWording(until: string): string {
  return `A seat is held for you until ${until}`;
}

// Made once, not per date: each catalogue card shows several class dates, and building a
// formatter costs more than the catalogue's query.
const DAY_MONTH_YEAR = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
const DAY_MONTH = new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "short", timeZone: "UTC" });

/** A class's dates as people read them: "3 Dec 2026" or "3 – 5 Dec 2026". */
export function classDates(start: string, end: string): string {
  const fmt = (iso: string, withYear: boolean) => (withYear ? DAY_MONTH_YEAR : DAY_MONTH).format(new Date(`${iso}T00:00:00Z`));
  return start === end ? fmt(start, true) : `${fmt(start, false)} – ${fmt(end, true)}`;
}

/** A session's clock time (HH:MM on the RTO's clock) as people read it: "7:30 am", "12:00 pm". */
export function clockTime(hhmm: string): string {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${h < 12 ? "am" : "pm"}`;
}

/** One session of a class as a line: "3 Dec 2026, 7:30 am – 3:30 pm". */
export function sessionWording(s: { date: string; starts_at: string; ends_at: string }): string {
  return `${classDates(s.date, s.date)}, ${clockTime(s.starts_at)} – ${clockTime(s.ends_at)}`;
}

export const ATTENDANCE_WORDS = { present: "Present", absent: "Absent", late: "Late" } as const;

/** A class's sessions as the form's box shows them, one "YYYY-MM-DD HH:MM-HH:MM" a line (read back by sessionsFromText). */
export function sessionsToText(sessions: { date: string; starts_at: string; ends_at: string }[]): string {
  return sessions.map((s) => `${s.date} ${s.starts_at}-${s.ends_at}`).join("\n");
}
