import { FACTOR_CHANGES, type FactorChange } from "~/schemas/mail-text";
import { formatDateTime } from "~/utils/format";
import { ORGANISATION_TIME_ZONE } from "~/utils/organisation-calendar";
import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** When it happened, in the organisation's time and the one date format ("8 Nov 2026, 7:30 am"), with the zone named. */
function when(at: Date): string {
  return `${formatDateTime(at.toISOString())} (${ORGANISATION_TIME_ZONE.split("/")[1]} time)`;
}

/** The notice: what changed, when, that other devices were signed out, and whom to call if it was not them. */
export function factorChangeEmail(input: { to: string; fullName: string; change: FactorChange; at: Date; rto: { name: string; code: string } }): MailMessage {
  const what = FACTOR_CHANGES[input.change];
  const lines = [
    `${what} on your ${input.rto.name} account on ${when(input.at)}.`,
    "Every other device signed in to your account has been signed out.",
    `If this was not you, contact the office of ${input.rto.name} straight away.`,
  ];
  const text = [greeting(input.fullName), "", ...lines.flatMap((line) => [line, ""]), ...textSignature(input.rto)].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto: input.rto,
    body: lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join("\n"),
  });
  return { to: input.to, subject: `${what}: ${input.rto.name}`, text, html };
}
