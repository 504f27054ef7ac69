import { classDates } from "~/schemas/class-text";
import { formatCents, formatDate, formatDateTime } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import { INVITATION_DAYS } from "~/schemas/employer-text";
import { message } from "./class-mails.server";
import type { MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The mails of employers and group bookings (docs/decisions/032-employers-and-group-bookings.md). Each carries an invitation link that works once. */

export function employerInvitationEmail(input: { to: string; fullName: string; employer: string; link: string; rto: MailRto }): MailMessage {
  return message({
    ...input,
    subject: `Your ${input.rto.name} employer account for ${input.employer}`,
    lines: [
      `${input.rto.name} has made you an account to book training for ${input.employer} and follow your workers' progress.`,
      `Open this link to choose your password (it works once, for ${INVITATION_DAYS} days):`,
      "",
      input.link,
      "",
      "After you sign in, you can set up two-step sign-in from Account security.",
    ],
  });
}

/**
 * A worker's invitation. The link lasts INVITATION_DAYS; the booking's unfilled seats go back
 * on its release day (the booking page's day), which can come first when the class is near: then
 * the mail names that day as the one to accept before, so it never promises a seat longer than
 * the booking holds it.
 */
export function workerInvitationEmail(input: {
  to: string;
  fullName: string;
  employer: string;
  course: string;
  start: string;
  end: string;
  expiresAt?: string;
  releaseOn?: string;
  link: string;
  rto: MailRto;
}): MailMessage {
  const expires = input.expiresAt ? organisationToday(new Date(input.expiresAt)) : null;
  const releasedFirst = input.releaseOn && (!expires || input.releaseOn <= expires);
  return message({
    ...input,
    subject: `${input.employer} has booked you into ${input.course}`,
    lines: [
      `${input.employer} has booked you a seat in the ${input.course} class of ${classDates(input.start, input.end)}.`,
      `Open this link to accept it: create your account (or sign in), give your enrolment details and USI, and choose whether ${input.employer} may see your results. It works once, ${input.expiresAt ? `until ${formatDateTime(input.expiresAt)}` : `for ${INVITATION_DAYS} days`}.`,
      ...(releasedFirst
        ? [`Accept before ${formatDate(input.releaseOn)}: on that day seats nobody has accepted are released and may go to someone else.`]
        : []),
      "If you are not taking the seat, open the link and decline it, so it can go to someone else.",
      "",
      input.link,
    ],
  });
}

/** An employer's tax invoice, mailed when it is issued; the PDF is behind the employer's sign-in. */
export function invoiceIssuedEmail(input: {
  to: string;
  fullName: string;
  number: string;
  description: string;
  totalCents: number;
  gstCents: number;
  dueDate: string;
  link: string;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    subject: `Tax invoice ${input.number} from ${input.rto.name}`,
    lines: [
      `${input.rto.name} has issued tax invoice ${input.number}: ${input.description}.`,
      `Total ${formatCents(input.totalCents)} including GST of ${formatCents(input.gstCents)}, due by ${formatDate(input.dueDate)}.`,
      "Sign in to the employer portal to download it as a PDF:",
      "",
      input.link,
    ],
  });
}
