/**
 * The words of classes (docs/decisions/013-classes.md), free of zod and server code so pages can import
 * them: a message has one home, shared by the forms, the /api and the tests.
 */
import { formatDate, plural } from "~/utils/format";
export const CLASS_FULL = "This class is full";
export const ALL_CLASSES_FULL = "Every class of this course is full: join a class's waitlist";
export const CLASS_NOT_OPEN = "This class is not open for enrolment";
export const CLASS_CHOICE_REQUIRED = "Choose a class";
export const CLASS_CREATED = "Class added";
export const CLASS_UPDATED = "Class saved";
export const CLASS_CANCELLED = "Class cancelled: its learners have been told";
export const CHOOSE_ANOTHER_CLASS = "Your class was cancelled. You are still enrolled in this course: choose another class.";
export const CLASS_CHOSEN = "Class chosen: your seat is kept";
export const SEATS_BELOW_TAKEN = "There are more learners in this class than that: withdraw some first";
export const WAITLIST_JOINED = "You are on the waitlist";
export const WAITLIST_ALREADY = "You are already on this class's waitlist";
export const WAITLIST_HAS_SEAT = "This class has a free seat: enrol instead";
export const WAITLIST_LEFT = "You have left the waitlist";
export const OFFER_ACCEPTED = "Seat accepted: you are enrolled in the class";
export const NO_OFFER = "There is no open offer of a seat for you in this class";
export const ATTENDANCE_SAVED = "Attendance saved";
export const SESSION_NOT_STARTED = "This session has not started: mark attendance on its day";
export const FEED_RENEWED = "New calendar address made: the old one no longer works";
export const FEED_MADE = "Calendar address made: add it to your calendar app";
export const FEED_EXISTS = "You already have a calendar address: make a new one only if the old one got out";
export const OFFER_HOURS = 48;

/** A booking of more seats than a class has left (and it has some): how many it can still take. */
export function onlySeatsLeft(seatsLeft: number): string {
  return `Only ${plural(seatsLeft, "seat")} ${seatsLeft === 1 ? "is" : "are"} left in this class`;
}

/** "N seats left" or the full wording the catalogue and enrolment page show. */
export function seatsWording(seatsLeft: number): string {
  if (seatsLeft <= 0) return "Full: join the waitlist";
  return `${plural(seatsLeft, "seat")} left`;
}

/** How full a class is, for the office: "1 seat taken of 1", "3 seats taken of 8". */
export function seatsTaken(seats: number, seatsLeft: number): string {
  return `${plural(seats - seatsLeft, "seat")} taken of ${seats}`;
}

/** What a learner with an open offer reads beside the class: the seat is theirs until `until` (already formatted). */
export function seatHeldWording(until: string): string {
  return `A seat is held for you until ${until}`;
}

/**
 * A class's dates as people read them: "3 Dec 2026" or "3 – 5 Dec 2026", in the one date format
 * (formatDate: "8 Nov 2026", never "June"); the start drops its year when the end has the same.
 */
export function classDates(start: string, end: string): string {
  if (start === end) return formatDate(start);
  const from = formatDate(start);
  return start.slice(0, 4) === end.slice(0, 4) ? `${from.replace(/ \d{4}$/, "")} – ${formatDate(end)}` : `${from} – ${formatDate(end)}`;
}

/** What a learner brings to every class: the reminder, the enrolment confirmation and the dashboard say it in these words. */
export const WHAT_TO_BRING = "Photo ID, your USI and steel-capped boots";

export const ATTENDANCE_WORDS = { present: "Present", absent: "Absent", late: "Late" } as const;

/**
 * What saving a class set off, for the office: the seats' new number and each seat offered to a
 * waiting learner with the offer's expiry ("Seats raised to 12: a seat was offered to Wren
 * Waiting, the offer expires 30 Nov 2026, 7:30 am"). `when` formats an instant on the RTO's clock.
 */
export function classSavedMessage(
  seats: { from: number; to: number },
  offers: { full_name: string; offer_expires_at: string }[],
  when: (iso: string) => string,
): string {
  const change = seats.to > seats.from ? `Seats raised to ${seats.to}` : seats.to < seats.from ? `Seats lowered to ${seats.to}` : CLASS_UPDATED;
  if (offers.length === 0) return seats.to > seats.from ? `${change}: no one was waiting` : change;
  const offered = offers.map((o) => `a seat was offered to ${o.full_name}, the offer expires ${when(o.offer_expires_at)}`).join("; ");
  return `${change}: ${offered}`;
}

/** The confirmation of cancelling a class: what happens to whom (the learners are named beside it). */
export function cancelClassWords(enrolled: number, waiting: number): string[] {
  return [
    "The class leaves the catalogue and its sessions leave the calendars.",
    enrolled === 0
      ? "No learner is enrolled in it."
      : enrolled === 1
        ? "Its 1 learner keeps their enrolment in the course, is mailed, and is asked to choose another class."
        : `Its ${enrolled} learners keep their enrolment in the course, are mailed, and are asked to choose another class.`,
    waiting === 0
      ? "No one is waiting for a seat."
      : waiting === 1
        ? "The 1 learner on its waitlist is taken off it and mailed."
        : `The ${waiting} learners on its waitlist are taken off it and mailed.`,
  ];
}
