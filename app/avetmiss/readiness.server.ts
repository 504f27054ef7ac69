import crypto from "node:crypto";
import { sql } from "kysely";
import { columnsContain, dialectOf } from "#db/dialect";
import type { DB } from "#db/connection";
import type { NewAvetmissIssueRow } from "#db/schema";
import { NatChecker, type ReadinessGroup, type ReadinessIssue } from "./checker";
import { avetmissDataVersion, getAvetmissSummary, openYearReport } from "./export.server";
import { READINESS_PAGE_SIZE, readinessPage, type NatOrganisation, type ReadinessPage } from "./files";
import type { NatFileName } from "./nat-files";
import { countUpTo } from "~/models/batches.server";
import { enrollmentCountsByCourseAndStatus } from "~/models/stats.server";
import { organisationToday, organisationYear } from "~/utils/organisation-calendar";

/**
 * The AVETMISS readiness list at any size. A small organisation's year is checked while the
 * reports page waits (a few hundred milliseconds, kept per worker while the data stays the
 * same: getAvetmissSummary). A national provider's year is not: 900,000 activities and
 * 470,000 problems took 50 s and 650 MB of the worker's memory. The runner checks the current
 * and the last collection year when what the export reads has changed, writing the problems
 * to the database as it finds them, and the page reads one page of them from there, saying
 * when they were checked. Which way a year goes is the organisation's size (IN_REQUEST_ENROLMENTS).
 */

/**
 * An organisation with more enrolments than this is checked by the runner alone: a year's check
 * takes seconds from about here (a minute and 650 MB at 2,500,000), too long for a page's request
 * and a worker's memory. Below it the page checks for itself, so an office that has just fixed a
 * record sees the list change at once. Decided by size, not by how long a check took: on a
 * loaded machine a small organisation's check can be slow once, and its page must not go stale.
 */
export const IN_REQUEST_ENROLLMENTS = 100_000;
/** A worker's claim on a year while it checks it: longer than any check takes. */
const LEASE_MS = 15 * 60_000;
/** The runner checks a changed year again no sooner than this after its last check. */
export const RECHECK_AFTER_MS = 10 * 60_000;
/** Problems written per statement. */
const WRITE_BATCH = 500;
/** A search of the stored list counts its matches this far. */
const MATCH_COUNT_LIMIT = 10_000;

const organisationKey = (o: NatOrganisation) => `${o.code}|${o.name}`;

/** The years the runner keeps checked: this collection year, and the last (lodged early in this one). */
export const readinessYears = (now: Date) => [organisationYear(now), organisationYear(now) - 1];

export type CheckOutcome = "checked" | "unchanged" | "recent" | "claimed";

/**
 * Lets go of every year's claim. Only for a caller that knows no server is running (the
 * national bench before it starts its own): a server stopped in the middle of a check leaves its
 * claim standing for the whole lease, and no other check of that year runs until it lapses.
 */
export async function releaseReadinessClaims(db: DB): Promise<void> {
  await db.updateTable("avetmiss_readiness").set({ claimed_until: null }).where("claimed_until", "is not", null).execute();
}

/**
 * Checks a year's records again unless the last check read the same data on the same day (or
 * was less than `recheckAfterMs` ago), writing its problems beside the last check's and then
 * putting them in its place. One worker at a time checks a year (a lease in its row); a check
 * that fails leaves the last one standing.
 */
export async function checkReadiness(
  db: DB,
  year: number,
  organisation: NatOrganisation,
  options: { now?: Date; recheckAfterMs?: number; stop?: () => boolean } = {},
): Promise<CheckOutcome> {
  const now = options.now ?? new Date();
  const version = await avetmissDataVersion(db);
  const day = organisationToday(now);
  const org = organisationKey(organisation);
  await db
    .insertInto("avetmiss_readiness")
    .values({ year })
    .onConflict((oc) => oc.column("year").doNothing())
    .execute();
  const last = await db.selectFrom("avetmiss_readiness").selectAll().where("year", "=", year).executeTakeFirstOrThrow();
  if (last.generation && last.version === version && last.checked_day === day && last.organisation === org) return "unchanged";
  if (last.checked_at && now.getTime() - Date.parse(last.checked_at) < (options.recheckAfterMs ?? 0)) return "recent";
  const claimed = await db
    .updateTable("avetmiss_readiness")
    .set({ claimed_until: new Date(now.getTime() + LEASE_MS).toISOString() })
    .where("year", "=", year)
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now.toISOString())]))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return "claimed";

  const generation = `${year}:${crypto.randomUUID()}`;
  const started = Date.now();
  try {
    // what a check stopped midway left behind: the year's problems under a generation no row names
    await db
      .deleteFrom("avetmiss_issues")
      .where("generation", "like", `${year}:%`)
      .$if(last.generation !== null, (q) => q.where("generation", "!=", last.generation!))
      .execute();
    const report = await openYearReport(db, year, organisation, now);
    const pending: NewAvetmissIssueRow[] = [];
    let seq = 0;
    const checker = new NatChecker({ year, today: report.today }, (issue, rank) => pending.push({ generation, seq: seq++, rank, ...issue }));
    const write = async () => {
      if (pending.length) await db.insertInto("avetmiss_issues").values(pending.splice(0)).execute();
    };
    for await (const record of report.records()) {
      // the server is stopping: the last check stands, this one is let go
      if (options.stop?.()) throw new Error("the readiness check was stopped with its server");
      checker.check(record);
      if (pending.length >= WRITE_BATCH) await write();
    }
    await write();
    // PostgreSQL's statistics of a table just filled: without them it sorted the whole year's
    // problems for a page past the first (1.4 s at 470,000) instead of reading its index
    if (dialectOf(db) === "postgres") await sql`analyze avetmiss_issues`.execute(db);
    await db
      .updateTable("avetmiss_readiness")
      .set({
        generation,
        version,
        checked_day: day,
        organisation: org,
        checked_at: now.toISOString(),
        took_ms: Date.now() - started,
        active: report.active ? 1 : 0,
        counts: JSON.stringify(checker.counts),
        groups: JSON.stringify(checker.groups()),
        issue_count: checker.issueCount,
        claimed_until: null,
      })
      .where("year", "=", year)
      .execute();
  } catch (error) {
    await db.updateTable("avetmiss_readiness").set({ claimed_until: null }).where("year", "=", year).execute();
    await db.deleteFrom("avetmiss_issues").where("generation", "=", generation).execute();
    throw error;
  }
  if (last.generation) await db.deleteFrom("avetmiss_issues").where("generation", "=", last.generation).execute();
  return "checked";
}

/** The runner's job: the years it keeps, each checked again when changed (see checkReadiness). */
export async function checkReadinessYears(
  db: DB,
  organisation: NatOrganisation,
  now = new Date(),
  stop?: () => boolean,
): Promise<Record<number, CheckOutcome>> {
  const outcomes: Record<number, CheckOutcome> = {};
  for (const year of readinessYears(now)) outcomes[year] = await checkReadiness(db, year, organisation, { now, recheckAfterMs: RECHECK_AFTER_MS, stop });
  return outcomes;
}

/** The readiness list as the reports page shows it. */
export interface ReadinessView extends ReadinessPage {
  counts: Record<NatFileName, number>;
  active: boolean;
  /** when the list shown was checked by the runner; null when checked for this view */
  checkedAt: string | null;
  /** the data has changed since that check: the runner checks again within minutes */
  stale: boolean;
  /**
   * no list for a large organisation: its first check is "under way" (the runner keeps this
   * year and last), or the year is "not kept" (older years are lodged already)
   */
  checking: "under way" | "not kept" | null;
}

/**
 * The year's readiness list for the page: this view's own check for a small organisation, the
 * runner's last check for a large one (or a note that its first is under way, or that the
 * runner keeps this year and last only).
 */
export async function getReadiness(
  db: DB,
  year: number,
  organisation: NatOrganisation,
  query: { find: string; page: number },
  now = new Date(),
): Promise<ReadinessView> {
  const [stored, version, enrollments] = await Promise.all([
    db.selectFrom("avetmiss_readiness").selectAll().where("year", "=", year).executeTakeFirst(),
    avetmissDataVersion(db),
    // kept by triggers (enrollment_counts): a few hundred rows, no enrolment read
    enrollmentCountsByCourseAndStatus(db)
      .clearSelect()
      .select((eb) => eb.fn.sum<number | string | null>("enrollment_counts.n").as("n"))
      .executeTakeFirst(),
  ]);
  const large = Number(enrollments?.n ?? 0) > IN_REQUEST_ENROLLMENTS;
  const fresh =
    Boolean(stored?.generation) &&
    stored!.version === version &&
    stored!.checked_day === organisationToday(now) &&
    stored!.organisation === organisationKey(organisation);
  if (stored?.generation && (fresh || large)) return storedView(db, stored.generation, stored, query, !fresh);
  if (large) {
    const empty = readinessPage([], query);
    const kept = readinessYears(now).includes(year);
    return { ...empty, counts: {} as Record<NatFileName, number>, active: false, checkedAt: null, stale: false, checking: kept ? "under way" : "not kept" };
  }
  const summary = await getAvetmissSummary(db, year, organisation, now);
  return { counts: summary.counts, active: summary.active, checkedAt: null, stale: false, checking: null, ...readinessPage(summary.issues, query) };
}

async function storedView(
  db: DB,
  generation: string,
  stored: { counts: string; groups: string; issue_count: number; active: number; checked_at: string | null },
  query: { find: string; page: number },
  stale: boolean,
): Promise<ReadinessView> {
  const find = query.find.trim();
  const matches = db
    .selectFrom("avetmiss_issues")
    .where("generation", "=", generation)
    .$if(find !== "", (q) => q.where(columnsContain(find, ["avetmiss_issues.record"])));
  const matching = find ? (await countUpTo(db, matches.select("seq"), MATCH_COUNT_LIMIT)).total : stored.issue_count;
  const pageSize = READINESS_PAGE_SIZE;
  const pageCount = Math.max(1, Math.ceil(matching / pageSize));
  const page = Math.min(Math.max(1, query.page), pageCount);
  const issues: ReadinessIssue[] = (await matches
    .select(["file", "record", "key", "field", "problem", "href"])
    .orderBy("rank")
    .orderBy("file")
    .orderBy("seq")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute()) as ReadinessIssue[];
  return {
    counts: JSON.parse(stored.counts) as Record<NatFileName, number>,
    active: stored.active === 1,
    checkedAt: stored.checked_at,
    stale,
    checking: null,
    total: stored.issue_count,
    groups: JSON.parse(stored.groups) as ReadinessGroup[],
    matching,
    page,
    pageCount,
    pageSize,
    issues,
  };
}
