import { z } from "zod";
import { isCalendarDate } from "~/utils/organisation-calendar";
import { classIdField } from "./enrollment";
import { sessionFieldId, sessionRows } from "./class-session-rows";

export { sessionFieldId, sessionRows, type SessionRow } from "./class-session-rows";

/**
 * Classes (docs/decisions/013-classes.md): one schema for the admin form and the /api. The form has
 * one row per session (date, start and end fields); the /api sends them as objects. Both end in
 * the same ClassInput.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const dateField = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(10, `${label} must be a date (YYYY-MM-DD)`)
    .refine((v) => ISO_DATE.test(v) && isCalendarDate(v), `${label} must be a date (YYYY-MM-DD)`);

const timeField = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .max(5, `${label} must be a time (HH:MM)`)
    .refine((v) => TIME.test(v), `${label} must be a time (HH:MM)`);

export const sessionSchema = z
  .strictObject({ date: dateField("Session date"), starts_at: timeField("Start time"), ends_at: timeField("End time") })
  .refine((s) => s.ends_at > s.starts_at, { message: "A session must end after it starts", path: ["ends_at"] });
export type SessionInput = z.infer<typeof sessionSchema>;

export const SEATS_RANGE = "Seats must be a whole number from 1 to 100";
const seats = z.number({ message: SEATS_RANGE }).int(SEATS_RANGE).min(1, SEATS_RANGE).max(100, SEATS_RANGE);
const idField = (label: string) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100, `${label} not found`);

function checkDates(value: { start_date?: string; end_date?: string; sessions?: SessionInput[] }, ctx: z.RefinementCtx) {
  const { start_date: start, end_date: end, sessions } = value;
  if (start && end && end < start) ctx.addIssue({ code: "custom", message: "The end date cannot be before the start date", path: ["end_date"] });
  if (start && end && sessions) {
    for (const s of sessions) {
      if (s.date < start || s.date > end) {
        ctx.addIssue({ code: "custom", message: `Session ${s.date} is outside the class's dates`, path: ["sessions"] });
        return;
      }
    }
  }
}

const classFields = {
  start_date: dateField("Start date"),
  end_date: dateField("End date"),
  sessions: z.array(sessionSchema, { message: "Sessions must be a list" }).min(1, "Add at least one session").max(60, "At most 60 sessions"),
  location_id: idField("Location").optional(),
  trainer_id: idField("Trainer"),
  seats,
};

/** POST /api/admin/courses/{id}/classes and the add-class form (after its sessions are read). */
export const classSchema = z.strictObject(classFields).superRefine(checkDates);
export type ClassInput = z.infer<typeof classSchema>;

/** PUT /api/admin/classes/{id}: partial, fields left out stay as they are. */
export const classPatchSchema = z.strictObject(classFields).partial().superRefine(checkDates);
export type ClassPatch = z.infer<typeof classPatchSchema>;

/** The form's session rows as sent: one date, start and end per row (a lone row arrives as strings). */
const rowValues = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

const FIELD_OF_SESSION = { date: "session_date", starts_at: "session_start", ends_at: "session_end" } as const;

/**
 * The add/edit class form: one row per session (date, start, end), blank rows ignored; the
 * class's first and last day follow from its sessions. Ends in the /api's classSchema, so both
 * meet the same rules; a row's error is keyed by its field's id.
 */
export const classFormSchema = z
  .object({
    session_date: rowValues,
    session_start: rowValues,
    session_end: rowValues,
    location_id: z.string().optional(),
    trainer_id: z.string().optional(),
    seats: z.string().optional(),
  })
  .transform((form, ctx) => {
    const rows = sessionRows(form);
    if (rows.length > 60) {
      ctx.addIssue({ code: "custom", message: "At most 60 sessions", path: ["sessions"] });
      return z.NEVER;
    }
    const typed = rows.map((row, index) => ({ row, index })).filter(({ row }) => row.date || row.starts_at || row.ends_at);
    let failed = false;
    for (const { row, index } of typed) {
      const parsed = sessionSchema.safeParse(row);
      if (parsed.success) continue;
      failed = true;
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF_SESSION[String(issue.path[0] ?? "date") as keyof typeof FIELD_OF_SESSION] ?? "session_date";
        ctx.addIssue({ code: "custom", message: `Session ${index + 1}: ${issue.message}`, path: [sessionFieldId(field, index)] });
      }
    }
    if (failed) return z.NEVER;
    const sessions = typed.map(({ row }) => row);
    const dates = sessions.map((s) => s.date).sort();
    const seatsText = (form.seats ?? "").trim();
    const parsed = classSchema.safeParse({
      start_date: dates[0] ?? "",
      end_date: dates[dates.length - 1] ?? "",
      sessions,
      location_id: form.location_id || undefined,
      trainer_id: form.trainer_id,
      seats: seatsText === "" ? undefined : Number(seatsText),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? "sessions");
        // no session typed: the dates it would give are blank, and the first row is where to type one
        const path =
          key === "start_date" || key === "end_date" || key === "sessions" ? (sessions.length ? "sessions" : sessionFieldId("session_date", 0)) : key;
        ctx.addIssue({ code: "custom", message: key === "start_date" || key === "end_date" ? "Add at least one session" : issue.message, path: [path] });
      }
      return z.NEVER;
    }
    return parsed.data;
  });

/** The enrolment page's waitlist forms (join, accept the offer, leave): the class and the intent. */
export const waitlistFormSchema = z.object({ class_id: classIdField });

/** An attendance mark: form and /api. */
export const attendanceSchema = z.strictObject({
  session_id: idField("Session"),
  enrollment_id: idField("Enrolment"),
  status: z.enum(["present", "absent", "late"], { message: "Attendance is present, absent or late" }),
});
export type AttendanceInput = z.infer<typeof attendanceSchema>;

/** The roster's mark form: the mark, and `via` when a fetcher sends it (it wants JSON back, not a page). */
export const attendanceFormSchema = attendanceSchema.extend({ via: z.literal("fetcher").optional() });
