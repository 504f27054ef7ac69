import { Zip, ZipDeflate, zipSync, strToU8 } from "fflate";
import { sql } from "kysely";
import { changeCounter } from "#db/change-feed";
import { cursorBatches, type DB } from "#db/connection";
import { READ_WHEN_ASKED } from "~/utils/streams";
import { TIERS, type Tier } from "#db/schema";
import { avetmissColumns, toAvetmissDetails } from "~/models/avetmiss-details.server";
import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { NatChecker, type NatOutRecord } from "./checker";
import {
  activityRecord,
  clientRecords,
  locationRecord,
  organisationRecord,
  reportedInYear,
  REPORT_ORDER,
  unitRecord,
  type NatActivity,
  type NatActivityClient,
  type NatClient,
  type NatExport,
  type NatLocation,
  type NatOrganisation,
  type NatRecognition,
  type NatUnit,
} from "./files";
import { afterKey, flattened, keysetRows } from "~/models/batches.server";
import { organisationInstant } from "~/utils/class-time";
import { organisationToday, organisationWallClock } from "~/utils/organisation-calendar";
import { NAT_FILES, natFile, type NatFileName } from "./nat-files";

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
          eb.and([
            eb("enrollments.status", "=", "completed"),
            eb.or([eb("enrollments.completion_date", ">=", from), eb.and([eb("enrollments.completion_date", "is", null), openEnd])]),
          ]),
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
  users: [
    "users.id",
    "users.student_number",
    "users.full_name",
    "users.email",
    "users.phone",
    "users.date_of_birth",
    "users.usi",
    "users.usi_claimed",
    ...avetmissColumns,
  ],
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

/** Rows read per statement by the year's walks (keyset batches: each statement costs the same). */
const WALK_BATCH = 2000;

/** What every walk of the year needs: its locations and units (short tables, read whole) and its decided recognitions. */
interface YearBasis {
  year: number;
  organisation: NatOrganisation;
  locations: NatLocation[];
  units: NatUnit[];
  recognitions: Map<string, NatRecognition>;
  /** rows per statement of each walk */
  batch: number;
}

async function yearBasis(db: DB, year: number, organisation: NatOrganisation, batch: number): Promise<YearBasis> {
  const [locations, units, recognitions] = await Promise.all([
    db.selectFrom("delivery_locations").select(AVETMISS_READS.delivery_locations).orderBy("created_at").orderBy("id").execute(),
    db.selectFrom("courses").select(AVETMISS_READS.courses).execute(),
    decidedRecognitions(db),
  ]);
  return {
    year,
    organisation,
    locations: locations.map(({ created_at: _created, ...l }) => l),
    units: units.map((u) => ({
      id: u.id,
      code: u.unit_code,
      official_title: u.official_title,
      field_of_education: u.field_of_education,
      vet_flag: u.vet_flag === 1,
      nominal_hours: Number(u.duration_hours),
    })),
    recognitions,
    batch,
  };
}

/**
 * The year's reported activities in the activity file's order (enrolment instant, then id), a
 * batch at a time, each with what its record shows of its client: read wide in SQL
 * (yearActivity), kept by `reportedInYear` as the file writes the dates.
 */
async function* reportedActivities(
  db: DB,
  basis: YearBasis,
  withClients: boolean,
): AsyncGenerator<{ activity: NatActivity; client: NatActivityClient | null }> {
  const defaultLocation = basis.locations[0]?.id ?? null;
  const activities = () =>
    yearActivity(db, basis.year)
      .innerJoin("courses", "courses.id", "enrollments.course_id")
      .select([...AVETMISS_READS.enrollments, "courses.duration_hours"])
      // the client's name and number by primary key, only where the record is written: the scan
      // that learns whom the year names reads none (a third of each batch's time at size)
      .$if(withClients, (q) => q.innerJoin("users", "users.id", "enrollments.student_id").select(["users.student_number", "users.full_name"]))
      .orderBy("enrollments.enrollment_date")
      .orderBy("enrollments.id");
  // PostgreSQL reads the year as one statement through a cursor; SQLite walks it by keyset
  const cursor = cursorBatches(db, activities(), basis.batch);
  const rows = cursor
    ? flattened(cursor)
    : keysetRows(
        (after: { enrollment_date: string; id: string } | null, limit) =>
          activities()
            .$if(after !== null, (q) =>
              q.where(
                afterKey([
                  ["enrollments.enrollment_date", "asc", after!.enrollment_date],
                  ["enrollments.id", "asc", after!.id],
                ]),
              ),
            )
            .limit(limit)
            .execute(),
        basis.batch,
      );
  for await (const r of rows) {
    // rows written before planned dates existed (or by a bulk load) get the rule the migration applied
    const planned = r.planned_start_date && r.planned_end_date ? null : defaultPlannedDates(r.enrollment_date, Number(r.duration_hours));
    const activity: NatActivity = {
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
      recognition: basis.recognitions.get(r.id) ?? null,
    };
    if (!reportedInYear(activity, basis.year)) continue;
    yield { activity, client: withClients ? { full_name: r.full_name!, student_number: r.student_number ?? null } : null };
  }
}

/**
 * The reported clients in the files' order (by student number as the database sorts it, one
 * without a number first), a batch at a time: every learner is walked by the index on the
 * number and those the year names are kept, so no statement binds the year's hundreds of
 * thousands of ids. `where` narrows the walk (the disability and prior education files read
 * only those who answered Yes).
 */
async function* reportedClients(db: DB, ids: ReadonlySet<string>, batch: number, only?: "disability_or_prior"): AsyncGenerator<NatClient> {
  const withoutNumber = keysetRows(
    (after: { id: string } | null, limit) =>
      db
        .selectFrom("users")
        .select(AVETMISS_READS.users)
        .where("users.student_number", "is", null)
        .$if(only !== undefined, (q) => q.where((eb) => eb.or([eb("users.disability", "=", "Y"), eb("users.prior_education", "=", "Y")])))
        .$if(after !== null, (q) => q.where("users.id", ">", after!.id))
        .orderBy("users.id")
        .limit(limit)
        .execute(),
    batch,
  );
  const numbered = keysetRows(
    (after: { student_number: string | null } | null, limit) =>
      db
        .selectFrom("users")
        .select(AVETMISS_READS.users)
        .where("users.student_number", "is not", null)
        .$if(only !== undefined, (q) => q.where((eb) => eb.or([eb("users.disability", "=", "Y"), eb("users.prior_education", "=", "Y")])))
        .$if(after !== null, (q) => q.where("users.student_number", ">", after!.student_number!))
        .orderBy("users.student_number")
        .limit(limit)
        .execute(),
    batch,
  );
  for (const walk of [withoutNumber, numbered]) {
    for await (const r of walk) {
      if (!ids.has(r.id)) continue;
      yield {
        id: r.id,
        student_number: r.student_number,
        full_name: r.full_name,
        email: r.email,
        phone: r.phone,
        date_of_birth: r.date_of_birth,
        usi: r.usi,
        usi_claimed: r.usi_claimed,
        ...toAvetmissDetails(r),
      };
    }
  }
}

/**
 * Every record of the year's report in REPORT_ORDER, a batch of the database at a time, so a
 * national provider's year (900,000 activities, 300,000 clients) is never held whole. The
 * activities come first: their walk also learns which locations, units and clients the year
 * names, so the other files need no walk of their own over the activities. The clients' files
 * come from one walk each (the disability and prior education files from one together).
 * `files` leaves out what is not wanted (the activities are still walked, unwritten, to learn
 * whom the year names).
 */
async function* yearRecords(db: DB, basis: YearBasis, files: ReadonlySet<NatFileName> = new Set(NAT_FILES)): AsyncGenerator<NatOutRecord> {
  const org = basis.organisation.code;
  const named = { locations: new Set<string>(), units: new Set<string>(), clients: new Set<string>() };
  if (files.has("NAT00010")) yield organisationRecord(basis.organisation);
  const units = new Map(basis.units.map((u) => [u.id, u]));
  const locations = new Map(basis.locations.map((l) => [l.id, l]));
  const writeActivities = files.has("NAT00120");
  for await (const { activity, client } of reportedActivities(db, basis, writeActivities)) {
    if (activity.location_id) named.locations.add(activity.location_id);
    named.units.add(activity.unit_id);
    named.clients.add(activity.client_id);
    if (writeActivities) {
      yield activityRecord(
        activity,
        client!,
        units.get(activity.unit_id)!,
        activity.location_id ? locations.get(activity.location_id) : undefined,
        basis.year,
        org,
      );
    }
  }
  if (files.has("NAT00020")) for (const l of basis.locations) if (named.locations.has(l.id)) yield locationRecord(l, org);
  // the portal issues statements of attainment for single units only: no programs (NAT00030), none completed (NAT00130)
  if (files.has("NAT00060")) for (const u of basis.units) if (named.units.has(u.id)) yield unitRecord(u);
  const ofClients = async function* (wanted: NatFileName[], only?: "disability_or_prior") {
    if (!wanted.some((f) => files.has(f))) return;
    // the walk's later file waits in memory: a few codes for each client who answered Yes
    const later: NatOutRecord[] = [];
    for await (const client of reportedClients(db, named.clients, basis.batch, only)) {
      for (const r of clientRecords(client, basis.year)) {
        if (!files.has(r.file)) continue;
        if (r.file === wanted[0]) yield r;
        else if (wanted.includes(r.file)) later.push(r);
      }
    }
    yield* later;
  };
  yield* ofClients(["NAT00080"]);
  yield* ofClients(["NAT00085"]);
  yield* ofClients(["NAT00090", "NAT00100"], "disability_or_prior");
}

/** A year's report read for writing: whether it has anything to lodge, and its records on demand. */
export interface YearReport {
  year: number;
  active: boolean;
  today: string;
  records: (files?: ReadonlySet<NatFileName>) => AsyncGenerator<NatOutRecord>;
}

/**
 * The year's report: whether it has any activity (its walk read up to the first activity it
 * reports), and its records on demand (see yearRecords); `batch` rows per statement.
 */
export async function openYearReport(db: DB, year: number, organisation: NatOrganisation, now = new Date(), batch = WALK_BATCH): Promise<YearReport> {
  const basis = await yearBasis(db, year, organisation, batch);
  const first = reportedActivities(db, basis, false);
  const active = !(await first.next()).done;
  await first.return(undefined);
  return { year, active, today: organisationToday(now), records: (files) => yearRecords(db, basis, files) };
}

/** The collection years the export accepts (the NAT date fields carry four-digit years; NCVER's collections began long after 1980). */
export const FIRST_YEAR = 1980;
export const LAST_YEAR = 2099;

export interface AvetmissReport extends NatExport {
  year: number;
  /** false when nothing happened in the year: nothing to lodge (the files would hold NAT00010 alone) */
  active: boolean;
}

/** The year's files whole, with their counts and issues: for the tests and a small organisation's checks (the download streams instead). */
export async function getAvetmissExport(db: DB, year: number, organisation: NatOrganisation, now = new Date()): Promise<AvetmissReport> {
  const report = await openYearReport(db, year, organisation, now);
  const checker = new NatChecker({ year, today: report.today });
  const lines = Object.fromEntries(NAT_FILES.map((f) => [f, [] as string[]])) as Record<NatFileName, string[]>;
  for await (const r of report.records()) lines[r.file].push(checker.check(r));
  const files = Object.fromEntries(NAT_FILES.map((f) => [f, natFile(lines[f])])) as Record<NatFileName, string>;
  return { year, active: report.active, files, counts: checker.counts, issues: checker.issues() };
}

/** The year's counts and readiness issues, its records checked as they are read and none kept. */
async function summarise(db: DB, year: number, organisation: NatOrganisation, now: Date): Promise<AvetmissSummary> {
  const report = await openYearReport(db, year, organisation, now);
  const checker = new NatChecker({ year, today: report.today });
  for await (const r of report.records()) checker.check(r);
  return { year, active: report.active, counts: checker.counts, issues: checker.issues() };
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
  const build = () => summarise(db, year, organisation, now);
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
 * The year's files zipped as a stream for the download, written from its records as the
 * client reads (each entry's sizes follow its data, so the bytes differ from avetmissZip's;
 * the same on every run): the worker holds a slice of one file and the walk's batch, never a
 * whole file (tens of megabytes each at a national provider's volume: CONTRACT 23's 300 MB a
 * worker). Every file has its entry, an empty one for a file with no records.
 */
export function avetmissZipStream(report: YearReport, now: Date = new Date(), sliceChars = ZIP_SLICE_CHARS): ReadableStream<Uint8Array> {
  const mtime = zipTime(now);
  const checker = new NatChecker({ year: report.year, today: report.today }, "count");
  const records = report.records();
  let zip: Zip;
  let produced = 0;
  let file = 0;
  let entry: ZipDeflate | null = null;
  let pending = "";
  const open = () => {
    // the fastest level: a national provider's year took 8 s less to compress at level 1 than
    // at 6 (fflate compresses on the worker's own thread), for a zip 15% larger (34 MB, not 29)
    entry = new ZipDeflate(`${REPORT_ORDER[file]}.txt`, { level: 1 });
    entry.mtime = mtime;
    zip.add(entry);
    return entry;
  };
  const flush = (last: boolean) => {
    (entry ?? open()).push(strToU8(pending), last);
    pending = "";
  };
  /** closes the open entry and every file before `index` (empty ones too) */
  const finishUpTo = (index: number) => {
    while (file < index) {
      flush(true);
      entry = null;
      file++;
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        zip = new Zip((error, chunk, final) => {
          if (error) return controller.error(error);
          if (chunk.byteLength) {
            produced += chunk.byteLength;
            controller.enqueue(chunk);
          }
          if (final) controller.close();
        });
      },
      async pull() {
        const before = produced;
        while (produced === before) {
          const next = await records.next();
          if (next.done) {
            finishUpTo(REPORT_ORDER.length);
            zip.end();
            return;
          }
          const r = next.value;
          finishUpTo(REPORT_ORDER.indexOf(r.file));
          pending += `${checker.check(r)}\r\n`;
          if (pending.length >= sliceChars) flush(false);
        }
      },
      async cancel() {
        await records.return(undefined);
      },
    },
    READ_WHEN_ASKED,
  );
}

/** One NAT file's text as a stream, written from its records as the client reads (ASCII, CRLF line ends). */
export function natFileStream(report: YearReport, name: NatFileName, sliceChars = ZIP_SLICE_CHARS): ReadableStream<Uint8Array> {
  const checker = new NatChecker({ year: report.year, today: report.today }, "count");
  const records = report.records(new Set([name]));
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let text = "";
        while (text.length < sliceChars) {
          const next = await records.next();
          if (next.done) break;
          text += `${checker.check(next.value)}\r\n`;
        }
        if (text) controller.enqueue(Buffer.from(text, "ascii"));
        if (text.length < sliceChars) controller.close();
      },
      async cancel() {
        await records.return(undefined);
      },
    },
    READ_WHEN_ASKED,
  );
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

/** The hour an instant falls in, as enrollment_hours keys it: "2026-03-01T13". */
const hourOf = (instant: string) => instant.slice(0, 13);

/**
 * The month (1-12) of an hour of enrollment_hours on the organisation's calendar, for hours
 * inside the year: each month is the range of hours between the instants its first day and the
 * next month's begin in Sydney, whole hours of UTC (a completion at 01:15 on 1 December there is
 * December's, though its UTC text says November).
 */
function monthOfHour(year: number) {
  const starts = Array.from({ length: 11 }, (_, i) => hourOf(dayStarts(`${year}-${String(i + 2).padStart(2, "0")}-01`)));
  return sql<number>`case ${sql.join(
    starts.map((start, i) => sql`when hour < ${start} then ${sql.lit(i + 1)}`),
    sql` `,
  )} else 12 end`;
}

/**
 * Enrolments (by enrolment date) and completions (by completion date) per month of the year,
 * and the year's completions per tier, each dated on the organisation's calendar: summed in SQL
 * from the hourly counts triggers keep (migration 2026-12-05T1500), at most 26,280 rows a year
 * however many enrolments it had.
 */
export async function getReportCharts(db: DB, year: number): Promise<ReportCharts> {
  const { from, to } = yearBounds(year);
  const inYear = db.selectFrom("enrollment_hours").where("hour", ">=", hourOf(from)).where("hour", "<", hourOf(to));
  const [months, byTier] = await Promise.all([
    inYear
      .select((eb) => [monthOfHour(year).as("month"), eb.fn.sum<number>("enrolled").as("enrolled"), eb.fn.sum<number>("completed").as("completed")])
      .groupBy("month")
      .execute(),
    inYear
      .select((eb) => ["tier", eb.fn.sum<number>("completed").as("n")])
      .groupBy("tier")
      .execute(),
  ]);
  const month = (m: number) => months.find((r) => Number(r.month) === m);
  return {
    year,
    months: Array.from({ length: 12 }, (_, i) => ({
      month: i + 1,
      enrollments: Number(month(i + 1)?.enrolled ?? 0),
      completions: Number(month(i + 1)?.completed ?? 0),
    })),
    completionsByTier: TIERS.map((tier) => ({ tier, completions: Number(byTier.find((r) => r.tier === tier)?.n ?? 0) })),
  };
}
