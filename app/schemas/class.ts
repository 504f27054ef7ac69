import { z } from "zod";
import { isCalendarDate } from "~/utils/organisation-calendar";
import { classIdField } from "./enrollment";

/**
 * Classes (docs/decisions/013-classes.md): one schema for the admin form and the /api. The form writes
 * sessions one per line ("2026-12-03 07:30-15:30") so it works without JavaScript; the /api
 * sends them as objects. Both end in the same ClassInput.
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
const idField = (label: string) => z.string({ message: `${label} is required` }).trim().min(1, `${label} is required`).max(100, `${label} not found`);

function checkDates(
  value: { start_date?: string; end_date?: string; sessions?: SessionInput[] },
  ctx: z.RefinementCtx,
) {
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

const SESSION_LINE = /^(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})\s*[-–]\s*(\d{1,2}:\d{2})$/;
const pad = (t: string) => (t.length === 4 ? `0${t}` : t);

/** The form's sessions box, one "YYYY-MM-DD HH:MM-HH:MM" a line, as the /api's list. */
export function sessionsFromText(text: string): SessionInput[] | string {
  const out: SessionInput[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const m = SESSION_LINE.exec(line);
    if (!m) return line.slice(0, 40);
    out.push({ date: m[1]!, starts_at: pad(m[2]!), ends_at: pad(m[3]!) });
  }
  return out;
}


/** The add/edit class form: the fields of classSchema with sessions as text. */
export const classFormSchema = z
  .object({
    start_date: z.string().optional(),
    end_date: z.string().optional(),
    sessions: z.string().max(5000, "Too many sessions").optional(),
    location_id: z.string().optional(),
    trainer_id: z.string().optional(),
    seats: z.string().optional(),
  })
  .transform((form, ctx) => {
    const sessions = sessionsFromText(form.sessions ?? "");
    if (typeof sessions === "string") {
      ctx.addIssue({ code: "custom", message: `Write each session as YYYY-MM-DD HH:MM-HH:MM (not "${sessions}")`, path: ["sessions"] });
      return z.NEVER;
    }
    const seatsText = (form.seats ?? "").trim();
    const parsed = classSchema.safeParse({ ...form, location_id: form.location_id || undefined, seats: seatsText === "" ? undefined : Number(seatsText), sessions });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [String(issue.path[0] ?? "sessions")] });
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
