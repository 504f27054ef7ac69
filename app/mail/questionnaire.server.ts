import { QUESTIONNAIRE_LINK_DAYS } from "~/schemas/improvement-text";
import { escapeHtml, greeting, htmlMail, textSignature, type MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The invitation to the learner or employer questionnaire: the link answers once, signed out, and the answers are read only as totals. */
export function questionnaireInvitationEmail(input: {
  to: string;
  fullName: string;
  audience: "learner" | "employer";
  subject: string;
  link: string;
  rto: MailRto;
}): MailMessage {
  const lines = [
    input.audience === "learner"
      ? `Thank you for completing ${input.subject} with ${input.rto.name}. Would you tell us how it went? The questionnaire takes about three minutes.`
      : `Thank you for training your people with ${input.rto.name}. Would you tell us how ${input.subject} went? The questionnaire takes about three minutes.`,
    `Your answers are anonymous: we read them only as totals, never with your name. The link works once, without signing in, for ${QUESTIONNAIRE_LINK_DAYS} days:`,
    "",
    input.link,
  ];
  const text = [greeting(input.fullName), "", ...lines, "", ...textSignature(input.rto)].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: lines
      .filter((l) => l !== "")
      .map((l) => `<p style="margin:0 0 16px">${l === input.link ? `<a href="${escapeHtml(l)}">${escapeHtml(l)}</a>` : escapeHtml(l)}</p>`)
      .join("\n"),
  });
  return { to: input.to, subject: `How did it go? A short questionnaire from ${input.rto.name}`, text, html };
}
