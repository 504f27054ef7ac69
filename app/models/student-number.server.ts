import { sql } from "kysely";
import type { DB } from "#db/connection";

/**
 * Student numbers: S followed by six digits (S000042), the NAT client identifier of the
 * AVETMISS report (at most 10 characters). Drawn from a counter that only ever grows, so a
 * number is never given twice, even to a student who replaces a removed one. Call inside the
 * write transaction that inserts the student.
 */
export async function nextStudentNumber(db: DB): Promise<string> {
  const row = await db
    .insertInto("counters")
    .values({ name: "student_number", last_value: 1 })
    .onConflict((oc) => oc.column("name").doUpdateSet({ last_value: sql`counters.last_value + 1` }))
    .returning("last_value")
    .executeTakeFirstOrThrow();
  return `S${String(row.last_value).padStart(6, "0")}`;
}
