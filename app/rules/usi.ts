/**
 * The Unique Student Identifier (Student Identifiers Act 2014): ten characters from a
 * 32-character alphabet (no 0, 1, I or O), the last a Luhn mod 32 check character over the
 * first nine, or one of the exemption codes an RTO reports when the Registrar or the Minister
 * has exempted the learner. The check character only catches typing errors; a format-valid
 * USI must still be verified against the USI Registry before a certificate is issued.
 *
 * Pure and dependency-free, so the schemas, the models and the AVETMISS export share it.
 */

export const USI_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** Exemption codes: shared by many learners, never printed, reported as-is to NCVER. */
export const USI_EXEMPTIONS = ["INDIV", "INTOFF"] as const;
export type UsiExemption = (typeof USI_EXEMPTIONS)[number];

/** Where a person's USI stands, the word staff without access to the USI see (usi.server.ts decides it). */
export const USI_STATUSES = ["missing", "not_verified", "verified", "exempt"] as const;
export type UsiStatus = (typeof USI_STATUSES)[number];

/** Whether a certificate may be issued to a person whose USI stands so. */
export const usiCleared = (status: UsiStatus) => status === "verified" || status === "exempt";

export const USI_INVALID_MESSAGE = "Enter a valid USI (10 characters)";

const N = USI_ALPHABET.length;

/** The check character for a nine-character body, or null when the body is not nine alphabet characters. */
export function usiCheckCharacter(body: string): string | null {
  if (body.length !== 9) return null;
  let factor = 2;
  let total = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    const codePoint = USI_ALPHABET.indexOf(body[i]!);
    if (codePoint < 0) return null;
    const addend = factor * codePoint;
    factor = factor === 2 ? 1 : 2;
    total += Math.floor(addend / N) + (addend % N);
  }
  return USI_ALPHABET[(N - (total % N)) % N]!;
}

/** Input as it is stored: surrounding space removed, upper case. */
export function normaliseUsi(input: string): string {
  return input.trim().toUpperCase();
}

export function isUsiExemption(value: string): value is UsiExemption {
  return (USI_EXEMPTIONS as readonly string[]).includes(value);
}

/** True for a stored-form USI (already normalised) with a correct check character, or an exemption code. */
export function isValidUsi(value: string): boolean {
  if (isUsiExemption(value)) return true;
  return value.length === 10 && usiCheckCharacter(value.slice(0, 9)) === value[9];
}

/** A well-formed USI for a nine-character body (demo data and tests). */
export function usiFromBody(body: string): string {
  const check = usiCheckCharacter(body);
  if (check === null) throw new Error(`Not a USI body: ${body}`);
  return body + check;
}
