import type { MailData } from "~/schemas/mail-text";
import { HRW_MESSAGES, LICENCE_CLASSES, type LicenceClass } from "~/schemas/hrw-codes";
import { escapeHtml, greeting, htmlMail, textSignature, type MailRto } from "./layout.server";
import type { MailMessage } from "./transport.server";

/** The reminder to lodge an NSA with the regulator before it lapses. */
export function licenceReminderEmail(input: MailData["hrw-reminder"] & { to: string; fullName: string }, rto: MailRto): MailMessage {
  const licence = `${input.licenceClass} (${LICENCE_CLASSES[input.licenceClass as LicenceClass] ?? "high-risk work"})`;
  const line = `${HRW_MESSAGES.applyBy(input.licenceClass, input.deadline)}: your Notice of Satisfactory Assessment ${input.nsaNumber} for the ${licence} licence is valid for ${input.windowDays ?? 60} days, and ${input.daysBefore} days are left.`;
  const where = input.applyWhere
    ? `Apply ${input.applyWhere}, with your notice.`
    : "Lodge it with your state's WHS regulator together with your licence application.";
  const text = [greeting(input.fullName), "", line, "", where, "", ...textSignature(rto)].join("\n");
  const html = htmlMail({
    fullName: input.fullName,
    rto,
    body: `<p style="margin:0 0 16px">${escapeHtml(line)}</p><p style="margin:0 0 16px">${escapeHtml(where)}</p>`,
  });
  return { to: input.to, subject: HRW_MESSAGES.applyBy(input.licenceClass, input.deadline), text, html };
}
