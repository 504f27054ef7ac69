import { z } from "zod";
import { isAbn, normaliseAbn } from "~/utils/abn";
import { ABN_INVALID, CONSENT_REQUIRED } from "./employer-text";
import { checkbox, confirmPassword, dateOfBirth, email, newPassword, password, passwordsMatch, phone, requiredText, usi } from "./fields";

/** An ABN as typed (spaces allowed), checked by its check digits and kept as its 11 digits. */
export const abnField = z.string({ message: ABN_INVALID }).trim().min(1, "ABN is required").refine(isAbn, ABN_INVALID).transform(normaliseAbn);

/** An employer as an administrator adds or edits it (the form and POST/PUT /api/admin/employers). */
export const employerSchema = z.object({
  name: requiredText("Organisation name"),
  abn: abnField,
  contact_name: requiredText("Billing contact name"),
  contact_email: email,
  contact_phone: phone.refine((v) => v !== null, "Billing contact phone is required"),
  address: requiredText("Address", 500, { multiline: true }),
});
export type EmployerInput = z.infer<typeof employerSchema>;

/** An employer's user an administrator invites. */
export const employerUserInviteSchema = z.object({ full_name: requiredText("Full name"), email });
export type EmployerUserInviteInput = z.infer<typeof employerUserInviteSchema>;

/** The invited employer's user chooses a password: an employer's account's minimum, as its hint says. */
export const invitationPasswordSchema = z.object({ password: newPassword("employer"), confirm_password: confirmPassword }).refine(...passwordsMatch);

/** One worker named on a booking. */
export const workerSchema = z.object({ full_name: requiredText("Worker's name"), email });
export type WorkerInput = z.infer<typeof workerSchema>;

const MAX_SEATS = 100;

/**
 * A group booking: a class, how many seats, and the workers known now (more may be named later,
 * up to the seats). The form sends worker rows as worker_name_N / worker_email_N; the /api sends
 * `workers` as a list. Blank rows are left out before parsing.
 */
export const bookingSchema = z.object({
  class_id: z.string({ message: "Choose a class" }).trim().min(1, "Choose a class"),
  seats: z.coerce
    .number({ message: "Seats must be a number" })
    .int("Seats must be a whole number")
    .min(1, "Book at least 1 seat")
    .max(MAX_SEATS, `Book at most ${MAX_SEATS} seats`),
  workers: z.array(workerSchema).max(MAX_SEATS).default([]),
});
export type BookingInput = z.infer<typeof bookingSchema>;

export const addWorkersSchema = z.object({ workers: z.array(workerSchema).min(1, "Name at least one worker").max(MAX_SEATS) });

/** The worker's answer about sharing results with their employer. */
export const consentSchema = z.object({
  consent: z.enum(["yes", "no"], { message: CONSENT_REQUIRED }),
});

/** A worker giving or withdrawing their answer from their own portal, for one booking they are named on. */
export const ownConsentSchema = consentSchema.extend({ worker_id: z.string({ message: "Choose a booking" }).trim().min(1, "Choose a booking").max(100) });

/**
 * A worker accepting their invitation. A worker without an account sets a password and gives
 * their details; one signed in already gives what their record lacks (the USI) and their answer.
 */
export const workerAcceptSchema = consentSchema.extend({
  usi,
  phone,
  date_of_birth: dateOfBirth,
  confirm_details: checkbox,
});
export const workerNewAccountSchema = workerAcceptSchema
  .extend({ full_name: requiredText("Full name"), password, confirm_password: confirmPassword })
  .refine(...passwordsMatch);

/** Worker rows of the booking forms: worker_name_0 / worker_email_0 ..., blank rows dropped. */
export function workerRows(form: Record<string, unknown>): { full_name: unknown; email: unknown }[] {
  return filledRows(form).map((i) => ({ full_name: form[`worker_name_${i}`], email: form[`worker_email_${i}`] }));
}

/** The form's row numbers (0-based) of the rows that hold a name or an email, in the form's order. */
function filledRows(form: Record<string, unknown>): number[] {
  const rows: number[] = [];
  for (let i = 0; i < MAX_SEATS; i++) {
    const name = form[`worker_name_${i}`];
    const mail = form[`worker_email_${i}`];
    if (name === undefined && mail === undefined) continue;
    if (String(name ?? "").trim() === "" && String(mail ?? "").trim() === "") continue;
    rows.push(i);
  }
  return rows;
}

/**
 * Each filled worker row's own errors, keyed by its field (worker_name_N / worker_email_N) and
 * naming the row, so the form shows them at the worker's field rather than once for the group.
 */
export function workerRowErrors(values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const i of filledRows(values)) {
    const parsed = workerSchema.safeParse({ full_name: values[`worker_name_${i}`] ?? "", email: values[`worker_email_${i}`] ?? "" });
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === "email" ? `worker_email_${i}` : `worker_name_${i}`;
      errors[field] ??= `Worker ${i + 1}: ${issue.message}`;
    }
  }
  // the form's order: each row's name before its email
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => rowKey(a) - rowKey(b)));
}

const rowKey = (field: string) => Number(field.replace(/\D/g, "")) * 2 + (field.startsWith("worker_email_") ? 1 : 0);

/**
 * A booking form's invalid fields as the form shows them: the group's `workers` error becomes
 * each worker row's own (when the rows are what failed), in the form's order.
 */
export function workerFormErrors(fieldErrors: Record<string, string>, values: Record<string, string>): Record<string, string> {
  if (!fieldErrors.workers) return fieldErrors;
  const rows = workerRowErrors(values);
  if (Object.keys(rows).length === 0) return fieldErrors;
  const { workers: _group, ...rest } = fieldErrors;
  return { ...rest, ...rows };
}

/**
 * A model's refusal of one named worker (`workers.N`, N counting the workers sent) at that
 * worker's email field on the form, naming the row; any other failure stays where it was.
 */
export function workerRefusalErrors(
  error: { message: string; field?: string; fieldErrors: Record<string, string> },
  values: Record<string, string>,
): Record<string, string> {
  const match = /^workers\.(\d+)$/.exec(error.field ?? "");
  if (!match) return error.field ? { [error.field]: error.message } : error.fieldErrors;
  const row = filledRows(values)[Number(match[1])];
  return row === undefined ? { workers: error.message } : { [`worker_email_${row}`]: `Worker ${row + 1}: ${error.message}` };
}
