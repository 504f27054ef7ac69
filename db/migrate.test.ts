import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";
import type { DB } from "./connection";
import { writeTransaction } from "./connection";
import { migrateDownAll, migrateToLatest } from "./migrate";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const tables = async () =>
  (await db.introspection.getTables())
    .map((t) => t.name)
    .filter((name) => !name.startsWith("kysely_"))
    .sort();

describe("migrations", () => {
  it("create every entity table, and roll all the way down and up again", async () => {
    expect(await tables()).toEqual(
      expect.arrayContaining(["users", "courses", "enrollments", "certificates", "files", "assessments", "sessions", "api_tokens", "request_limits"]),
    );
    await migrateDownAll(db);
    expect(await tables()).toEqual([]);
    await migrateToLatest(db);
    expect((await tables()).length).toBeGreaterThanOrEqual(12);
  });

  it("run with foreign keys on, WAL and full sync (SQLite) or a statement timeout and no JIT (PostgreSQL)", async () => {
    if (TEST_DIALECT === "postgres") {
      const setting = async (name: string) => (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db)).rows[0]!.value;
      await expect(setting("statement_timeout")).resolves.toBe("30s");
      await expect(setting("transaction_isolation")).resolves.toBe("read committed");
      await expect(setting("jit")).resolves.toBe("off");
      return;
    }
    const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];
    await expect(pragma("foreign_keys")).resolves.toBe(1);
    await expect(pragma("journal_mode")).resolves.toBe("wal");
    await expect(pragma("synchronous")).resolves.toBe(2);
  });

  it("roll a failed write transaction back entirely", async () => {
    await expect(
      writeTransaction(db, async (trx) => {
        await trx.insertInto("certificate_sequence").values({ year: 1999, last_value: 1 }).execute();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const row = await db.selectFrom("certificate_sequence").selectAll().where("year", "=", 1999).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
