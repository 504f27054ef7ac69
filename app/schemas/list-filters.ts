import { z } from "zod";
import { isCalendarDate } from "~/utils/organisation-calendar";

/**
 * The pieces of a list page's GET filter form (the audit trail, the mail list and their /api
 * twins): blank boxes are no filter, days are the organisation's calendar days, and the page is
 * 1-based. A bad value is answered with its message beside its field (400) on the page and as a
 * 422 over /api, never silently replaced.
 */

/** A filter box left blank is no filter. */
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/** A free-text filter of at most `max` characters. */
export const filterText = (label: string, max: number) =>
  z.preprocess(
    blank,
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .optional(),
  );

/** One of a list of values, or no filter. */
export const filterChoice = <T extends string>(label: string, values: readonly T[]) =>
  z.preprocess(blank, z.enum(values as readonly [T, ...T[]], { message: `${label} must be one of ${values.join(", ")}` }).optional());

/** A day (YYYY-MM-DD) on the organisation's calendar. */
const filterDay = (label: string) =>
  z.preprocess(
    blank,
    z
      .string({ message: `${label} must be a date` })
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date as YYYY-MM-DD`)
      .refine(isCalendarDate, `${label} must be a real date`)
      .optional(),
  );

const pageField = z
  .preprocess(
    blank,
    z
      .string({ message: "page must be a whole number" })
      .regex(/^\d{1,6}$/, "page must be a whole number")
      .transform(Number)
      .refine((n) => n >= 1, "page must be at least 1")
      .optional(),
  )
  .describe("1-based page");

/**
 * A filtered, paged list's query: the list's own fields, the days `from` and `to` (inclusive,
 * each running from its local midnight to the next on the organisation's calendar) and the page.
 */
export function filteredListQuery<S extends z.ZodRawShape>(fields: S, days: { from: string; to: string }) {
  return z
    .object({ ...fields, from: filterDay("from").describe(days.from), to: filterDay("to").describe(days.to), page: pageField })
    .refine(({ from, to }: { from?: unknown; to?: unknown }) => !from || !to || String(from) <= String(to), {
      message: "from must not be after to",
      path: ["to"],
    });
}

/**
 * A list page's filters read from its query string: the boxes as typed (to show them again),
 * each bad box's message and the first one (status 400), or the parsed query.
 */
export function readListFilters<T>(
  schema: z.ZodType<T>,
  raw: Record<string, string>,
  names: readonly string[],
): { values: Record<string, string>; fieldErrors: Record<string, string>; error: string | null; query: T | null } {
  const values = Object.fromEntries(names.map((n) => [n, raw[n] ?? ""]));
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { values, fieldErrors: {}, error: null, query: parsed.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0])] ??= issue.message;
  return { values, fieldErrors, error: parsed.error.issues[0]?.message ?? "Invalid filters", query: null };
}
