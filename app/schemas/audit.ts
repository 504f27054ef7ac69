import { z } from "zod";
import { AUDIT_ACTION_NAMES } from "~/models/audit-actions";

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
 * The audit trail's filters, the same for /admin/audit, its CSV download and GET
 * /api/admin/audit: who (a user id or email, as actor or as the person concerned), what
 * (one action), about what (a subject id) and between which days (inclusive, on the
 * organisation's calendar: a day runs from its local midnight to the next).
 */
export const auditQuery = z
  .object({
    person: z.preprocess(blank, z.string({ message: "person must be text" }).trim().max(254, "person must be at most 254 characters").optional()).describe(
      "A user id or email: entries they caused or that concern them",
    ),
    action: z.preprocess(blank, z.enum(AUDIT_ACTION_NAMES, { message: `action must be one of ${AUDIT_ACTION_NAMES.join(", ")}` }).optional()),
    subject: z.preprocess(blank, z.string({ message: "subject must be text" }).trim().max(100, "subject must be at most 100 characters").optional()).describe(
      "The id of what the entry is about: a user, certificate or course id, or an AVETMISS year",
    ),
    from: day("from").describe("First day, YYYY-MM-DD, on the RTO's calendar (Australia/Sydney by default)"),
    to: day("to").describe("Last day, YYYY-MM-DD, on the RTO's calendar (Australia/Sydney by default)"),
    page: z.preprocess(
      blank,
      z
        .string({ message: "page must be a whole number" })
        .regex(/^\d{1,6}$/, "page must be a whole number")
        .transform(Number)
        .refine((n) => n >= 1, "page must be at least 1")
        .optional(),
    ).describe("1-based page"),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "from must not be after to", path: ["to"] });
export type AuditQuery = z.infer<typeof auditQuery>;
