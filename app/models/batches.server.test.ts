import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { cursorBatches, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { afterKey, countUpTo, flattened, keysetRows, type KeyPart } from "./batches.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

interface Row {
  day: string;
  num: string;
  pos: number;
}

describe("afterKey", () => {
  // days and numbers that repeat, so batches end inside a day and inside a number
  const rows: Row[] = Array.from({ length: 173 }, (_, i) => ({
    day: `2026-11-${String(1 + (i % 4)).padStart(2, "0")}`,
    num: `INV-${String((i * 7) % 31).padStart(3, "0")}`,
    pos: i % 3,
  }));
  const distinct = [...new Map(rows.map((r) => [`${r.day} ${r.num} ${r.pos}`, r])).values()];

  beforeAll(async () => {
    await sql`create table keyset_rows (day text not null, num text not null, pos integer not null)`.execute(db);
    await sql`create index keyset_rows_day_num on keyset_rows (day, num)`.execute(db);
    for (const r of distinct) await sql`insert into keyset_rows (day, num, pos) values (${r.day}, ${r.num}, ${r.pos})`.execute(db);
  });

  const shapes: Array<Array<[keyof Row, "asc" | "desc"]>> = [
    [
      ["day", "asc"],
      ["num", "asc"],
      ["pos", "asc"],
    ],
    [
      ["day", "desc"],
      ["num", "desc"],
      ["pos", "desc"],
    ],
    [
      ["day", "asc"],
      ["num", "desc"],
      ["pos", "asc"],
    ],
    [
      ["day", "desc"],
      ["num", "asc"],
      ["pos", "desc"],
    ],
  ];
  const compare = (shape: Array<[keyof Row, "asc" | "desc"]>) => (a: Row, b: Row) => {
    for (const [column, direction] of shape) {
      if (a[column] === b[column]) continue;
      return (a[column] < b[column] ? -1 : 1) * (direction === "asc" ? 1 : -1);
    }
    return 0;
  };

  for (const shape of shapes) {
    it(`reads every row once, in order, batch after batch: ${shape.map(([c, d]) => `${c} ${d}`).join(", ")}`, async () => {
      for (const batch of [1, 7, 50]) {
        const read: Row[] = [];
        const reader = keysetRows(async (after: Row | null, limit) => {
          let query = db.selectFrom(sql<Row>`keyset_rows`.as("k")).select(["k.day", "k.num", "k.pos"]);
          if (after) query = query.where(afterKey(shape.map(([c, d]): KeyPart => [`k.${c}`, d, after[c]])));
          for (const [c, d] of shape) query = query.orderBy(`k.${c}`, d);
          return (await query.limit(limit).execute()).map((r) => ({ ...r, pos: Number(r.pos) }));
        }, batch);
        for await (const row of reader) read.push(row);
        expect(read).toEqual([...distinct].sort(compare(shape)));
      }
    });
  }
});

describe("countUpTo", () => {
  it("counts exactly up to its limit and says when more match", async () => {
    await sql`create table counted_rows (n integer not null)`.execute(db);
    for (let i = 0; i < 30; i++) await sql`insert into counted_rows (n) values (${i})`.execute(db);
    const matches = (below: number) =>
      db
        .selectFrom(sql<{ n: number }>`counted_rows`.as("c"))
        .select("c.n")
        .where("c.n", "<", below);
    expect(await countUpTo(db, matches(30), 30)).toEqual({ total: 30, totalCapped: false });
    expect(await countUpTo(db, matches(30), 29)).toEqual({ total: 29, totalCapped: true });
    expect(await countUpTo(db, matches(12), 20)).toEqual({ total: 12, totalCapped: false });
    expect(await countUpTo(db, matches(0), 20)).toEqual({ total: 0, totalCapped: false });
  });
});

describe("cursorBatches", () => {
  const connections = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from pg_stat_activity where datname = current_database()`.execute(db)).rows[0]!.n);

  it("reads one statement a batch at a time on PostgreSQL, gives its connection back when stopped early, and is null on SQLite", async () => {
    await sql`create table cursor_rows (n integer not null)`.execute(db);
    for (let i = 0; i < 23; i++) await sql`insert into cursor_rows (n) values (${i})`.execute(db);
    const query = db
      .selectFrom(sql<{ n: number }>`cursor_rows`.as("c"))
      .select("c.n")
      .orderBy("c.n", "desc");
    const reader = cursorBatches(db, query, 5);
    if (TEST_DIALECT === "sqlite") {
      expect(reader).toBeNull();
      return;
    }
    const before = await connections();
    const sizes: number[] = [];
    const read: number[] = [];
    for await (const rows of reader!) {
      sizes.push(rows.length);
      read.push(...rows.map((r) => Number(r.n)));
    }
    expect(sizes).toEqual([5, 5, 5, 5, 3]);
    expect(read).toEqual(Array.from({ length: 23 }, (_, i) => 22 - i));
    // stopped after its first row: the cursor's connection ends with it
    for await (const n of flattened(cursorBatches(db, query, 5)!)) {
      expect(Number(n.n)).toBe(22);
      break;
    }
    await expect.poll(connections, { timeout: 5_000 }).toBe(before);
  });
});
