import { sql } from "kysely";
import type { DB } from "#db/connection";

/**
 * The next certificate number for a year, e.g. SCR-2026-00042. Drawn from a counter that only
 * ever grows, so a number is never reused even if a certificate is withdrawn. Call inside the
 * write transaction that inserts the certificate.
 */
export async function nextCertificateNumber(db: DB, issuedAt: Date): Promise<string> {
  const year = issuedAt.getUTCFullYear();
  const row = await db
    .insertInto("certificate_sequence")
    .values({ year, last_value: 1 })
    .onConflict((oc) => oc.column("year").doUpdateSet({ last_value: sql`certificate_sequence.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return `SCR-${year}-${String(row.last_value).padStart(5, "0")}`;
}
