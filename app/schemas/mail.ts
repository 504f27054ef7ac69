import { z } from "zod";
import type { OutboxState } from "#db/schema";

/**
 * The mails the portal sends, by template: what each one's row in the outbox holds (besides
 * the recipient, whose name and address are read when it is sent), how the Mail page names it
 * and filters by it. The models queue them (app/models/outbox.server.ts), app/mail/ renders them.
 */

export const MAIL_TEMPLATES = [
  "password-reset",
  "certificate-issued",
  "class-cancelled",
  "seat-offered",
  "class-reminder",
  "attendance-alert",
  "hrw-reminder",
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
};

/** Links are paths: the runner puts them under the portal's address when it sends (APP_URL, else this machine). */
export interface MailData {
  /** the whole link: its origin was decided by the request (the one mail whose link carries a secret) */
  "password-reset": { link: string; validMinutes: number; expiresAt: string };
  "certificate-issued": { certificateNumber: string; unit: string; verificationCode: string };
  "class-cancelled": { course: string; start: string; end: string; path: string };
  "seat-offered": { course: string; start: string; end: string; expiresAt: string; path: string };
  "class-reminder": { course: string; start: string; end: string; firstSession: string; location: string | null; path: string };
  "attendance-alert": { learner: string; course: string; date: string; path: string };
  "hrw-reminder": { licenceClass: string; nsaNumber: string; deadline: string; daysBefore: number };
}

export const MAIL_STATES = ["queued", "sent", "failed", "given_up"] as const satisfies readonly OutboxState[];

export const MAIL_STATE_LABELS: Record<OutboxState, string> = {
  queued: "Queued",
  sent: "Sent",
  failed: "Failed, will retry",
  given_up: "Given up",
};

/** A filter box left blank is no filter. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const day = (label: string) =>
  z.preprocess(
    blank,
    z
      .string({ message: `${label} must be a date` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
      .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), `${label} must be a real date`)
      .optional(),
  );

/**
 * The Mail page's filters, the same for /admin/mail and GET /api/admin/mail: state, recipient
 * (a user id, or part of a name or email), template and the days it was queued (on the
 * organisation's calendar, inclusive).
 */
export const mailListQuery = z
  .object({
    state: z.preprocess(blank, z.enum(MAIL_STATES, { message: `state must be one of ${MAIL_STATES.join(", ")}` }).optional()),
    recipient: z
      .preprocess(blank, z.string({ message: "recipient must be text" }).trim().max(254, "recipient must be at most 254 characters").optional())
      .describe("A user id, or part of the recipient's name or email"),
    template: z.preprocess(blank, z.enum(MAIL_TEMPLATES, { message: `template must be one of ${MAIL_TEMPLATES.join(", ")}` }).optional()),
    from: day("from").describe("First day queued, YYYY-MM-DD (organisation's calendar)"),
    to: day("to").describe("Last day queued, YYYY-MM-DD (organisation's calendar)"),
    page: z
      .preprocess(
        blank,
        z
          .string({ message: "page must be a whole number" })
          .regex(/^\d{1,6}$/, "page must be a whole number")
          .transform(Number)
          .refine((n) => n >= 1, "page must be at least 1")
          .optional(),
      )
      .describe("1-based page"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["to"] });
export type MailListQuery = z.infer<typeof mailListQuery>;

/** The Mail page's "Send again" button. */
export const mailResendSchema = z.object({
  intent: z.literal("resend", { message: "Unknown action" }),
  id: z.string({ message: "Unknown message" }).uuid("Unknown message"),
});

export const MAIL_RESENT = "The message is queued and will be sent in a moment.";
export const MAIL_NOT_RESENDABLE_QUEUED = "This message is already waiting to be sent.";
export const MAIL_NOT_RESENDABLE_SECRET = "A password reset link is sent once and then removed; ask the person to request a new one.";
