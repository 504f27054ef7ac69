import { KIND_LABELS, OUTCOME_LABELS } from "~/schemas/complaint-text";
import type { MailData } from "~/schemas/mail-text";
import { formatDate } from "~/utils/format";
import { escapeHtml, greeting, htmlMail, textSignature, type MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The acknowledgement and the outcome of a complaint or appeal, to the person who lodged it. */

function message(input: { to: string; fullName: string; subject: string; lines: string[]; rto: MailRto }): MailMessage {
  const text = [greeting(input.fullName), "", ...input.lines.flatMap((line) => [line, ""]), ...textSignature(input.rto)].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: input.lines.map((line) => `<p style="margin:0 0 16px;white-space:pre-line">${escapeHtml(line)}</p>`).join("\n"),
  });
  return { to: input.to, subject: input.subject, text, html };
}

export function complaintReceivedEmail(d: MailData["complaint-received"], to: { to: string; fullName: string }, link: string, rto: MailRto): MailMessage {
  const what = KIND_LABELS[d.kind].toLowerCase();
  return message({
    ...to,
    rto,
    subject: `We received your ${what} ${d.reference}: ${rto.name}`,
    lines: [
      `Thank you: we have received your ${what}${d.about ? ` about ${d.about}` : ""}. Its reference is ${d.reference}; please quote it when you contact us.`,
      `We will acknowledge it by ${formatDate(d.acknowledgeBy)} and aim to resolve it by ${formatDate(d.resolveBy)}.`,
      d.kind === "appeal"
        ? "Your appeal is decided by a staff member other than the assessor whose decision it is."
        : "Nobody is disadvantaged for making a complaint.",
      `Our complaints and appeals policy: ${link}`,
    ],
  });
}

export function complaintResolvedEmail(d: MailData["complaint-resolved"], to: { to: string; fullName: string }, link: string, rto: MailRto): MailMessage {
  const what = KIND_LABELS[d.kind].toLowerCase();
  return message({
    ...to,
    rto,
    subject: `The outcome of your ${what} ${d.reference}: ${rto.name}`,
    lines: [
      `Your ${what} ${d.reference} has been decided: ${OUTCOME_LABELS[d.outcome]}.`,
      `Reasons: ${d.reasons}`,
      ...(d.reopened
        ? [
            "Your application is reopened: it will be decided again, by a different assessor where one is credentialed for the unit, and we will mail you the new decision.",
          ]
        : d.changedResult
          ? [`Your result has been changed to: ${d.changedResult}.`]
          : []),
      `If you are not satisfied you can ask for an independent review; see ${link}`,
    ],
  });
}

/** A credit transfer or RPL decision, to the learner: the decision, its reasons and how to appeal. */
export function recognitionDecidedEmail(d: MailData["recognition-decided"], to: { to: string; fullName: string }, link: string, rto: MailRto): MailMessage {
  return message({
    ...to,
    rto,
    subject: `Your recognition application has been decided: ${rto.name}`,
    lines: [`${d.what}: ${d.decision}.`, `Reasons: ${d.reasons}`, `If you disagree you can appeal the decision from your appeals page: ${link}`],
  });
}
