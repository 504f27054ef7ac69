import crypto from "node:crypto";
import { sql } from "kysely";
import type { DB } from "#db/connection";
import { organisationYear } from "~/utils/organisation-calendar";

/**
 * The next certificate number for a year, e.g. SCR-2026-00042. Drawn from a counter that only
 * ever grows, so a number is never reused even if a certificate is withdrawn. Call inside the
 * write transaction that inserts the certificate.
 */
export async function nextCertificateNumber(db: DB, issuedAt: Date): Promise<string> {
  // the year of the organisation's calendar: a certificate issued on 1 January's morning is that year's
  const year = organisationYear(issuedAt);
  const row = await db
    .insertInto("certificate_sequence")
    .values({ year, last_value: 1 })
    .onConflict((oc) => oc.column("year").doUpdateSet({ last_value: sql`certificate_sequence.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return `SCR-${year}-${String(row.last_value).padStart(5, "0")}`;
}

/** The alphabet of verification codes: no 0/O or 1/I, so a code read off paper types back right. */
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const VERIFICATION_CODE_LENGTH = 16;

/** A new verification code: 16 characters of 5 random bits each (80 bits), so codes cannot be guessed. */
export function newVerificationCode(): string {
  let code = "";
  for (const byte of crypto.randomBytes(VERIFICATION_CODE_LENGTH)) code += CODE_ALPHABET[byte & 31];
  return code;
}

/**
 * A code as typed or scanned, in its stored form: spaces and hyphens dropped, upper case. Null
 * for anything that cannot be a code, which callers answer exactly as an unknown code.
 */
export function normaliseVerificationCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, "").toUpperCase();
  if (code.length !== VERIFICATION_CODE_LENGTH) return null;
  for (const c of code) if (!CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** The code in groups of four, as printed (ABCD-EFGH-JKLM-NPQR); typed back either way. */
export function groupVerificationCode(code: string): string {
  return code.match(/.{1,4}/g)?.join("-") ?? code;
}
