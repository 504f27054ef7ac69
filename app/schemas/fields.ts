import { z } from "zod";
import type { Role } from "#db/schema";
import { cleanSearchTerm } from "#db/search-term";
import { USI_INVALID_MESSAGE, isValidUsi, normaliseUsi } from "~/rules/usi";
import { isCalendarDate, organisationToday } from "~/utils/organisation-calendar";
import { isReportablePhone, PHONE_INVALID } from "~/schemas/avetmiss-phone";
import { passwordLongEnough, passwordTooShort } from "~/schemas/password-text";

export { cleanSearchTerm };

/** Building blocks shared by every form and /api payload. */

/**
 * C0 and C1 control characters and DEL: invisible, they break exports, e-mail headers and the
 * people reading a record. Line feed and carriage return are allowed where a field is multi-line.
 */
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_LINE_BREAKS = /(?![\n\r])\p{Cc}/u;
/**
 * What no one types: an unpaired surrogate half (with the u flag a pair is one code point, so
 * only a half matches), and the replacement character a form's bytes decode to where they are
 * not UTF-8, which stored would stand in a record for text nobody can read back.
 */
const NOT_TEXT = /[\uD800-\uDFFF\uFFFD]/u;

/**
 * Text a person typed, as it is stored: valid Unicode (no unpaired surrogate, which no encoding
 * can write), no control characters (line breaks only in multi-line fields, stored as \n),
 * NFC-normalised so the same name typed on two keyboards is one name. Each refusal names the field.
 */
export const cleanText = (label: string, options: { multiline?: boolean; typeMessage?: string } = {}) =>
  z
    .string({
      error: (issue) => options.typeMessage ?? (issue.input === undefined ? `${label} is required` : `${label} must be text`),
    })
    .refine((v) => !NOT_TEXT.test(v), `${label} contains characters that are not valid text`)
    .refine(
      (v) => !(options.multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL).test(v),
      options.multiline ? `${label} must not contain control characters` : `${label} must be a single line without control characters`,
    )
    .overwrite((v) => (options.multiline ? v.replace(/\r\n?/g, "\n") : v))
    .normalize("NFC");

/** A search box's query-string value: never refused, only cleaned. */
export const searchTerm = (max = 100) =>
  z
    .string()
    .catch("")
    .transform((v) => cleanSearchTerm(v, max));

export const requiredText = (label: string, max = 200, options: { multiline?: boolean } = {}) =>
  cleanText(label, options).trim().min(1, `${label} is required`).max(max, `${label} must be at most ${max} characters`);

/** Optional text: blank becomes null so stored data never holds empty strings. */
export const optionalText = (label: string, max = 200, options: { multiline?: boolean } = {}) =>
  cleanText(label, options)
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

/**
 * An optional field a form sends blank when unanswered: blank (or left out) is null, anything
 * else must be `field`, and a wrong value is told `field`'s own message. A bare union with ""
 * would tell zod's "Invalid input", naming neither the field nor what it takes.
 */
export const blankOr = <T extends z.ZodType>(field: T) =>
  z
    .union([z.literal(""), field], { error: (issue) => (issue.code === "invalid_union" ? issue.errors.at(-1)?.[0]?.message : undefined) })
    .nullish()
    .transform((v) => (v ? v : null));

/** A postal address: the form's box takes several lines. */
export const address = optionalText("Address", 500, { multiline: true });

const typedEmail = cleanText("Email", { typeMessage: "Email is required" }).trim().min(1, "Email is required").max(254, "Email must be at most 254 characters");

/** The email of a new or changed account: a well-formed address, stored lower-cased. */
export const email = typedEmail.pipe(z.email("Enter a valid email address")).transform((v) => v.toLowerCase());

/** The email typed to sign in: no format check, since a malformed one simply matches no account. */
export const signInEmail = typedEmail.transform((v) => v.toLowerCase());

export const phone = z
  .string({ message: "Phone must be text" })
  .trim()
  .max(40, "Phone must be at most 40 characters")
  .refine((v) => v === "" || /^[0-9+()\-\s.]{6,40}$/.test(v), { message: "Enter a valid phone number", abort: true })
  // what the AVETMISS contact file can carry: an Australian number, or one abroad with its country code
  .refine((v) => v === "" || isReportablePhone(v), PHONE_INVALID)
  .nullish()
  .transform((v) => (v ? v : null));

/** A calendar date (YYYY-MM-DD) that exists, from `from` to the end of 2100. */
export const calendarDate = (label: string, from = "1900-01-01", realDate = "Enter a real date") =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v), "Enter the date as YYYY-MM-DD")
    .refine((v) => isCalendarDate(v) && v >= from && v <= "2100-12-31", realDate);

/** An optional calendar date: blank is null. */
export const optionalCalendarDate = (label: string) => blankOr(calendarDate(label));

/** A calendar date (YYYY-MM-DD) that exists, from 2000 on, and not after today on the RTO's calendar: a day something happened. */
export const pastCalendarDate = (label: string) =>
  calendarDate(label, "2000-01-01", "Enter a real date from the year 2000 on").refine((v) => v <= organisationToday(), `${label} cannot be in the future`);

/** A calendar date (YYYY-MM-DD) in the past, for a person old enough to be a learner. */
export const dateOfBirth = z
  .string({ message: "Date of birth must be a date" })
  .trim()
  .refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v), "Enter the date as YYYY-MM-DD")
  .refine((v) => {
    if (v === "") return true;
    return isCalendarDate(v) && v >= "1900-01-01" && v < organisationToday();
  }, "Enter a real date of birth in the past")
  .nullish()
  .transform((v) => (v ? v : null));

/** The password typed to sign in: any length a stored one can have. */
export const signInPassword = z.string({ message: "Password is required" }).min(1, "Password is required").max(200, "Password must be at most 200 characters");

/**
 * A new password of an account of `role`, as long as the password rule asks (the model also
 * refuses a common one). The form's hint is passwordRule(role), from the same home.
 */
export const newPassword = (role: Role) => signInPassword.refine((v) => passwordLongEnough(v, role), passwordTooShort(role));

/** A new password where the account may be a learner's: the shortest the rule allows (the model applies the account's own). */
export const password = newPassword("student");

/** The second typing of a new password, checked by `passwordsMatch` and never stored. */
export const confirmPassword = z.string({ message: "Please confirm your password" }).min(1, "Please confirm your password");

export const passwordsMatch: [(v: { password: string; confirm_password: string }) => boolean, { message: string; path: string[] }] = [
  (v) => v.password === v.confirm_password,
  { message: "Passwords do not match", path: ["confirm_password"] },
];

export const uuid = z.string().uuid("Not a valid id");

/** An id picked from a list: left out, blank or not an id, the message asks for the choice ("Choose the assessor"). */
export const chosenId = (message: string) => z.string({ message }).trim().min(1, message).pipe(z.uuid(message));

/** A checkbox: present ("on"/"true") is true, absent is false; JSON booleans pass through. */
export const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1");

/**
 * A Unique Student Identifier: trimmed and upper-cased, then a check-character-valid USI or an
 * exemption code (INDIV, INTOFF). Blank clears it (null).
 */
export const usi = z
  .string({ message: USI_INVALID_MESSAGE })
  .transform(normaliseUsi)
  .refine((v) => v === "" || isValidUsi(v), USI_INVALID_MESSAGE)
  .nullish()
  .transform((v) => (v ? v : null));

/** A form that is its button alone: it posts no field, and the record it acts on is in its address. */
export const noFieldsSchema = z.object({});
