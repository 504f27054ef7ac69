import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The N+1 guard's counter: how many SQL statements one request ran. Only with QUERY_COUNT=1
 * (the query-growth check, a developer's server): AsyncLocalStorage hooks every promise on
 * Node 20, a few per cent of a page's throughput (docs/decisions/006-performance.md), so a
 * server without the flag creates none and its connections log nothing.
 */
export const COUNTING_QUERIES = process.env.QUERY_COUNT === "1";

export interface QueryTally {
  queries: number;
}

let tallies: AsyncLocalStorage<QueryTally> | undefined;

/** Runs fn with a tally that every statement run on its behalf (awaited or not) adds to. */
export function countQueries<T>(fn: (tally: QueryTally) => T): T {
  tallies ??= new AsyncLocalStorage<QueryTally>();
  const tally = { queries: 0 };
  return tallies.run(tally, () => fn(tally));
}

/** Kysely's log hook: one statement run (or failed) in the current tally, if any. */
export function noteQuery(): void {
  const tally = tallies?.getStore();
  if (tally) tally.queries++;
}
