import { sql, type RawBuilder, type SelectQueryBuilder } from "kysely";
import type { DB } from "#db/connection";

/** Rows read per query by every batched reader: small enough to hold, few enough queries. */
export const BATCH_ROWS = 1000;

/**
 * A query's rows a batch at a time by keyset (each batch starts after the last row of the one
 * before), so an export of millions of rows holds one batch and each query costs the same as the
 * first: no OFFSET, no cursor (pg-cursor is not among the dependencies, and this reads alike on
 * both databases). `fetch` reads at most `limit` rows after `after` (null: from the start) in the
 * key's order (K: the key's columns of a row); the key must be unique, or rows sharing it across a batch boundary are skipped.
 */
export async function* keysetRows<R extends K, K = R>(
  fetch: (after: K | null, limit: number) => Promise<R[]>,
  batch = BATCH_ROWS,
): AsyncGenerator<R, void, undefined> {
  let after: K | null = null;
  for (;;) {
    const rows = await fetch(after, batch);
    yield* rows;
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!;
  }
}

/** The rows of batches, one at a time. */
export async function* flattened<R>(batches: AsyncIterable<readonly R[]>): AsyncGenerator<R, void, undefined> {
  for await (const rows of batches) yield* rows;
}

/** One column of an ordering key: its reference (e.g. "a.assessment_date"), direction and the last row's value (never null). */
export type KeyPart = readonly [column: string, direction: "asc" | "desc", value: string | number];

/**
 * The rows after a key's values in its order: `(a > x) or (a = x and b > y) …`, with `a >= x`
 * beside it so the first column bounds the index range (without it PostgreSQL filters the index
 * from its start on every batch, and the export's cost grows with the square of its rows).
 *
 * When the first two columns run the same way they are compared as one row, `(a, b) > (x, y)`,
 * which both databases read as a range of an index on (a, b): with `a >= x` alone a batch ending
 * inside a day read that day's earlier rows again, and spelt out as `a > x or (a = x and b > y)`
 * PostgreSQL's planner joined the branches' index scans and read every later row of the range
 * before sorting it (2.4 s a batch for a month of Xero lines at 1,500,000 invoices).
 */
export function afterKey(key: readonly KeyPart[]): RawBuilder<boolean> {
  const beyond = (direction: "asc" | "desc", strict: boolean) => sql.raw(`${direction === "asc" ? ">" : "<"}${strict ? "" : "="}`);
  const branches = (parts: readonly KeyPart[]) =>
    parts.map(([column, direction, value], i) =>
      sql.join([...parts.slice(0, i).map(([c, , v]) => sql`${sql.ref(c)} = ${v}`), sql`${sql.ref(column)} ${beyond(direction, true)} ${value}`], sql` and `),
    );
  const anyOf = (conditions: RawBuilder<unknown>[]) =>
    sql.join(
      conditions.map((b) => sql`(${b})`),
      sql` or `,
    );
  const [first, second, ...rest] = key;
  if (!first) throw new Error("afterKey: an empty key");
  if (!second || second[1] !== first[1]) {
    return sql<boolean>`(${sql.ref(first[0])} ${beyond(first[1], false)} ${first[2]} and (${anyOf(branches(key))}))`;
  }
  const pair = (strict: boolean) => sql`(${sql.ref(first[0])}, ${sql.ref(second[0])}) ${beyond(first[1], strict)} (${first[2]}, ${second[2]})`;
  if (rest.length === 0) return sql<boolean>`${pair(true)}`;
  const samePair = sql`${sql.ref(first[0])} = ${first[2]} and ${sql.ref(second[0])} = ${second[2]}`;
  return sql<boolean>`(${pair(false)} and (${pair(true)} or (${samePair} and (${anyOf(branches(rest))}))))`;
}

/** A list's count: how many match, or `limit` and capped when more do. */
export interface CappedCount {
  total: number;
  /** more than `total` match: the list counted no further */
  totalCapped: boolean;
}

/**
 * How far a list searched by a person's name or email counts its matches (countUpTo). Counting
 * every "smith" among 500,000 learners took 300-500 ms on PostgreSQL on each keystroke; past
 * this many the office narrows the search instead of paging, so the list says "more than" and
 * pages through these.
 */
export const SEARCH_COUNT_LIMIT = 1_000;

/**
 * How many rows `matches` (a query selecting one column) finds, counted no further than `limit`.
 * An office list counted every match for its total on each view: 5,000,000 audit entries or
 * 1,000,000 sent messages took 0.4-0.7 s at a national provider's volume. Past the limit the list
 * says "more than" and its pages reach that far; the filters narrow it to the rest.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list's query: only its row count is read
export async function countUpTo(db: DB, matches: SelectQueryBuilder<any, any, any>, limit: number): Promise<CappedCount> {
  const row = await db
    .selectFrom(matches.limit(limit + 1).as("matches"))
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const counted = Number(row.n);
  return counted > limit ? { total: limit, totalCapped: true } : { total: counted, totalCapped: false };
}
