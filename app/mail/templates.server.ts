import { organisation } from "~/env.server";
import { verificationPath } from "~/pdf/certificate-pdf.server";
import type { MailListEntry } from "~/models/outbox.server";
import type { MailData, MailTemplate } from "~/schemas/mail-text";
import { formatDateTime } from "~/utils/format";
import { documentOrigin } from "~/utils/public-link.server";
import { certificateIssuedEmail } from "./certificate-issued.server";
import { attendanceAlertEmail, classCancelledEmail, classReminderEmail, enrollmentConfirmedEmail, seatOfferedEmail } from "./class-mails.server";
import { complaintReceivedEmail, complaintResolvedEmail, recognitionDecidedEmail } from "./complaint-mails.server";
import { employerInvitationEmail, invoiceIssuedEmail, workerInvitationEmail } from "./employer-mails.server";
import { factorChangeEmail } from "./factor-change.server";
import { licenceReminderEmail } from "./hrw-reminder.server";
import type { MailRto } from "./layout.server";
import { passwordResetEmail } from "./password-reset.server";
import { questionnaireInvitationEmail } from "./questionnaire.server";
import { recognitionSessionEmail, refereeRequestEmail } from "./recognition-mails.server";
import type { MailMessage } from "./transport.server";

/**
 * Each template of the outbox (app/schemas/mail.ts) rendered into the mail that leaves: the
 * recipient's name and address as they are when it is sent, links under the portal's address
 * (APP_URL, else this machine: public-link.server.ts's documentOrigin).
 */

export interface Recipient {
  email: string;
  full_name: string;
}

export interface RenderContext {
  origin: string;
  rto: MailRto;
}

export function renderContext(): RenderContext {
  return { origin: documentOrigin(), rto: organisation() };
}

type Renderers = { [T in MailTemplate]: (data: MailData[T], to: { to: string; fullName: string }, ctx: RenderContext) => MailMessage };

const RENDER: Renderers = {
  "password-reset": (d, to, ctx) => passwordResetEmail({ ...to, link: d.link ?? "", validMinutes: d.validMinutes, rto: ctx.rto }),
  "certificate-issued": (d, to, ctx) =>
    certificateIssuedEmail({
      ...to,
      certificateNumber: d.certificateNumber,
      unit: d.unit,
      link: `${ctx.origin}${verificationPath(d.verificationCode)}`,
      rto: ctx.rto,
    }),
  "class-cancelled": (d, to, ctx) =>
    classCancelledEmail({ ...to, course: d.course, start: d.start, end: d.end, link: `${ctx.origin}${d.path}`, kept: d.kept, rto: ctx.rto }),
  "seat-offered": (d, to, ctx) =>
    seatOfferedEmail({
      ...to,
      course: d.course,
      start: d.start,
      end: d.end,
      expires: formatDateTime(d.expiresAt),
      link: `${ctx.origin}${d.path}`,
      rto: ctx.rto,
    }),
  "class-reminder": (d, to, ctx) =>
    classReminderEmail({
      ...to,
      course: d.course,
      start: d.start,
      end: d.end,
      firstSession: d.firstSession,
      location: d.location,
      link: `${ctx.origin}${d.path}`,
      rto: ctx.rto,
    }),
  "attendance-alert": (d, to, ctx) =>
    attendanceAlertEmail({ ...to, learner: d.learner, course: d.course, date: d.date, link: `${ctx.origin}${d.path}`, rto: ctx.rto }),
  "hrw-reminder": (d, to, ctx) => licenceReminderEmail({ ...d, ...to }, ctx.rto),
  "factor-changed": (d, to, ctx) => factorChangeEmail({ ...to, change: d.change, at: new Date(d.at), rto: ctx.rto }),
  "complaint-received": (d, to, ctx) => complaintReceivedEmail(d, to, `${ctx.origin}${d.path}`, ctx.rto),
  "complaint-resolved": (d, to, ctx) => complaintResolvedEmail(d, to, `${ctx.origin}${d.path}`, ctx.rto),
  "questionnaire-invitation": (d, to, ctx) =>
    questionnaireInvitationEmail({ ...to, audience: d.audience, subject: d.subject, link: `${ctx.origin}${d.path}`, rto: ctx.rto }),
  "employer-invitation": (d, to, ctx) => employerInvitationEmail({ ...to, employer: d.employer, link: d.link ?? "", rto: ctx.rto }),
  "worker-invitation": (d, to, ctx) =>
    workerInvitationEmail({
      ...to,
      employer: d.employer,
      course: d.course,
      start: d.start,
      end: d.end,
      expiresAt: d.expiresAt,
      releaseOn: d.releaseOn,
      link: d.link ?? "",
      rto: ctx.rto,
    }),
  "enrolment-confirmed": (d, to, ctx) => enrollmentConfirmedEmail({ ...to, data: d, origin: ctx.origin, rto: ctx.rto }),
  "recognition-decided": (d, to, ctx) => recognitionDecidedEmail(d, to, `${ctx.origin}${d.path}`, ctx.rto),
  "invoice-issued": (d, to, ctx) => invoiceIssuedEmail({ ...to, ...d, link: `${ctx.origin}${d.path}`, rto: ctx.rto }),
  "recognition-referee-request": (d, to, ctx) => refereeRequestEmail({ ...to, d, link: d.link ? `${ctx.origin}${d.link}` : "", rto: ctx.rto }),
  "recognition-session": (d, to, ctx) => recognitionSessionEmail({ ...to, d, link: `${ctx.origin}${d.path}`, rto: ctx.rto }),
};

/**
 * Mail that someone other than its recipient sets off, to an address nobody has proven: a
 * complaint's acknowledgement and outcome (the address and the name are whatever the sender
 * typed), a password reset (anyone may ask for any account, and registering proves no address),
 * the invitations (an employer or the office typed the name and the address), an enrolment's
 * confirmation (whoever registered typed the address, and an employer a worker's), an RPL
 * referee's request (staff typed the referee's name and address). These greet
 * "Hello there," and never by the recipient's name, so whoever sets them off cannot put words of
 * their own at the top of a mail the portal sends to a stranger; their subjects hold only the
 * portal's own words. Recorded in docs/decisions/008-rate-limits.md with the limits on the
 * anonymous writes that send them.
 */
export const GREETS_WITHOUT_NAME: ReadonlySet<MailTemplate> = new Set<MailTemplate>([
  "complaint-received",
  "complaint-resolved",
  "password-reset",
  "employer-invitation",
  "worker-invitation",
  "enrolment-confirmed",
  "recognition-referee-request",
]);

/** The mail of one outbox message, with a Message-ID of its own (the same on every try) and its key. */
export function renderMail(
  message: { id: string; key: string; template: MailTemplate; data: Record<string, unknown> },
  recipient: Recipient,
  ctx: RenderContext = renderContext(),
): MailMessage {
  const render = RENDER[message.template] as (data: unknown, to: { to: string; fullName: string }, ctx: RenderContext) => MailMessage;
  if (!render) throw new Error(`unknown mail template ${message.template}`);
  const fullName = GREETS_WITHOUT_NAME.has(message.template) ? "" : recipient.full_name;
  const mail = render(message.data, { to: recipient.email, fullName }, ctx);
  const host = new URL(ctx.origin).hostname || "localhost";
  return { ...mail, messageId: `<${message.id}@${host}>`, headers: { "X-Portal-Mail-Key": message.key } };
}

/** A message's subject, for the Mail page (the recipient does not change it). */
export function mailSubject(
  message: { id: string; key: string; template: MailTemplate; data: Record<string, unknown> },
  ctx: RenderContext = renderContext(),
): string {
  try {
    return renderMail(message, { email: "", full_name: "" }, ctx).subject;
  } catch {
    return message.template;
  }
}

/** A message as the Mail page and GET /api/admin/mail show it: its subject rendered, its data (which may hold a link) left out. */
export function mailView(m: MailListEntry, ctx: RenderContext = renderContext()) {
  return {
    id: m.id,
    key: m.key,
    template: m.template,
    subject: mailSubject(m, ctx),
    state: m.state,
    attempts: m.attempts,
    recipient: { id: m.recipient_id, name: m.recipient_name, email: m.recipient_email },
    created_at: m.created_at,
    next_attempt_at: m.next_attempt_at,
    sent_at: m.sent_at,
    last_error: m.last_error,
  };
}
