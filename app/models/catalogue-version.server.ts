import { changeCounter } from "#db/change-feed";
import { dataVersion, type DB } from "#db/connection";

/**
 * The version of what the public catalogue and the landing page show: the `catalogue` change
 * counter, which triggers move inside every write to the courses, classes, locations, seats and
 * waitlists those pages show (migration 2026-11-26T0821) and on no other write. What is kept of
 * those pages (the page cache, the catalogue's listing) is good while it stays the same, so a
 * sign-in or a verify lookup keeps it while an edited course shows on the next request,
 * whichever process or server made the edit.
 *
 * The counter is a row, read again only when the database's data version (a pragma on SQLite,
 * change notifications on PostgreSQL: no query) moved since it was last read, so a request with
 * no write anywhere reads nothing and one after a write reads one row by its key. The data
 * version is taken before the row, so a write committed in between is seen by the next request.
 * A database without the counter falls back to the data version itself (any write ends it).
 */
export function catalogueVersion(db: DB): string | Promise<string> {
  const data = dataVersion(db);
  const last = seen.get(db);
  if (last && last.data === data) return last.version;
  const entry: SeenVersion = { data, version: "" };
  entry.version = changeCounter(db, "catalogue").then(
    (counter) => (entry.version = counter === null ? `data ${data}` : String(counter)),
    (error) => {
      if (seen.get(db) === entry) seen.delete(db);
      throw error;
    },
  );
  seen.set(db, entry);
  return entry.version;
}

/**
 * What is kept of the catalogue under a version (stored pages, the listing) is kept for at most
 * this long as well: classes start and seat offers lapse with time alone, with no write.
 */
export const CATALOGUE_KEEP_MS = 60_000;
/** Catalogue pages further on than this are rare enough to read and render each time. */
export const CATALOGUE_KEPT_PAGES = 20;

interface SeenVersion {
  /** the database's data version when the counter was read */
  data: string;
  version: string | Promise<string>;
}
const seen = new WeakMap<DB, SeenVersion>();

/** For tests: the next call reads the counter again. */
export function forgetCatalogueVersion(db: DB): void {
  seen.delete(db);
}
