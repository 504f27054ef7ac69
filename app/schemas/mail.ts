import { z } from "zod";
import { MAIL_STATES, MAIL_TEMPLATES } from "./mail-text";

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
