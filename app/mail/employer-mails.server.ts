import { classDates } from "~/schemas/class-text";
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

export function workerInvitationEmail(input: { to: string; fullName: string; employer: string; course: string; start: string; end: string; link: string; rto: MailRto }): MailMessage {
  return message({
    ...input,
    subject: `${input.employer} has booked you into ${input.course}`,
    lines: [
      `${input.employer} has booked you a seat in the ${input.course} class of ${classDates(input.start, input.end)}.`,
      `Open this link to accept it: create your account (or sign in), give your enrolment details and USI, and choose whether ${input.employer} may see your results. It works once, for ${INVITATION_DAYS} days.`,
      "",
      input.link,
    ],
  });
}
