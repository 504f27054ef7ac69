import type { OutboxState } from "#db/schema";

/**
 * The mails the portal sends, by template: what each one's row in the outbox holds (besides
 * the recipient, whose name and address are read when it is sent), how the Mail page names it
 * and filters by it. The models queue them (app/models/outbox.server.ts), app/mail/ renders them.
 * Zod-free, so the Mail page's browser code can read the labels (the schemas are in mail.ts).
 */

export const MAIL_TEMPLATES = [
  "password-reset",
  "certificate-issued",
  "class-cancelled",
  "seat-offered",
  "class-reminder",
  "attendance-alert",
  "hrw-reminder",
  "factor-changed",
  "complaint-received",
  "complaint-resolved",
  "questionnaire-invitation",
  "employer-invitation",
  "worker-invitation",
  "enrolment-confirmed",
  "recognition-decided",
  "invoice-issued",
  "recognition-referee-request",
  "recognition-session",
] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];

export const MAIL_TEMPLATE_LABELS: Record<MailTemplate, string> = {
  "password-reset": "Password reset",
  "certificate-issued": "Certificate issued",
  "class-cancelled": "Class cancelled",
  "seat-offered": "Seat offered",
  "class-reminder": "Class reminder",
  "attendance-alert": "Attendance alert",
  "hrw-reminder": "Licence application reminder",
  "factor-changed": "Sign-in change",
  "complaint-received": "Complaint or appeal received",
  "complaint-resolved": "Complaint or appeal outcome",
  "questionnaire-invitation": "Questionnaire invitation",
  "employer-invitation": "Employer invitation",
  "worker-invitation": "Worker invitation",
  "enrolment-confirmed": "Enrolment confirmed",
  "recognition-decided": "Recognition decided",
  "invoice-issued": "Invoice issued",
  "recognition-referee-request": "RPL report requested from a referee",
  "recognition-session": "RPL competency session",
};

/** The changes of a sign-in factor the owner is told of, in the words of the mail. */
export const FACTOR_CHANGES = {
  "two-step turned off": "Two-step sign-in was turned off",
  "two-step set up": "Two-step sign-in was set up",
  "two-step set up again": "Two-step sign-in was set up again with a new authenticator app",
  "password changed": "Your password was changed",
} as const;
export type FactorChange = keyof typeof FACTOR_CHANGES;

/** Links are paths: the runner puts them under the portal's address when it sends (APP_URL, else this machine). */
export interface MailData {
  /** the whole link: its origin was decided by the request (the one mail whose link carries a secret) */
  "password-reset": { link: string; validMinutes: number; expiresAt: string };
  "certificate-issued": { certificateNumber: string; unit: string; verificationCode: string };
  "class-cancelled": { course: string; start: string; end: string; path: string; kept?: boolean };
  "seat-offered": { course: string; start: string; end: string; expiresAt: string; path: string };
  "class-reminder": { course: string; start: string; end: string; firstSession: string; location: string | null; path: string };
  "attendance-alert": { learner: string; course: string; date: string; path: string };
  "hrw-reminder": {
    licenceClass: string;
    nsaNumber: string;
    deadline: string;
    daysBefore: number;
    /** the state's words for where to apply (absent in messages queued before they were kept) */ applyWhere?: string;
    windowDays?: number;
  };
  /** `at`: the instant of the change (ISO) */
  "factor-changed": { change: FactorChange; at: string };
  /** days are the organisation's calendar days (YYYY-MM-DD); `about`: an appeal's assessment */
  "complaint-received": { kind: "complaint" | "appeal"; reference: string; acknowledgeBy: string; resolveBy: string; about?: string; path: string };
  "complaint-resolved": {
    kind: "complaint" | "appeal";
    reference: string;
    outcome: "upheld" | "partly" | "dismissed";
    reasons: string;
    changedResult: string | null;
    /** an upheld appeal reopened a credit transfer or RPL for a new decision */ reopened?: boolean;
    path: string;
  };
  /** `subject`: what it asks about (the course completed); `path`: the questionnaire's link, which answers once */
  "questionnaire-invitation": { audience: "learner" | "employer"; subject: string; path: string };
  /** the whole link, carrying the invitation's token (removed once sent, like a reset link) */
  "employer-invitation": { link: string; employer: string; expiresAt: string };
  /** `releaseOn`: the day the booking's unfilled seats go back (absent in messages queued before it was kept) */
  "worker-invitation": { link: string; employer: string; course: string; start: string; end: string; expiresAt: string; releaseOn?: string };
  /**
   * Sent when an enrolment takes its seat (enrolling, a waitlist seat taken, an employer's
   * booking accepted): the class as it was then. `sessions`' days are YYYY-MM-DD, times HH:MM (the
   * organisation's); `fee`: the learner's own invoice (its page's path), or the employer billed.
   */
  "enrolment-confirmed": {
    course: string;
    unitCode: string;
    start: string | null;
    end: string | null;
    sessions: Array<{ date: string; starts_at: string; ends_at: string }>;
    location: string | null;
    /** held for the pre-enrolment review: confirmed once it is done */
    held: boolean;
    fee: { kind: "invoice"; number: string; totalCents: number; paidCents: number; path: string } | { kind: "employer"; employer: string } | { kind: "none" };
    path: string;
    calendarPath: string;
  };
  /** a credit transfer or RPL decision: `what` names it ("Credit transfer: TLILIC0005"), `decision` its words */
  "recognition-decided": { what: string; decision: string; reasons: string; path: string };
  /** an employer's tax invoice: `path` is its PDF in the employer portal (sign-in needed); dates are calendar days */
  "invoice-issued": { number: string; description: string; totalCents: number; gstCents: number; dueDate: string; path: string };
  /**
   * To a referee without an account: `learner` and `unit` name whom and what the report is about;
   * `link` is the report page's path, carrying the token (removed once sent, like a reset link).
   */
  "recognition-referee-request": { learner: string; unit: string; link: string; expiresAt: string };
  /** A competency session booked, moved or cancelled: its day YYYY-MM-DD and HH:MM times on the organisation's clock */
  "recognition-session": {
    change: "booked" | "rescheduled" | "cancelled";
    what: string;
    unit: string;
    date: string;
    startsAt: string;
    endsAt: string;
    location: string;
    notes: string | null;
    reason: string | null;
    path: string;
  };
}

export const MAIL_STATES = ["queued", "sent", "failed", "given_up"] as const satisfies readonly OutboxState[];

export const MAIL_STATE_LABELS: Record<OutboxState, string> = {
  queued: "Queued",
  sent: "Sent",
  failed: "Failed, will retry",
  given_up: "Given up",
};

export const MAIL_RESENT = "The message is queued and will be sent in a moment.";
export const MAIL_NOT_RESENDABLE_QUEUED = "This message is already waiting to be sent.";
export const MAIL_NOT_RESENDABLE_SECRET = "A password reset link is sent once and then removed; ask the person to request a new one.";
