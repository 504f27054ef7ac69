import { env } from "~/env.server";
import { logLine } from "~/utils/log.server";
import { ORGANISATION_TIME_ZONE } from "~/utils/organisation-calendar";
import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import { getMailer, type MailMessage, type Mailer } from "./transport.server";

/** The changes of a sign-in factor the owner is told of, in the words of the mail. */
export const FACTOR_CHANGES = {
  "two-step turned off": "Two-step sign-in was turned off",
  "two-step set up": "Two-step sign-in was set up",
  "two-step set up again": "Two-step sign-in was set up again with a new authenticator app",
  "password changed": "Your password was changed",
} as const;
export type FactorChange = keyof typeof FACTOR_CHANGES;

/** When it happened, in the organisation's time, with the zone named. */
function when(at: Date): string {
  const text = new Intl.DateTimeFormat("en-AU", { timeZone: ORGANISATION_TIME_ZONE, dateStyle: "full", timeStyle: "short" }).format(at);
  return `${text} (${ORGANISATION_TIME_ZONE.split("/")[1]} time)`;
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
  const html = htmlMail({ fullName: input.fullName, rto: input.rto, body: lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join("\n") });
  return { to: input.to, subject: `${what}: ${input.rto.name}`, text, html };
}

/**
 * Tells the owner that a sign-in factor of their account changed. Never throws: the change is
 * made and committed by then, and a mail that cannot be sent is logged (by user id) instead.
 */
export async function sendFactorChangeNotice(
  user: { id: string; email: string; full_name: string },
  change: FactorChange,
  at: Date,
  mailer: Mailer = getMailer(),
): Promise<void> {
  try {
    await mailer.send(factorChangeEmail({ to: user.email, fullName: user.full_name, change, at, rto: { name: env().RTO_NAME, code: env().RTO_CODE } }));
  } catch (error) {
    logLine({ event: "mail-error", kind: "factor-change", user: user.id, error: String(error) });
  }
}
