import type { DB } from "#db/connection";
import { env } from "~/env.server";
import { claimDueReminders, markReminderSent, type ReminderClaim } from "~/models/hrw-reminders.server";
import { HRW_MESSAGES, LICENCE_CLASSES, type LicenceClass } from "~/schemas/hrw-codes";
import { logLine } from "~/utils/log.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { escapeHtml, greeting, htmlMail, textSignature } from "./layout.server";
import { getMailer, type Mailer, type MailMessage } from "./transport.server";

/** The reminder to lodge an NSA with the regulator before it lapses. */
export function licenceReminderEmail(claim: ReminderClaim, rto: { name: string; code: string }): MailMessage {
  const licence = `${claim.licence_class} (${LICENCE_CLASSES[claim.licence_class as LicenceClass] ?? "high-risk work"})`;
  const line = `${HRW_MESSAGES.applyBy(claim.licence_class, claim.deadline)}: your Notice of Satisfactory Assessment ${claim.nsa_number} for the ${licence} licence is valid for 60 days, and ${claim.days_before} days are left.`;
  const text = [greeting(claim.full_name), "", line, "", "Lodge it with your state's WHS regulator together with your licence application.", "", ...textSignature(rto)].join("\n");
  const html = htmlMail({ fullName: claim.full_name, rto, body: `<p style="margin:0 0 16px">${escapeHtml(line)}</p><p style="margin:0 0 16px">Lodge it with your state's WHS regulator together with your licence application.</p>` });
  return { to: claim.to, subject: HRW_MESSAGES.applyBy(claim.licence_class, claim.deadline), text, html };
}

/** One pass of the reminder job: claim what is due, mail it, mark it sent. Never throws. */
export async function sendDueLicenceReminders(db: DB, mailer: Mailer = getMailer(), now = new Date()): Promise<number> {
  let sent = 0;
  try {
    const rto = { name: env().RTO_NAME, code: env().RTO_CODE };
    for (const claim of await claimDueReminders(db, organisationToday(now), now)) {
      try {
        await mailer.send(licenceReminderEmail(claim, rto));
        await markReminderSent(db, claim);
        sent += 1;
      } catch (error) {
        logLine({ event: "mail-error", kind: "hrw-reminder", error: String(error) });
      }
    }
  } catch (error) {
    logLine({ event: "job-error", kind: "hrw-reminder", error: String(error) });
  }
  return sent;
}

const EVERY_MS = 15 * 60_000;

/** Starts the job in this server process: soon after start, then every quarter hour. */
export function startLicenceReminderJob(db: DB): void {
  const run = () => void sendDueLicenceReminders(db);
  setTimeout(run, 30_000).unref();
  setInterval(run, EVERY_MS).unref();
}
