import type { DB } from "#db/connection";
import type { Tier } from "#db/schema";
import { organisationToday } from "~/utils/organisation-calendar";
import { CATALOGUE_KEEP_MS, CATALOGUE_KEPT_PAGES, catalogueVersion } from "./catalogue-version.server";
import { listUpcomingClasses, nextClassesByCourse, type ClassSummary } from "./class.server";
import { CATALOGUE_PAGE_SIZE, getCourse, listCoursesPage, type Course, type CoursePage } from "./course.server";

/** How many coming classes a catalogue card lists. */
export const CARD_CLASSES = 2;

/** One page of the public catalogue: its courses and each one's next classes, seats counted. */
export interface CatalogueListing {
  list: CoursePage;
  classes: Record<string, ClassSummary[]>;
}

/**
 * The public catalogue's page, the same for every visitor, signed in or not: read from the
 * database once and kept while the catalogue's version stays the one read before it (any write
 * to what it shows, by any process on any server, ends it), for at most a minute (a seat offer
 * that lapses frees a seat with no write) and within the organisation's day (yesterday's classes
 * leave the list at midnight). Searches are read each time: there are too many to keep.
 */
export async function cataloguePage(db: DB, query: { q: string; tier: "all" | Tier; page: number }, now = new Date()): Promise<CatalogueListing> {
  const read = async () => {
    const list = await listCoursesPage(
      db,
      { search: query.q, tier: query.tier === "all" ? null : query.tier, activeOnly: true },
      { page: query.page, pageSize: CATALOGUE_PAGE_SIZE },
    );
    const classes = await nextClassesByCourse(
      db,
      now,
      CARD_CLASSES,
      list.courses.map((c) => c.id),
    );
    return { list, classes };
  };
  if (query.q !== "" || query.page > CATALOGUE_KEPT_PAGES) return read();
  const version = await catalogueVersion(db);
  const key = `${query.tier} ${query.page} ${organisationToday(now)}`;
  const kept = store(db);
  const entry = kept.get(key);
  if (entry && entry.version === version && now.getTime() - entry.at < CATALOGUE_KEEP_MS && now.getTime() >= entry.at) return entry.listing;
  const listing = await read();
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, { version, at: now.getTime(), listing });
  return listing;
}

/** A coming class as anyone may see it: dates, place, seats and sessions; not who teaches it. */
export interface PublicClass {
  id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  seats_left: number;
  sessions: { date: string; starts_at: string; ends_at: string }[];
}

/**
 * A course's public page: the course while it is open for enrolment, and its coming classes
 * with their sessions and seats left; null for a course that is unknown or closed. The page
 * cache keeps the rendered page for visitors (its version follows every table read here).
 */
export async function publicCoursePage(db: DB, courseId: string, now = new Date()): Promise<{ course: Course; classes: PublicClass[] } | null> {
  const course = await getCourse(db, courseId, { activeOnly: true });
  if (!course) return null;
  const classes = (await listUpcomingClasses(db, course.id, now)).map((c) => ({
    id: c.id,
    start_date: c.start_date,
    end_date: c.end_date,
    location: c.location,
    seats_left: c.seats_left,
    sessions: c.sessions.map((s) => ({ date: s.date, starts_at: s.starts_at, ends_at: s.ends_at })),
  }));
  return { course, classes };
}

const MAX_KEPT = 100;

interface Kept {
  version: string;
  at: number;
  listing: CatalogueListing;
}
const stores = new WeakMap<DB, Map<string, Kept>>();
function store(db: DB): Map<string, Kept> {
  let kept = stores.get(db);
  if (!kept) stores.set(db, (kept = new Map()));
  return kept;
}
