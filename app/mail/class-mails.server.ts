import { classDates, OFFER_HOURS, WHAT_TO_BRING } from "~/schemas/class-text";
import type { MailData } from "~/schemas/mail-text";
import { formatCents, sessionWhen } from "~/utils/format";
import { escapeHtml, greeting, htmlMail, textSignature, type MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The mails of classes (docs/decisions/013-classes.md). Links lead to pages; they sign nothing in. */

/** A mail of plain paragraphs (a line that is a link becomes one): the class mails and the employer ones. */
export function message(input: { to: string; fullName: string; rto: MailRto; subject: string; lines: string[] }): MailMessage {
  const text = [greeting(input.fullName), "", ...input.lines, "", ...textSignature(input.rto)].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: input.lines
      .filter((l) => l !== "")
      .map((l) => `<p style="margin:0 0 16px">${/^https?:\/\//.test(l) ? `<a href="${escapeHtml(l)}">${escapeHtml(l)}</a>` : escapeHtml(l)}</p>`)
      .join("\n"),
  });
  return { to: input.to, subject: input.subject, text, html };
}

/** `kept`: the learner was enrolled in the class, and their enrolment in the course stays (to choose another class). */
export function classCancelledEmail(input: {
  to: string;
  fullName: string;
  course: string;
  start: string;
  end: string;
  link: string;
  kept?: boolean;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    subject: `Class cancelled: ${input.course}, ${classDates(input.start, input.end)}`,
    lines: [
      `We are sorry: the ${input.course} class of ${classDates(input.start, input.end)} has been cancelled.`,
      input.kept
        ? "You are still enrolled in the course: choose another class of it from the course page (or talk to us about your enrolment):"
        : "Choose another class, or talk to us about your enrolment, from the course page:",
      "",
      input.link,
    ],
  });
}

export function seatOfferedEmail(input: {
  to: string;
  fullName: string;
  course: string;
  start: string;
  end: string;
  expires: string;
  link: string;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    subject: `A seat is free for you: ${input.course}, ${classDates(input.start, input.end)}`,
    lines: [
      `A seat has come free in the ${input.course} class of ${classDates(input.start, input.end)}, and you are first on its waitlist.`,
      `It is kept for you for ${OFFER_HOURS} hours (until ${input.expires}). Sign in and accept it on the course page:`,
      "",
      input.link,
    ],
  });
}

export function classReminderEmail(input: {
  to: string;
  fullName: string;
  course: string;
  start: string;
  end: string;
  firstSession: string;
  location: string | null;
  link: string;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    subject: `Reminder: ${input.course} starts ${classDates(input.start, input.start)}`,
    lines: [
      `Your ${input.course} class starts on ${input.firstSession}${input.location ? ` at ${input.location}` : ""}.`,
      `Bring: ${WHAT_TO_BRING}. Your sessions are on your course page:`,
      "",
      input.link,
    ],
  });
}

export function attendanceAlertEmail(input: {
  to: string;
  fullName: string;
  learner: string;
  course: string;
  date: string;
  link: string;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    subject: `Attendance: ${input.learner} absent twice in a row`,
    lines: [`${input.learner} was absent from two sessions of ${input.course} in a row (the second on ${input.date}).`, "", input.link],
  });
}

/**
 * The confirmation of an enrolment's seat: the class's sessions, where, what to bring, the fee's
 * record and the calendar page (its feed's address is a secret shown once, so the mail leads to
 * the page that makes it, never carries it). It greets without a name (templates.server.ts
 * GREETS_WITHOUT_NAME): registering proves no address, and an employer typed a worker's.
 */
export function enrollmentConfirmedEmail(input: {
  to: string;
  fullName: string;
  data: MailData["enrolment-confirmed"];
  origin: string;
  rto: MailRto;
}): MailMessage {
  const d = input.data;
  const when = d.start && d.end ? `, ${classDates(d.start, d.end)}` : "";
  const fee =
    d.fee.kind === "invoice"
      ? [
          `Tax invoice ${d.fee.number}: ${formatCents(d.fee.totalCents)}, ${d.fee.paidCents >= d.fee.totalCents ? "paid" : `${formatCents(d.fee.totalCents - d.fee.paidCents)} to pay`}. Your invoices and receipts:`,
          `${input.origin}${d.fee.path}`,
        ]
      : d.fee.kind === "employer"
        ? [`Your employer, ${d.fee.employer}, booked this seat and is invoiced for it.`]
        : ["There is no fee to pay for this enrolment."];
  return message({
    ...input,
    subject: `Enrolment confirmed: ${d.course}${when}`,
    lines: [
      d.held
        ? `You are enrolled in ${d.unitCode} ${d.course}, and your seat is held while we complete your pre-enrolment review; we will tell you when it is confirmed.`
        : `You are enrolled in ${d.unitCode} ${d.course}.`,
      ...(d.sessions.length
        ? ["Your class sessions:", ...d.sessions.map((s) => `- ${sessionWhen({ date: s.date, starts_at: s.starts_at, ends_at: s.ends_at })}`)]
        : ["Your class dates will be set with you; they will show on your course page."]),
      `Where: ${d.location ?? "to be confirmed"}`,
      `What to bring: ${WHAT_TO_BRING}.`,
      ...fee,
      "Add your classes to your calendar:",
      `${input.origin}${d.calendarPath}`,
      "Your course page:",
      `${input.origin}${d.path}`,
    ],
  });
}
