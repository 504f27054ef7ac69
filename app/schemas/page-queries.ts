import { z } from "zod";
import { TIERS } from "~/utils/format";
import { STUDENT_ISSUES, STUDENT_STATUSES } from "./student-filters";

/**
 * Query strings and small forms of pages, kept out of the route modules so the browser bundle
 * does not carry zod (only loaders and actions use them).
 */

/**
 * The catalogue's query string; anything unexpected falls back to "all courses" rather than
 * failing, and a missing or unreadable page to the first.
 */
export const catalogueQuery = z.object({
  q: z.string().trim().max(100).catch(""),
  tier: z.enum(["all", ...TIERS] as [string, ...string[]]).catch("all"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

/** The admin overview's approve/reject form. */
export const accountDecisionSchema = z.object({
  intent: z.enum(["approve", "reject"], { message: "Unknown action" }),
  user_id: z.string().uuid("Unknown account"),
});

/** The student list's query string; anything unreadable falls back to the plain list. */
export const studentListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  status: z.enum(STUDENT_STATUSES).catch("all"),
  issue: z.enum(STUDENT_ISSUES).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
