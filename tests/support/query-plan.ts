import { CompiledQuery, type Compilable } from "kysely";
import type { DB } from "../../db/connection";

/**
 * SQLite's plan for a query, one step a line ("SEARCH t USING INDEX …", "SCAN t", "LIST
 * SUBQUERY 1" …), for tests that hold a query to reading through its indexes.
 */
export async function sqlitePlan(db: DB, query: Compilable<unknown>): Promise<string[]> {
  const compiled = query.compile();
  const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]));
  return plan.rows.map((r) => r.detail);
}
