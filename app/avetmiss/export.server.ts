import { Zip, ZipDeflate, zipSync, strToU8 } from "fflate";
import { sql } from "kysely";
import { changeCounter } from "#db/change-feed";
import type { DB } from "#db/connection";
import { TIERS, type Tier } from "#db/schema";
import { avetmissColumns, toAvetmissDetails } from "./details.server";
import { defaultPlannedDates } from "~/models/enrollment-rules";
import { buildNatFiles, hasActivity, reportedInYear, type NatCollection, type NatExport, type NatOrganisation, type NatRecognition } from "./files";
import { organisationInstant } from "~/utils/class-time";
import { organisationToday, organisationWallClock } from "~/utils/organisation-calendar";
import { NAT_FILES, type NatFileName } from "./nat-files";

/**
 * The annual AVETMISS report from the database: the year's training activity read in SQL,
 * written by app/models/avetmiss-files.ts, and zipped for lodgement. Also the figures the
 * reports page charts for the same year.
 */

/** The instant the organisation's day `date` begins, as the ISO text instants are stored in. */
const dayStarts = (date: string) => organisationInstant(date, "00:00").toISOString();

/**
 * The year's bounds: its first and last dates, for the date columns (planned dates), and the
 * instants it begins and ends on the organisation's clock, for the instant columns
 * (enrolment, completion and withdrawal): 1 January begins at 13:00 UTC on 31 December.
 */
function yearBounds(year: number) {
  return { first: `${year}-01-01`, last: `${year}-12-31`, from: dayStarts(`${year}-01-01`), to: dayStarts(`${year + 1}-01-01`) };
}

/**
 * The enrolments a collection year may report, read wide in SQL: those whose activity could
 * meet the year by its start and end (a row without planned dates starts on its enrolment day),
 * and those booked in the year. `reportedInYear` then keeps exactly those whose dates, as the
 * file writes them, meet the year; when a record was made does not matter.
 */
function yearActivity(db: DB, year: number) {
  const { first, last, from, to } = yearBounds(year);
  return db.selectFrom("enrollments").where((eb) => {
    const noPlan = eb("enrollments.planned_start_date", "is", null);
    const openEnd = eb.or([eb("enrollments.planned_end_date", ">=", first), eb("enrollments.planned_end_date", "is", null)]);
    return eb.or([
      eb.and([
        // started by the year's end
        eb.or([eb("enrollments.planned_start_date", "<=", last), eb.and([noPlan, eb("enrollments.enrollment_date", "<", to)])]),
        // and ended in it or after (an end is never before its start)
        eb.or([
          eb("enrollments.planned_start_date", ">=", first),
          eb.and([noPlan, eb("enrollments.enrollment_date", ">=", from)]),
          eb.and([eb("enrollments.status", "in", ["enrolled", "in_progress"]), openEnd]),
          eb.and([eb("enrollments.status", "=", "completed"), eb.or([eb("enrollments.completion_date", ">=", from), eb.and([eb("enrollments.completion_date", "is", null), openEnd])])]),
          eb.and([eb("enrollments.status", "=", "withdrawn"), eb("enrollments.updated_at", ">=", from)]),
        ]),
      ]),
      // booked in the year for training after it (not yet started, 85)
      eb.and([eb("enrollments.status", "=", "enrolled"), eb("enrollments.enrollment_date", ">=", from), eb("enrollments.enrollment_date", "<", to)]),
    ]);
  });
}

/**
 * Every column the export reads, per table. The reports page keeps the year's summary per the
 * `avetmiss` change counter, which triggers move on writes to exactly these columns (migration
 * 2026-11-26T0400); a column added here needs a migration that adds it to those triggers, and
 * export.server.test.ts fails until it has one.
 */
export const AVETMISS_READS = {
  delivery_locations: [
    "delivery_locations.id",
    "delivery_locations.identifier",
    "delivery_locations.name",
    "delivery_locations.suburb",
    "delivery_locations.postcode",
    "delivery_locations.state",
    "delivery_locations.country",
    "delivery_locations.created_at",
  ],
  enrollments: [
    "enrollments.id",
    "enrollments.student_id",
    "enrollments.course_id",
    "enrollments.location_id",
    "enrollments.status",
    "enrollments.latest_assessment_status",
    "enrollments.enrollment_date",
    "enrollments.completion_date",
    "enrollments.updated_at",
    "enrollments.planned_start_date",
    "enrollments.planned_end_date",
  ],
  recognition_applications: [
    "recognition_applications.id",
    "recognition_applications.enrollment_id",
    "recognition_applications.status",
    "recognition_applications.outcome_code",
    "recognition_applications.applied_on",
    "recognition_applications.decided_on",
    "recognition_applications.assessor_id",
    "recognition_applications.issuing_rto_code",
    "recognition_applications.document_number",
    "recognition_applications.checked_on",
  ],
  courses: ["courses.id", "courses.unit_code", "courses.official_title", "courses.field_of_education", "courses.vet_flag", "courses.duration_hours"],
  users: ["users.id", "users.student_number", "users.full_name", "users.email", "users.phone", "users.date_of_birth", "users.usi", "users.usi_claimed", ...avetmissColumns],
} as const;

/**
 * Every enrolment's latest credit transfer or RPL decision with a national outcome: a short
 * table (one row per application), read whole like the courses.
 */
async function decidedRecognitions(db: DB): Promise<Map<string, NatRecognition>> {
  const rows = await db
    .selectFrom("recognition_applications")
    .select(AVETMISS_READS.recognition_applications)
    .where("recognition_applications.outcome_code", "is not", null)
    .orderBy("recognition_applications.decided_on")
    .execute();
  const out = new Map<string, NatRecognition>();
  for (const r of rows) {
    out.set(r.enrollment_id, {
      outcome: r.outcome_code!,
      applied_on: r.applied_on,
      decided_on: r.decided_on!,
      authenticated: Boolean(r.issuing_rto_code && r.document_number && r.checked_on),
      assessed: Boolean(r.assessor_id),
    });
  }
  return out;
}

/** Clients read per statement: well under what either database lets one statement bind. */
const CLIENT_BATCH = 1000;

/** The collection for a calendar year: its enrolments and every location, unit and client they name. */
export async function loadNatCollection(db: DB, year: number, organisation: NatOrganisation): Promise<NatCollection> {
  const locations = await db
    .selectFrom("delivery_locations")
    .select(AVETMISS_READS.delivery_locations)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const defaultLocation = locations[0]?.id ?? null;
  const activityRows = await yearActivity(db, year)
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select([...AVETMISS_READS.enrollments, "courses.duration_hours"])
    .execute();
  const recognitions = await decidedRecognitions(db);
  const activities = activityRows
    .map((r) => {
    // rows written before planned dates existed (or by a bulk load) get the rule the migration applied
    const planned = r.planned_start_date && r.planned_end_date ? null : defaultPlannedDates(r.enrollment_date, Number(r.duration_hours));
    return {
    enrollment_id: r.id,
    client_id: r.student_id,
    unit_id: r.course_id,
    location_id: r.location_id ?? defaultLocation,
    status: r.status,
    latest_assessment_status: r.latest_assessment_status,
    enrollment_date: r.enrollment_date,
    planned_start_date: r.planned_start_date ?? planned!.start,
    planned_end_date: r.planned_end_date ?? planned!.end,
    completion_date: r.completion_date,
    // a withdrawn enrolment changes no more (reopening it makes it current again), so its last change is the withdrawal
    withdrawn_at: r.status === "withdrawn" ? r.updated_at : null,
    };
    })
    .map((a) => ({ ...a, recognition: recognitions.get(a.enrollment_id) ?? null }))
    .filter((a) => reportedInYear(a, year));
  // Read after the activities and by the ids they name, so they hold every unit and client
  // those name. Running the year's filter again as a subquery cost as much as the activities
  // themselves (each reads most enrolments through the status indexes); the courses are a
  // short table read whole, and the clients come by primary key in batches (a large
  // organisation has more clients in a year than one statement may bind values).
  const unitIds = new Set(activities.map((a) => a.unit_id));
  const clientIds = [...new Set(activities.map((a) => a.client_id))];
  const batches: string[][] = [];
  for (let i = 0; i < clientIds.length; i += CLIENT_BATCH) batches.push(clientIds.slice(i, i + CLIENT_BATCH));
  const [allUnits, ...clientBatches] = await Promise.all([
    db.selectFrom("courses").select(AVETMISS_READS.courses).execute(),
    ...batches.map((ids) => db.selectFrom("users").select(AVETMISS_READS.users).where("users.id", "in", ids).execute()),
  ]);
  const units = allUnits.filter((u) => unitIds.has(u.id));
  const clientRows = clientBatches.flat();
  return {
    year,
    organisation,
    locations,
    units: units.map((u) => ({
      id: u.id,
      code: u.unit_code,
      official_title: u.official_title,
      field_of_education: u.field_of_education,
      vet_flag: u.vet_flag === 1,
      nominal_hours: Number(u.duration_hours),
    })),
    clients: clientRows.map((r) => ({
      id: r.id,
      student_number: r.student_number,
      full_name: r.full_name,
      email: r.email,
      phone: r.phone,
      date_of_birth: r.date_of_birth,
      usi: r.usi,
      usi_claimed: r.usi_claimed,
      ...toAvetmissDetails(r),
    })),
    activities,
    // the portal issues statements of attainment for single units only: no programs, none completed
    programs: [],
    completions: [],
  };
}

/** The collection years the export accepts (the NAT date fields carry four-digit years; NCVER's collections began long after 1980). */
export const FIRST_YEAR = 1980;
export const LAST_YEAR = 2099;

export interface AvetmissReport extends NatExport {
  year: number;
  /** false when nothing happened in the year: nothing to lodge (the files would hold NAT00010 alone) */
  active: boolean;
}

export async function getAvetmissExport(db: DB, year: number, organisation: NatOrganisation, now = new Date()): Promise<AvetmissReport> {
  const collection = await loadNatCollection(db, year, organisation);
  return { year, active: hasActivity(collection), ...buildNatFiles(collection, organisationToday(now)) };
}

/**
 * The report as the reports page shows it, kept per year while what it reads stays the same:
 * the page is viewed far more often than the data changes, and building a large organisation's
 * year reads and checks every enrolment (seconds at 100,000). The key is the `avetmiss` change
 * counter, a row that triggers move on every write to the columns in AVETMISS_READS and on
 * nothing else (a sign-in, a notification read or a course's price leave it), read from the
 * database on each view, so every process on every server sees a committed change on its next
 * view. The day is part of the key because the date rules ("planned start has passed") depend
 * on it. A few years are kept per database, newest use last. The counter is read before the
 * build: a write during the build moves it, and the next view builds again.
 */
const REPORT_CACHE_SIZE = 4;
export type AvetmissSummary = Omit<AvetmissReport, "files">;
const reportCaches = new WeakMap<DB, Map<string, Promise<AvetmissSummary>>>();

/** The version of what the AVETMISS export reads (see AVETMISS_READS); null on a database without the counter. */
export function avetmissDataVersion(db: DB): Promise<number | null> {
  return changeCounter(db, "avetmiss");
}

/** The year's readiness list and record counts (not the files' text: tens of megabytes at size). */
export async function getAvetmissSummary(db: DB, year: number, organisation: NatOrganisation, now = new Date()): Promise<AvetmissSummary> {
  const version = await avetmissDataVersion(db);
  const build = () => getAvetmissExport(db, year, organisation, now).then(({ files: _files, ...summary }) => summary);
  if (version === null) return build();
  let cache = reportCaches.get(db);
  if (!cache) reportCaches.set(db, (cache = new Map()));
  const key = `${year}|${organisationToday(now)}|${organisation.code}|${organisation.name}|${version}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  for (const k of cache.keys()) if (k.startsWith(`${year}|`)) cache.delete(k);
  const made = build();
  made.catch(() => cache.delete(key));
  cache.set(key, made);
  while (cache.size > REPORT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return made;
}

/**
 * The files as one zip for lodgement (avetmiss-YYYY.zip), each as NAT000NN.txt, dated when the
 * zip is made. A zip entry's time has no zone (the reader shows it as written) and fflate
 * writes the Date's local fields, so it gets one whose local fields are the organisation's
 * clock, whatever the server's zone.
 */
export function avetmissZip(files: Record<NatFileName, string>, now: Date = new Date()): Uint8Array {
  const mtime = zipTime(now);
  return zipSync(Object.fromEntries(NAT_FILES.map((f) => [`${f}.txt`, [strToU8(files[f]), { mtime }]])), { level: 6 });
}

function zipTime(now: Date): Date {
  const [y, mo, d, h, mi, s] = organisationWallClock(now);
  return new Date(y, mo - 1, d, h, mi, s);
}

/** How much of a file's text is compressed per step of the streamed zip. */
const ZIP_SLICE_CHARS = 256 * 1024;

/**
 * The same files zipped as a stream for the download (each entry's sizes follow its data, so
 * the bytes differ from avetmissZip's; the same on every run): each file is
 * compressed a slice at a time as the client reads, so the first bytes leave at once and the
 * worker never holds the whole zip beside the files' text (tens of megabytes each at a
 * national provider's volume: CONTRACT 23's 300 MB a worker).
 */
export function avetmissZipStream(files: Record<NatFileName, string>, now: Date = new Date()): ReadableStream<Uint8Array> {
  const mtime = zipTime(now);
  let file = 0;
  let offset = 0;
  let entry: ZipDeflate | null = null;
  let zip: Zip;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        if (chunk.byteLength) controller.enqueue(chunk);
        if (final) controller.close();
      });
    },
    pull() {
      const name = NAT_FILES[file];
      if (name === undefined) return zip.end();
      if (!entry) {
        entry = new ZipDeflate(`${name}.txt`, { level: 6 });
        entry.mtime = mtime;
        zip.add(entry);
      }
      const text = files[name];
      const slice = text.slice(offset, offset + ZIP_SLICE_CHARS);
      offset += ZIP_SLICE_CHARS;
      const last = offset >= text.length;
      entry.push(strToU8(slice), last);
      if (last) {
        entry = null;
        offset = 0;
        file++;
      }
    },
  });
}

export interface MonthFigures {
  /** 1 to 12 */
  month: number;
  enrollments: number;
  completions: number;
}

export interface ReportCharts {
  year: number;
  months: MonthFigures[];
  completionsByTier: Array<{ tier: Tier; completions: number }>;
}

/**
 * The month (1-12) of an instant column on the organisation's calendar, for rows inside the
 * year: instants are ISO 8601 UTC text on both databases, so each month is the range between
 * the instants its first day and the next month's begin in Sydney (a completion at 01:15 on
 * 1 December there is December's, though its UTC text says November).
 */
function monthOf(column: "enrollment_date" | "completion_date", year: number) {
  const starts = Array.from({ length: 11 }, (_, i) => dayStarts(`${year}-${String(i + 2).padStart(2, "0")}-01`));
  return sql<number>`case ${sql.join(
    starts.map((start, i) => sql`when ${sql.ref(column)} < ${start} then ${sql.lit(i + 1)}`),
    sql` `,
  )} else 12 end`;
}

/**
 * Enrolments (by enrolment date) and completions (by completion date) per month of the year,
 * and the year's completions per tier, counted in SQL, each dated on the organisation's calendar.
 */
export async function getReportCharts(db: DB, year: number): Promise<ReportCharts> {
  const { from, to } = yearBounds(year);
  const [enrolled, completed, byTier] = await Promise.all([
    db
      .selectFrom("enrollments")
      .select((eb) => [monthOf("enrollment_date", year).as("month"), eb.fn.countAll().as("n")])
      .where("enrollment_date", ">=", from)
      .where("enrollment_date", "<", to)
      .groupBy("month")
      .execute(),
    db
      .selectFrom("enrollments")
      .select((eb) => [monthOf("completion_date", year).as("month"), eb.fn.countAll().as("n")])
      .where("status", "=", "completed")
      .where("completion_date", ">=", from)
      .where("completion_date", "<", to)
      .groupBy("month")
      .execute(),
    // counted per course on the index first, then summed per tier: 60 courses are joined, not
    // each of the year's completions
    db
      .selectFrom((eb) =>
        eb
          .selectFrom("enrollments")
          .select((inner) => ["enrollments.course_id", inner.fn.countAll().as("n")])
          .where("enrollments.status", "=", "completed")
          .where("enrollments.completion_date", ">=", from)
          .where("enrollments.completion_date", "<", to)
          .groupBy("enrollments.course_id")
          .as("per_course"),
      )
      .innerJoin("courses", "courses.id", "per_course.course_id")
      .select((eb) => ["courses.tier", eb.fn.sum("per_course.n").as("n")])
      .groupBy("courses.tier")
      .execute(),
  ]);
  const count = (rows: Array<{ month: unknown; n: unknown }>, month: number) =>
    Number(rows.find((r) => Number(r.month) === month)?.n ?? 0);
  return {
    year,
    months: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, enrollments: count(enrolled, i + 1), completions: count(completed, i + 1) })),
    completionsByTier: TIERS.map((tier) => ({ tier, completions: Number(byTier.find((r) => r.tier === tier)?.n ?? 0) })),
  };
}
