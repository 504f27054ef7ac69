import isValidAbnDigits from "is-valid-abn";

/**
 * Australian Business Numbers: the one home of how one is typed, checked and shown. The check
 * is the ATO's (subtract 1 from the first digit, weight the 11 digits 10, 1, 3, 5 ... 19, the
 * sum divisible by 89), done by the is-valid-abn package; this module only decides what a typed
 * value may hold (digits and spaces) and how it is written back.
 */

/** The digits of a typed ABN ("51 824 753 556" -> "51824753556"); anything but digits and spaces stays, so it fails the check. */
export function normaliseAbn(typed: string): string {
  return typed.replace(/\s+/g, "");
}

/** Whether `typed` is an ABN: 11 digits whose check digits add up. */
export function isAbn(typed: string): boolean {
  const digits = normaliseAbn(typed);
  return /^\d{11}$/.test(digits) && isValidAbnDigits(digits);
}

/** An ABN as the ABR writes it: "51 824 753 556". */
export function formatAbn(digits: string): string {
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}` : digits;
}
