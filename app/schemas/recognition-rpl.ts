import { z } from "zod";
import { RECOGNITION_SESSION_KINDS } from "#db/schema-recognition";
import { organisationToday } from "~/utils/organisation-calendar";
import { calendarDate, checkbox, email, optionalText, phone, requiredText, uuid } from "./fields";
import { RPL_STEP_MESSAGES, SESSION_MINUTES } from "./recognition-rpl-text";

export * from "./recognition-rpl-text";

/**
 * An RPL's third-party report and competency sessions: the forms and payloads the pages and /api
 * share (asking a referee, the referee's report, booking, rescheduling and cancelling a session).
 */

/** Staff ask a referee (employer, supervisor) for a report: the link goes to this address. */
export const refereeRequestInput = z.object({
  referee_name: requiredText("Referee's name", 120),
  referee_email: email.describe("Where the report's link is mailed"),
  relationship: optionalText("Relationship or employer", 200).describe('How the referee knows the learner, or their employer: "Site supervisor, Acme Cranes"'),
});
export type RefereeRequestInput = z.infer<typeof refereeRequestInput>;

/** What a referee writes on the page the link opens. */
export const refereeReportInput = z
  .object({
    reporter_name: requiredText("Your name", 120),
    reporter_role: requiredText("Your role", 120),
    reporter_organisation: requiredText("Organisation", 200),
    reporter_phone: phone.refine((v) => v !== null, "Contact phone is required"),
    known_how: requiredText("How you know the applicant", 2000, { multiline: true }),
    work_witnessed: requiredText("The work you saw them do", 8000, { multiline: true }),
    worked_from: calendarDate("From", "1950-01-01"),
    worked_to: calendarDate("To", "1950-01-01"),
    declaration: checkbox.refine((v) => v, RPL_STEP_MESSAGES.declarationNeeded),
  })
  .refine((v) => v.worked_to >= v.worked_from, { message: RPL_STEP_MESSAGES.workedToBeforeFrom, path: ["worked_to"] })
  .refine((v) => v.worked_to <= organisationToday(), { message: RPL_STEP_MESSAGES.workedInFuture, path: ["worked_to"] });
export type RefereeReportInput = z.infer<typeof refereeReportInput>;

const time = z
  .string({ message: "Start time is required" })
  .trim()
  .refine((v) => /^([01]\d|2[0-3]):[0-5]\d$/.test(v), "Enter the start time as HH:MM");

const minutes = z.coerce
  .number({ message: "Enter the duration in minutes" })
  .int("Enter whole minutes")
  .min(SESSION_MINUTES.min, `At least ${SESSION_MINUTES.min} minutes`)
  .max(SESSION_MINUTES.max, `At most ${SESSION_MINUTES.max} minutes`);

/** When and where a session is: booking and rescheduling both take these. */
const when = {
  session_date: calendarDate("Date", "2000-01-01"),
  starts_at: time.describe("HH:MM on the organisation's clock"),
  duration_minutes: minutes,
  location_id: uuid.describe("A delivery location"),
  notes: optionalText("Notes", 2000, { multiline: true }).describe("What the learner should bring or prepare: shown to them"),
};

export const sessionBookInput = z.object({
  kind: z.enum(RECOGNITION_SESSION_KINDS, { message: "Choose a competency conversation or a practical challenge" }),
  ...when,
});
export type SessionBookInput = z.infer<typeof sessionBookInput>;

export const sessionRescheduleInput = z.object({ session_id: uuid, ...when });
export type SessionRescheduleInput = z.infer<typeof sessionRescheduleInput>;

export const sessionCancelInput = z.object({ session_id: uuid, cancel_reason: requiredText("Why it is cancelled", 500, { multiline: true }) });
export type SessionCancelInput = z.infer<typeof sessionCancelInput>;
