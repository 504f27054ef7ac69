/**
 * Phone numbers as the AVETMISS contact file carries them and as a learner may give them: one
 * rule for the profile and staff forms, the writer and the readiness list. NCVER's telephone
 * fields are 20 characters, and the implementations the portal follows write digits only, so
 * an Australian number is its ten digits (02 4960 1234, 0412 345 678) and a number abroad is
 * dialled from Australia: 0011, the international access code, then the number in E.164 form
 * (country code and subscriber number, at most 15 digits), 19 digits at most. A number abroad
 * belongs to a learner whose address is overseas; for anyone else the list asks for an
 * Australian one.
 */

/** An Australian number as the file carries it. */
export const AUSTRALIAN_PHONE = /^0\d{9}$/;
/** A number abroad as the file carries it: 0011 and an E.164 number (no leading 0, 7 to 15 digits). */
export const INTERNATIONAL_PHONE = /^0011[1-9]\d{6,14}$/;
const INTERNATIONAL_ACCESS = "0011";

/** The message for a number the forms cannot take. */
export const PHONE_INVALID = "Enter an Australian number (0412 345 678, 02 4960 1234) or, for a number abroad, + and the country code (+64 21 123 4567)";

/**
 * A phone number as typed ("+61 412 345 678", "(02) 4960 1234", "+44 20 7946 0958") in the
 * files' form: Australian numbers with their leading 0, others as 0011 and their digits.
 * Null for nothing; anything else is returned as its digits, for the readiness list to refuse.
 */
export function reportedPhone(phone: string | null): string | null {
  const typed = phone?.trim() ?? "";
  const digits = typed.replace(/\D/g, "");
  if (!digits) return null;
  const plus = typed.startsWith("+");
  if (/^61[2-478]\d{8}$/.test(digits)) return `0${digits.slice(2)}`;
  if (plus) return `${INTERNATIONAL_ACCESS}${digits}`;
  return digits;
}

/** Whether a number as typed is one the report can carry: Australian, or E.164 with its + (or 0011). */
export function isReportablePhone(phone: string): boolean {
  const written = reportedPhone(phone);
  return written !== null && (AUSTRALIAN_PHONE.test(written) || INTERNATIONAL_PHONE.test(written));
}
