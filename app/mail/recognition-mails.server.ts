import type { MailData } from "~/schemas/mail-text";
import { formatDate, formatDateTime, clockTime } from "~/utils/format";
import { message } from "./class-mails.server";
import type { MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The mails of an RPL's steps before its decision (docs/decisions/037-recognition.md): a referee's request and the learner's sessions. */

/**
 * To a referee, who has no account: whom and what the report is about, and the link that opens
 * the form (it works once, until it expires). The greeting names nobody: staff typed the name.
 */
export function refereeRequestEmail(input: {
  to: string;
  fullName: string;
  d: MailData["recognition-referee-request"];
  link: string;
  rto: MailRto;
}): MailMessage {
  return message({
    ...input,
    // the subject holds only the portal's words (templates.server.ts, GREETS_WITHOUT_NAME)
    subject: `A workplace report for a recognition of prior learning: ${input.rto.name}`,
    lines: [
      `${input.d.learner} has applied to ${input.rto.name} for recognition of prior learning in ${input.d.unit}, and named you as someone who has seen their work.`,
      `Please tell the assessor what you saw them do. The form takes about ten minutes; it works once, until ${formatDateTime(input.d.expiresAt)}:`,
      "",
      input.link,
      "",
      "If you do not know this person, or do not want to give a report, you can ignore this email.",
    ],
  });
}

const CHANGE_WORDS: Record<MailData["recognition-session"]["change"], string> = {
  booked: "is booked",
  rescheduled: "has moved",
  cancelled: "is cancelled",
};

/** To the learner: their competency conversation or practical challenge booked, moved or cancelled. */
export function recognitionSessionEmail(input: { to: string; fullName: string; d: MailData["recognition-session"]; link: string; rto: MailRto }): MailMessage {
  const { d } = input;
  const when = `${formatDate(d.date)}, ${clockTime(d.startsAt)} to ${clockTime(d.endsAt)}`;
  return message({
    ...input,
    subject: `Your ${d.what.toLowerCase()} for ${d.unit} ${CHANGE_WORDS[d.change]}`,
    lines: [
      `Your ${d.what.toLowerCase()} for the recognition of prior learning in ${d.unit} ${CHANGE_WORDS[d.change]}${d.change === "cancelled" ? "" : ":"}`,
      ...(d.change === "cancelled"
        ? [`It was to be on ${when} at ${d.location}.`, ...(d.reason ? [`Why: ${d.reason}`] : [])]
        : [`When: ${when}`, `Where: ${d.location}`, ...(d.notes ? [`Notes from your assessor: ${d.notes}`] : [])]),
      `Your application: ${input.link}`,
    ],
  });
}
