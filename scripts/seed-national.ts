/**
 * seed:large on PostgreSQL: a national provider's volume (CONTRACT 23), everything in proportion
 * to the reference volume at 500,000 learners, streamed with COPY FROM STDIN.
 *
 * Per learner at the reference volume: 5 enrolments, 2 certificates, 3 assessment results,
 * 10 audit entries, 2 delivered mails; per 1,000 learners 4 classes a year (2,000 a year at
 * 500,000) with their sessions and rolls; one employer and one trainer per 2,500 learners;
 * a learner invoice (with its line and, mostly, its payment) for every enrolment of the last
 * year. The demo organisation is seeded first through the normal seed, so the demo logins work
 * and see the volume: trainer@example.com teaches its share of the classes.
 *
 * Deterministic: every id and value comes from a seeded generator or from the row's own number
 * (ids are a hash of kind and number, so any phase can name a row another phase wrote without
 * keeping it), and dates count from the start of the UTC day (--today YYYY-MM-DD pins it). What
 * is not: the demo organisation's own rows (the normal seed makes random ids), the one password
 * hash every bulk login shares (scrypt salts it), and so the audit hashes, whose chain follows
 * the demo's entries.
 *
 * Speed: rows go through one COPY stream per table, all open at once, each on its own connection
 * with session_replication_role = replica (no foreign-key checks, no triggers: the values the
 * triggers keep — current_enrollments, latest_assessment_status, has_certificate,
 * enrollment_counts, user_counts, studying_count, enrollment_hours, invoice_sums, awaiting_assessor_count, certificate_count, assessment_counts, audit_head — are computed here instead). The tables' indexes that back no
 * constraint are dropped before the load and built again after it (one sort each instead of
 * millions of inserts into them); VACUUM ANALYZE ends it.
 */
import { once } from "node:events";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { sql } from "kysely";
import { chainHash, GENESIS_HASH, type ChainedAuditRow } from "../db/audit-chain";
import { openDatabase, type DB } from "../db/connection";
import { migrateToLatest } from "../db/migrate";
import { recountEnrollmentHours } from "../migrations/2026-12-05T1500_enrollment_hours";
import { recountInvoiceSums } from "../migrations/2026-12-05T1510_invoice_sums";
import { recountAwaitingAssessor } from "../migrations/2026-12-05T1520_awaiting_assessor_count";
import { recountCertificates } from "../migrations/2026-12-05T1550_certificate_count";
import { seedDemoData } from "../app/demo/seed.server";
import { hashPassword } from "../app/security/password.server";
import { DEMO_PASSWORD } from "../app/demo/data";
import { usiFromBody, USI_ALPHABET } from "../app/rules/usi";
import type { AssessmentStatus, EnrollmentStatus, Tier } from "../db/schema";

/** The reference volume's shape, per learner (CONTRACT 23 at 500,000 learners). */
export const PER_LEARNER = { enrollments: 5, certificates: 2, assessments: 3, audit: 10, mails: 2 } as const;
/** Classes a year per 1,000 learners (2,000 a year at 500,000). */
export const CLASSES_PER_YEAR_PER_1000 = 4;
export const LEARNERS_PER_EMPLOYER = 2_500;
export const LEARNERS_PER_TRAINER = 2_500;

const DAY = 864e5;
/** Enrolments reach back this many days; classes also run this far ahead. */
const HISTORY_DAYS = 1400;
const AHEAD_DAYS = 180;
const COURSES = 60;
const SEATS = 12;
const MAX_ENROLLMENTS = 9;

export interface NationalOptions {
  learners: number;
  force?: boolean;
  ifEmpty?: boolean;
  /** YYYY-MM-DD: the day dates count from (default today, UTC) */
  today?: string;
  log?: (line: string) => void;
}

export interface NationalSummary {
  seconds: number;
  rows: Record<string, number>;
  skipped?: boolean;
}

/** A seeded generator (mulberry32): the same numbers on every machine; seed:large's SQLite path uses it too. */
export function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
function mix(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
const hex32 = (v: number) => HEX[v >>> 24]! + HEX[(v >>> 16) & 255]! + HEX[(v >>> 8) & 255]! + HEX[v & 255]!;

/** The id of row `n` of a kind: a version-4-shaped UUID hashed from both, the same on every run. */
export function uuidOf(kind: number, n: number): string {
  const lo = n >>> 0;
  const hi = Math.floor(n / 4294967296);
  const a = mix(kind * 0x9e3779b1 + lo);
  const b = mix(a ^ (hi + 0x632be5ab));
  const c = mix(b ^ (lo + 0x7f4a7c15));
  const d = mix(c ^ (kind + 0x165667b1));
  const h1 = hex32(a);
  const h2 = hex32(b);
  const h3 = hex32(c);
  const h4 = hex32(d);
  return `${h1}-${h2.slice(0, 4)}-4${h2.slice(5, 8)}-${"89ab"[c & 3]}${h3.slice(1, 4)}-${h3.slice(4)}${h4}`;
}

const K = {
  student: 1,
  trainer: 2,
  admin: 3,
  course: 4,
  location: 5,
  employer: 6,
  klass: 7,
  session: 8,
  enrollment: 9,
  certificate: 10,
  assessment: 11,
  event: 12,
  mail: 13,
  invoice: 14,
  line: 15,
  payment: 16,
} as const;

export const FIRST = [
  "Liam",
  "Noah",
  "Oliver",
  "Jack",
  "William",
  "Lucas",
  "Henry",
  "Thomas",
  "Charlie",
  "James",
  "Ethan",
  "Mason",
  "Leo",
  "Harrison",
  "Cooper",
  "Riley",
  "Olivia",
  "Charlotte",
  "Amelia",
  "Isla",
  "Mia",
  "Ava",
  "Grace",
  "Chloe",
  "Zoe",
  "Sophie",
  "Ruby",
  "Ella",
  "Harper",
  "Aisha",
  "Priya",
  "Wei",
  "Minh",
  "Tariq",
  "Mateo",
  "Kai",
  "Aroha",
  "Tane",
  "Sione",
  "Dimitri",
];
export const LAST = [
  "Smith",
  "Jones",
  "Williams",
  "Brown",
  "Wilson",
  "Taylor",
  "Johnson",
  "White",
  "Martin",
  "Anderson",
  "Thompson",
  "Nguyen",
  "Thomas",
  "Walker",
  "Harris",
  "Lee",
  "Ryan",
  "Robinson",
  "Kelly",
  "King",
  "Singh",
  "Patel",
  "Papadopoulos",
  "Kowalski",
  "O'Connor",
  "Tanaka",
  "Fraser",
  "Campbell",
  "Ali",
  "Chen",
  "Rossi",
  "Murphy",
  "Mitchell",
  "Hughes",
  "Fletcher",
  "Te Rangi",
];
const PLACES: Array<[suburb: string, postcode: string, state: string]> = [
  ["Newcastle", "2300", "01"],
  ["Parramatta", "2150", "01"],
  ["Wollongong", "2500", "01"],
  ["Blacktown", "2148", "01"],
  ["Penrith", "2750", "01"],
  ["Gosford", "2250", "01"],
  ["Liverpool", "2170", "01"],
  ["Geelong", "3220", "02"],
  ["Dandenong", "3175", "02"],
  ["Gladstone", "4680", "03"],
  ["Mackay", "4740", "03"],
  ["Port Hedland", "6721", "05"],
  ["Kwinana", "6167", "05"],
  ["Whyalla", "5600", "04"],
  ["Launceston", "7250", "06"],
  ["Darwin", "0800", "07"],
];
export const STREETS = [
  "Wharf St",
  "Station Rd",
  "Industrial Ave",
  "Crane Cl",
  "Harbour Dr",
  "King St",
  "Gantry Way",
  "Quarry Rd",
  "Dock St",
  "Rivet Pl",
  "Hoist Ln",
  "Boom St",
];
const TOPICS: Array<[string, string, string]> = [
  ["Dogging", "DG", "040329"],
  ["Basic rigging", "RB", "040329"],
  ["Intermediate rigging", "RI", "040329"],
  ["Advanced rigging", "RA", "040329"],
  ["Non-slewing mobile crane", "CN", "030717"],
  ["Slewing mobile crane up to 20 t", "C2", "030717"],
  ["Slewing mobile crane up to 60 t", "C6", "030717"],
  ["Slewing mobile crane up to 100 t", "C1", "030717"],
  ["Tower crane", "CT", "030717"],
  ["Self-erecting tower crane", "CS", "030717"],
  ["Bridge and gantry crane", "CB", "030717"],
  ["Vehicle loading crane", "CV", "030717"],
  ["Portal boom crane", "CP", "030717"],
  ["Derrick crane", "CD", "030717"],
  ["Materials hoist", "HM", "030717"],
  ["Personnel and materials hoist", "HP", "030717"],
  ["Boom-type elevating work platform", "WP", "030717"],
  ["Forklift truck", "LF", "030717"],
  ["Order-picking forklift", "LO", "030717"],
  ["Basic scaffolding", "SB", "040329"],
];
const TIERS: Tier[] = ["tier_1", "tier_2", "tier_3"];
const ASSESSMENT_TYPES = ["Written", "Practical", "Log book review", "Oral questioning"];
const FEEDBACK = [
  "Confident hand signals; good load control.",
  "Sound understanding of working load limits.",
  "Needs more care with pre-use inspection checklist.",
  "Excellent communication with the crane operator.",
  "Load calculation correct; sling angle chart used well.",
  "Resit booked: tag line use was inconsistent.",
];
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

/** The tables the bulk load writes, in the order their streams are opened. */
const TABLES = {
  users: [
    "id",
    "email",
    "full_name",
    "password_hash",
    "role",
    "phone",
    "address",
    "date_of_birth",
    "license_number",
    "is_active",
    "approval_status",
    "created_at",
    "updated_at",
    "last_login",
    "current_enrollments",
    "usi",
    "student_number",
    "sex",
    "address_street_number",
    "address_street_name",
    "suburb",
    "postcode",
    "state",
    "country_of_birth",
    "language_at_home",
    "indigenous_status",
    "labour_force_status",
    "highest_school_level",
    "at_school",
    "disability",
    "prior_education",
    "survey_contact_status",
  ],
  courses: [
    "id",
    "unit_code",
    "name",
    "description",
    "tier",
    "duration_hours",
    "price_cents",
    "is_active",
    "prerequisites",
    "learning_outcomes",
    "assessment_criteria",
    "created_at",
    "updated_at",
    "field_of_education",
    "official_title",
    "licence_class",
  ],
  delivery_locations: ["id", "identifier", "name", "suburb", "postcode", "state", "created_at", "updated_at"],
  employers: ["id", "name", "abn", "contact_name", "contact_email", "contact_phone", "address", "created_at", "updated_at"],
  classes: ["id", "course_id", "start_date", "end_date", "location_id", "trainer_id", "seats", "created_at", "updated_at"],
  class_sessions: ["id", "class_id", "session_date", "starts_at", "ends_at"],
  enrollments: [
    "id",
    "student_id",
    "course_id",
    "status",
    "progress_percentage",
    "enrollment_date",
    "completion_date",
    "updated_at",
    "latest_assessment_status",
    "has_certificate",
    "location_id",
    "planned_start_date",
    "planned_end_date",
    "class_id",
  ],
  attendance: ["session_id", "enrollment_id", "status", "marked_by", "marked_at"],
  certificates: [
    "id",
    "certificate_number",
    "verification_code",
    "student_id",
    "course_id",
    "enrollment_id",
    "tier_achieved",
    "issue_date",
    "issued_by",
    "created_at",
  ],
  assessments: [
    "id",
    "enrollment_id",
    "student_id",
    "course_id",
    "assessment_type",
    "status",
    "score",
    "max_score",
    "assessment_date",
    "feedback",
    "assessed_by",
    "created_at",
  ],
  events: ["id", "actor_id", "subject_user_id", "type", "entity_type", "entity_id", "message", "created_at"],
  outbox_messages: ["id", "key", "recipient_id", "template", "data", "state", "attempts", "next_attempt_at", "sent_at", "created_at"],
  invoices: [
    "id",
    "number",
    "seller_name",
    "seller_abn",
    "buyer_kind",
    "buyer_id",
    "buyer_name",
    "buyer_email",
    "buyer_city",
    "buyer_region",
    "buyer_postcode",
    "buyer_country",
    "source_kind",
    "source_id",
    "issue_date",
    "due_date",
    "subtotal_cents",
    "gst_cents",
    "total_cents",
    "paid_cents",
    "issued_by",
    "issued_at",
  ],
  invoice_lines: ["id", "invoice_id", "position", "course_id", "description", "quantity", "unit_price_cents", "gst_treatment", "amount_cents", "gst_cents"],
  payments: ["id", "invoice_id", "method", "reference", "received_on", "amount_cents", "recorded_by", "recorded_at"],
  audit_log: [
    "id",
    "at",
    "action",
    "actor_id",
    "actor_email",
    "subject_type",
    "subject_id",
    "subject_user_id",
    "client",
    "fields",
    "detail",
    "prev_hash",
    "hash",
  ],
} as const;
type Table = keyof typeof TABLES;

const SPECIAL = /[\\\t\n\r]/;
function field(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return "\\N";
  if (typeof v === "number") return String(v);
  return SPECIAL.test(v) ? v.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r") : v;
}

/** One table's COPY stream: rows gathered into ~256 KB writes, waiting when PostgreSQL is behind. */
class CopyStream {
  rows = 0;
  private chunk = "";
  private constructor(
    private readonly client: pg.Client,
    private readonly stream: NodeJS.WritableStream & { on: (e: string, f: (...a: unknown[]) => void) => unknown },
    private readonly done: Promise<void>,
  ) {}

  static async open(url: string, table: Table): Promise<CopyStream> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("set session_replication_role = replica");
    await client.query("set synchronous_commit = off");
    const stream = client.query(copyFrom(`copy "${table}" (${TABLES[table].map((c) => `"${c}"`).join(", ")}) from stdin`));
    const done = new Promise<void>((resolve, reject) => {
      stream.on("finish", () => resolve());
      stream.on("error", reject);
    });
    done.catch(() => {});
    return new CopyStream(client, stream as never, done);
  }

  async row(values: Array<string | number | null | undefined>): Promise<void> {
    let line = field(values[0]);
    for (let i = 1; i < values.length; i++) line += "\t" + field(values[i]);
    this.chunk += line + "\n";
    this.rows++;
    if (this.chunk.length >= 262_144) await this.flush();
  }

  private async flush() {
    const text = this.chunk;
    this.chunk = "";
    if (text && !this.stream.write(text)) await once(this.stream as never, "drain");
  }

  async end(): Promise<number> {
    await this.flush();
    this.stream.end();
    await this.done;
    await this.client.end();
    return this.rows;
  }
}

const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Seeds (or, with ifEmpty, reuses) the national volume into the PostgreSQL database at url. */
export async function seedNational(url: string, options: NationalOptions): Promise<NationalSummary> {
  const started = Date.now();
  const log = options.log ?? ((line: string) => console.log(line));
  const N = Math.floor(options.learners);
  if (!(N >= 100)) throw new Error("--learners must be 100 or more.");
  const db = openDatabase(url);
  try {
    await migrateToLatest(db);
    const users = Number(
      (
        await db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (users > 0 && options.ifEmpty) {
      log(`The database already has ${users} users; seed:large skipped.`);
      return { seconds: 0, rows: {}, skipped: true };
    }
    if (users > 0 && !options.force)
      throw new Error(`The database already has ${users} users; refusing to add a large data set. Use --force to wipe it first.`);
    if (users > 0) {
      // the schema dropped and migrated afresh: the rows migrations seed (counters, rules, the
      // audit head) come back, and no down migration has to cope with a full database
      await sql`drop schema public cascade`.execute(db);
      await sql`create schema public`.execute(db);
      await migrateToLatest(db);
    }
    const today = options.today ? Date.parse(`${options.today}T00:00:00Z`) : Math.floor(Date.now() / DAY) * DAY;
    if (Number.isNaN(today)) throw new Error("--today must be YYYY-MM-DD.");
    // the demo organisation, through the normal seed, dated as the bulk is
    await seedDemoData(db, new Date(today + 9 * 3600e3));
    const indexes = await dropSecondaryIndexes(db);
    const rows = await load(url, db, N, today, log);
    log(`Rows streamed (${((Date.now() - started) / 1000).toFixed(1)} s); building ${indexes.length} indexes.`);
    await rebuild(url, indexes);
    await credentialTrainers(db, new Date(today + 9 * 3600e3).toISOString());
    log(`Indexes built (${((Date.now() - started) / 1000).toFixed(1)} s); vacuum analyze.`);
    // a bulk load leaves the visibility map empty: vacuum too, so counts can use index-only scans
    await sql`vacuum analyze`.execute(db);
    const seconds = (Date.now() - started) / 1000;
    log(`National data set: ${N.toLocaleString("en-AU")} learners in ${seconds.toFixed(1)} s: ${JSON.stringify(rows)}`);
    return { seconds, rows };
  } finally {
    await db.destroy();
  }
}

/**
 * The national trainers hold a training credential and every course's unit (section 20's
 * matrix), as a provider's assessors would: without them the model refuses each result they
 * record (409), and the load run measures refusals instead of writes. Ids follow the trainer's.
 */
async function credentialTrainers(db: DB, at: string) {
  const recorder = sql`(select id from users where email = 'admin@example.com')`;
  const national = sql`u.role = 'trainer' and u.email like 'trainer.%@staff.example.com'`;
  await sql`insert into trainer_credentials (id, trainer_id, credential, issued_on, recorded_by, recorded_at)
    select md5('national-credential:' || u.id)::uuid::text, u.id, 'TAE40122', '2020-01-06', ${recorder}, ${at}
    from users u where ${national}`.execute(db);
  await sql`insert into trainer_units (id, trainer_id, unit_code, basis, recorded_by, recorded_at)
    select md5('national-unit:' || u.id || ':' || c.unit_code)::uuid::text, u.id, c.unit_code, 'held', ${recorder}, ${at}
    from users u cross join (select distinct unit_code from courses) c where ${national}
    on conflict (trainer_id, unit_code) do nothing`.execute(db);
}

interface IndexDef {
  name: string;
  def: string;
}

/** The loaded tables' indexes that back no constraint (those keep their index), dropped. */
async function dropSecondaryIndexes(db: DB): Promise<IndexDef[]> {
  const found = await sql<IndexDef>`
    select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i join pg_class c on c.oid = i.indrelid
    where c.relname = any(${Object.keys(TABLES)}) and c.relnamespace = current_schema()::regnamespace
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by 1`.execute(db);
  for (const index of found.rows) await sql.raw(`drop index ${index.name}`).execute(db);
  return found.rows;
}

/** The dropped indexes built again, two at a time (the machine's two cores). */
async function rebuild(url: string, indexes: IndexDef[]) {
  const queue = [...indexes];
  await Promise.all(
    [0, 1].map(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("set maintenance_work_mem = '512MB'");
      try {
        for (let index = queue.shift(); index; index = queue.shift()) await client.query(index.def);
      } finally {
        await client.end();
      }
    }),
  );
}

interface Person {
  id: string;
  email: string;
  name: string;
}

async function load(url: string, db: DB, N: number, today: number, log: (line: string) => void): Promise<Record<string, number>> {
  const random = rng(500_000);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const iso = (ms: number) => new Date(ms).toISOString();
  const at = (day: number) => today + day * DAY + Math.floor(random() * 9 * 3600e3) + 7 * 3600e3;

  // what the demo seed made that the bulk refers to
  const one = async (q: string) => (await sql.raw<Record<string, unknown>>(q).execute(db)).rows[0] ?? {};
  const demoTrainer = (await one("select id, email, full_name from users where email = 'trainer@example.com'")) as {
    id: string;
    email: string;
    full_name: string;
  };
  const seller = (await one("select seller_name, seller_abn, payment_terms_days from finance_settings where id = 1")) as {
    seller_name: string;
    seller_abn: string;
    payment_terms_days: number;
  };
  let studentNumber = Number((await one("select last_value from counters where name = 'student_number'")).last_value ?? 0);
  let invoiceNumber = Number((await one("select last_value from finance_sequences where series = 'invoice'")).last_value ?? 0);
  const certificateYears = new Map<number, number>(
    (await sql<{ year: number; last_value: number }>`select year, last_value from certificate_sequence`.execute(db)).rows.map((r) => [
      Number(r.year),
      Number(r.last_value),
    ]),
  );
  const head = (await one("select last_id, last_hash from audit_head where id = 1")) as { last_id: number; last_hash: string };
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const streams = {} as Record<Table, CopyStream>;
  for (const table of Object.keys(TABLES) as Table[]) streams[table] = await CopyStream.open(url, table);
  const rows = (table: Table) => streams[table];
  const startDay = -HISTORY_DAYS;

  // Staff: trainers (the demo trainer first among them) and administrators, every one signing in with the demo password.
  const trainers: Person[] = [{ id: demoTrainer.id, email: demoTrainer.email, name: demoTrainer.full_name }];
  const admins: Person[] = [];
  const staff = async (kind: number, n: number, role: "trainer" | "admin", into: Person[]) => {
    for (let i = 0; i < n; i++) {
      const name = `${pick(FIRST)} ${pick(LAST)}`;
      const person = { id: uuidOf(kind, i), email: `${role}.${i + 1}@staff.example.com`, name };
      into.push(person);
      const created = iso(at(startDay - 60));
      await rows("users").row([
        person.id,
        person.email,
        name,
        passwordHash,
        role,
        `02 4${String(Math.floor(random() * 1e7)).padStart(7, "0")}`,
        null,
        null,
        null,
        1,
        "approved",
        created,
        created,
        iso(at(-1)),
        0,
        ...Array(17).fill(null),
      ]);
    }
  };
  await staff(K.trainer, Math.max(4, Math.round(N / LEARNERS_PER_TRAINER)), "trainer", trainers);
  await staff(K.admin, 2 + Math.floor(N / 100_000), "admin", admins);

  // Courses: 60 units, every other one run in scheduled classes.
  const courses = Array.from({ length: COURSES }, (_, i) => {
    const [topic, code, foe] = TOPICS[i % TOPICS.length]!;
    const variant = Math.floor(i / TOPICS.length);
    const tier = TIERS[i % TIERS.length]!;
    const name = `${topic} (${code})${variant ? ` — ${["refresher", "site-based", "weekend intensive"][variant - 1] ?? `stream ${variant}`}` : ""}`;
    return {
      id: uuidOf(K.course, i),
      unitCode: `CPCHRW${String(3000 + i).padStart(4, "0")}`,
      name,
      tier,
      price: tier === "tier_1" ? 120000 : tier === "tier_2" ? 180000 : 250000,
      days: tier === "tier_1" ? 3 : tier === "tier_2" ? 4 : 5,
      foe,
      code,
      classes: i % 2 === 0,
    };
  });
  for (const [i, c] of courses.entries()) {
    const created = iso(at(startDay - 200 + i));
    await rows("courses").row([
      c.id,
      c.unitCode,
      c.name,
      `Nationally recognised high-risk work training in ${c.name.toLowerCase()}, with theory, supervised practice and a final assessment.`,
      c.tier,
      c.days * 8,
      c.price,
      random() < 0.92 ? 1 : 0,
      JSON.stringify(c.tier === "tier_1" ? [] : ["White Card (CPCWHS1001)"]),
      JSON.stringify(["Plan the work", "Select and inspect equipment", "Carry out the task safely", "Pack up"]),
      JSON.stringify(["Written assessment", "Practical demonstration", "Log book sign-off"]),
      created,
      created,
      c.foe,
      `Licence to ${c.name.toLowerCase()}`,
      c.code,
    ]);
  }

  const locations = PLACES.map(([suburb, postcode, state], i) => ({ id: uuidOf(K.location, i), suburb, postcode, state }));
  for (const [i, l] of locations.entries()) {
    const created = iso(at(startDay - 300));
    await rows("delivery_locations").row([
      l.id,
      `YARD${String(i + 1).padStart(2, "0")}`,
      `Training yard, ${l.suburb}`,
      l.suburb,
      l.postcode,
      l.state,
      created,
      created,
    ]);
  }

  const employers = Math.max(2, Math.round(N / LEARNERS_PER_EMPLOYER));
  for (let i = 0; i < employers; i++) {
    const place = pick(PLACES);
    const created = iso(at(startDay + Math.floor(random() * HISTORY_DAYS)));
    await rows("employers").row([
      uuidOf(K.employer, i),
      `${pick(LAST)} ${pick(["Civil", "Cranes", "Lifting", "Logistics", "Constructions", "Ports", "Steel"])} Pty Ltd ${i + 1}`,
      abn(random),
      `${pick(FIRST)} ${pick(LAST)}`,
      `accounts${i + 1}@employer${i + 1}.example`,
      `02 4${String(Math.floor(random() * 1e7)).padStart(7, "0")}`,
      `${1 + Math.floor(random() * 200)} ${pick(STREETS)}\n${place[0]} ${place[1]}`,
      created,
      created,
    ]);
  }

  // Classes: evenly spaced runs of each class-taught course from the history's start to AHEAD_DAYS ahead.
  const classCourses = courses.filter((c) => c.classes);
  const spanDays = HISTORY_DAYS + AHEAD_DAYS;
  const totalClasses = Math.max(classCourses.length, Math.round(((N / 1000) * CLASSES_PER_YEAR_PER_1000 * spanDays) / 365));
  const perCourse = Math.max(1, Math.floor(totalClasses / classCourses.length));
  const interval = spanDays / perCourse;
  const seatsTaken = new Uint8Array(classCourses.length * perCourse);
  let classNumber = 0;
  let sessionNumber = 0;
  const classOf = new Map<string, number>(classCourses.map((c, i) => [c.id, i]));
  const classStart = (ci: number, k: number) => startDay + Math.floor(k * interval) + (ci % 7);
  const classTrainer = (ci: number, k: number) => trainers[(ci * perCourse + k) % trainers.length]!;
  for (const [ci, c] of classCourses.entries()) {
    for (let k = 0; k < perCourse; k++) {
      const start = classStart(ci, k);
      const id = uuidOf(K.klass, ci * perCourse + k);
      const created = iso(at(start - 45));
      await rows("classes").row([
        id,
        c.id,
        ymd(today + start * DAY),
        ymd(today + (start + c.days - 1) * DAY),
        locations[(ci + k) % locations.length]!.id,
        classTrainer(ci, k).id,
        SEATS,
        created,
        created,
      ]);
      for (let d = 0; d < c.days; d++)
        await rows("class_sessions").row([uuidOf(K.session, (ci * perCourse + k) * 8 + d), id, ymd(today + (start + d) * DAY), "07:30", "15:30"]);
      classNumber++;
      sessionNumber += c.days;
    }
  }
  log(`${classNumber} classes, ${sessionNumber} sessions, ${employers} employers, ${trainers.length} trainers.`);

  // Learners, each with their enrolments and what follows from them.
  const enrollmentTarget = N * PER_LEARNER.enrollments;
  // certificates for ~95% of the completed (42% of enrolments), results on ~75% of the started (80%)
  const certificateChance = PER_LEARNER.certificates / PER_LEARNER.enrollments / 0.42;
  const resultChance = PER_LEARNER.assessments / PER_LEARNER.enrollments / 0.8;
  const counts = new Map<string, number>();
  let remaining = enrollmentTarget;
  let eventNumber = 0;
  let invoiceRow = 0;
  const students: Array<{ id: string; email: string }> = [];
  for (let s = 0; s < N; s++) {
    const first = pick(FIRST);
    const last = pick(LAST);
    const id = uuidOf(K.student, s);
    const email = `${first}.${last}.${s}@students.example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, "");
    const name = `${first} ${last}`;
    students.push({ id, email });
    const joinedDay = -(5 + Math.floor(random() * HISTORY_DAYS));
    const place = pick(PLACES);
    const described = random() < 0.9;
    const left = N - s;
    const n = Math.max(1, Math.min(MAX_ENROLLMENTS, remaining - (left - 1), Math.round(remaining / left + (random() - 0.5) * 6)));
    remaining -= n;
    const chosen = new Set<number>();
    while (chosen.size < n) chosen.add(Math.floor(random() * COURSES));
    let current = 0;
    let j = 0;
    for (const courseIndex of chosen) {
      const course = courses[courseIndex]!;
      const enrollmentId = uuidOf(K.enrollment, s * 10 + j);
      const enrolledDay = Math.min(-1, joinedDay + Math.floor(random() * -joinedDay));
      let status: EnrollmentStatus;
      const roll = random();
      status = roll < 0.42 ? "completed" : roll < 0.72 ? "in_progress" : roll < 0.92 ? "enrolled" : "withdrawn";
      // a seat in the first class starting a week or more after enrolling, if it has one left
      let classId: string | null = null;
      let plannedStart = enrolledDay + 7;
      let plannedEnd = plannedStart + course.days * 7;
      let classTrainerPerson: Person | null = null;
      const ci = classOf.get(course.id);
      if (ci !== undefined) {
        const k = Math.max(0, Math.ceil((enrolledDay + 7 - startDay - (ci % 7)) / interval));
        if (k < perCourse && seatsTaken[ci * perCourse + k]! < SEATS) {
          seatsTaken[ci * perCourse + k]!++;
          classId = uuidOf(K.klass, ci * perCourse + k);
          plannedStart = classStart(ci, k);
          plannedEnd = plannedStart + course.days - 1;
          classTrainerPerson = classTrainer(ci, k);
          if (plannedStart >= 0 && status !== "withdrawn") status = "enrolled";
          // the roll of every session already held
          for (let d = 0; d < course.days && plannedStart + d < 0; d++) {
            const r = random();
            await rows("attendance").row([
              uuidOf(K.session, (ci * perCourse + k) * 8 + d),
              enrollmentId,
              r < 0.9 ? "present" : r < 0.97 ? "absent" : "late",
              classTrainerPerson.id,
              iso(at(plannedStart + d)),
            ]);
          }
        }
      }
      const trainer = classTrainerPerson ?? trainers[(s + j) % trainers.length]!;
      const completedDay = status === "completed" ? Math.min(-1, Math.max(plannedEnd, enrolledDay + 14 + Math.floor(random() * 40))) : null;
      if (status === "enrolled" || status === "in_progress") current++;
      counts.set(`${course.id}\t${status}`, (counts.get(`${course.id}\t${status}`) ?? 0) + 1);

      // results: the latest decides latest_assessment_status, as the trigger would
      let latest: { day: string; created: string; status: AssessmentStatus } | null = null;
      if (status !== "enrolled" && random() < resultChance) {
        const r = random();
        const aStatus: AssessmentStatus =
          status === "completed" ? "passed" : r < 0.55 ? "passed" : r < 0.75 ? "failed" : r < 0.92 ? "in_progress" : "resubmission";
        const score = aStatus === "in_progress" ? null : aStatus === "failed" ? 30 + Math.floor(random() * 39) : 70 + Math.floor(random() * 31);
        const day = completedDay ?? Math.min(-1, enrolledDay + 7 + Math.floor(random() * Math.max(1, -enrolledDay - 7)));
        const when = iso(at(day));
        await rows("assessments").row([
          uuidOf(K.assessment, s * 10 + j),
          enrollmentId,
          id,
          course.id,
          pick(ASSESSMENT_TYPES),
          aStatus,
          score,
          score === null ? null : 100,
          when,
          pick(FEEDBACK),
          trainer.id,
          when,
        ]);
        latest = { day: when.slice(0, 10), created: when, status: aStatus };
      }

      let certified = 0;
      if (completedDay !== null && random() < certificateChance) {
        certified = 1;
        const issued = at(Math.min(-1, completedDay + 2));
        const year = new Date(issued).getUTCFullYear();
        const value = (certificateYears.get(year) ?? 0) + 1;
        certificateYears.set(year, value);
        const number = `SCR-${year}-${String(value).padStart(5, "0")}`;
        const certificateId = uuidOf(K.certificate, s * 10 + j);
        let code = "";
        for (let b = 0; b < 16; b++) code += CODE_ALPHABET[Math.floor(random() * 32)];
        await rows("certificates").row([certificateId, number, code, id, course.id, enrollmentId, course.tier, iso(issued), trainer.id, iso(issued)]);
        await rows("events").row([
          uuidOf(K.event, eventNumber++),
          trainer.id,
          id,
          "certificate.issued",
          "certificate",
          certificateId,
          `Certificate ${number} issued`,
          iso(issued),
        ]);
        // the learner's mail for it, delivered
        await rows("outbox_messages").row([
          uuidOf(K.mail, s * 10 + j),
          `certificate-issued:${certificateId}`,
          id,
          "certificate-issued",
          JSON.stringify({ certificateNumber: number, unit: `${course.unitCode} ${course.name}`, verificationCode: code }),
          "sent",
          1,
          iso(issued),
          iso(issued + 4000),
          iso(issued),
        ]);
      }

      const progress =
        status === "completed" ? 100 : status === "enrolled" ? 0 : status === "withdrawn" ? Math.floor(random() * 50) : 5 + Math.floor(random() * 90);
      const enrolledAt = iso(at(enrolledDay));
      await rows("enrollments").row([
        enrollmentId,
        id,
        course.id,
        status,
        progress,
        enrolledAt,
        completedDay === null ? null : iso(at(completedDay)),
        completedDay === null ? enrolledAt : iso(at(completedDay)),
        latest?.status ?? null,
        certified,
        locations[(courseIndex + s) % locations.length]!.id,
        ymd(today + plannedStart * DAY),
        ymd(today + plannedEnd * DAY),
        classId,
      ]);
      await rows("events").row([uuidOf(K.event, eventNumber++), id, id, "enrollment.created", "enrollment", enrollmentId, "Enrolled in a course", enrolledAt]);

      // an invoice for every enrolment of the last year, paid in full, in part or not yet
      if (enrolledDay >= -365) {
        const invoiceId = uuidOf(K.invoice, invoiceRow);
        const issueDate = ymd(today + enrolledDay * DAY);
        const dueDate = ymd(today + (enrolledDay + Number(seller.payment_terms_days ?? 14)) * DAY);
        const r = random();
        const paid = status === "withdrawn" ? 0 : r < 0.7 ? course.price : r < 0.8 ? course.price / 2 : 0;
        await rows("invoices").row([
          invoiceId,
          `INV-${String(++invoiceNumber).padStart(6, "0")}`,
          seller.seller_name,
          seller.seller_abn,
          "learner",
          id,
          name,
          email,
          place[0],
          place[2],
          place[1],
          "Australia",
          "enrollment",
          enrollmentId,
          issueDate,
          dueDate,
          course.price,
          0,
          course.price,
          paid,
          null,
          enrolledAt,
        ]);
        await rows("invoice_lines").row([
          uuidOf(K.line, invoiceRow),
          invoiceId,
          1,
          course.id,
          `${course.unitCode} ${course.name}`,
          1,
          course.price,
          "gst_free",
          course.price,
          0,
        ]);
        if (paid) await rows("payments").row([uuidOf(K.payment, invoiceRow), invoiceId, "card", "Card at enrolment", issueDate, paid, id, enrolledAt]);
        invoiceRow++;
      }
      j++;
    }

    const joined = iso(at(joinedDay));
    const usi = described && random() < 0.85 ? usiFromBody(usiBody(s, random)) : null;
    await rows("users").row([
      id,
      email,
      name,
      passwordHash,
      "student",
      random() < 0.85 ? `04${String(Math.floor(random() * 1e8)).padStart(8, "0")}` : null,
      described ? `${1 + Math.floor(random() * 200)} ${pick(STREETS)}, ${place[0]} ${place[1]}` : null,
      described
        ? `${1960 + Math.floor(random() * 45)}-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`
        : null,
      random() < 0.3 ? `HRW-NSW-${Math.floor(1e6 + random() * 9e6)}` : null,
      random() < 0.97 ? 1 : 0,
      "approved",
      joined,
      joined,
      random() < 0.6 ? iso(at(Math.floor(joinedDay * random()))) : null,
      current,
      usi,
      `S${String(++studentNumber).padStart(6, "0")}`,
      ...(described
        ? [
            pick(["M", "F", "F", "M", "M", "X"]),
            String(1 + Math.floor(random() * 200)),
            pick(STREETS),
            place[0],
            place[1],
            place[2],
            random() < 0.8 ? "1101" : pick(["2100", "6101", "5105", "7103"]),
            random() < 0.85 ? "1201" : pick(["2401", "5201", "7101", "9702"]),
            pick(["4", "4", "4", "4", "1", "2"]),
            pick(["01", "02", "03", "04", "05"]),
            pick(["12", "11", "10", "09"]),
            "N",
            "N",
            "N",
            "A",
          ]
        : Array(15).fill(null)),
    ]);
    if (s % 50_000 === 49_999) log(`${(s + 1).toLocaleString("en-AU")} learners`);
  }

  // The audit trail: the chain continues from the demo's head, entries in time order.
  const auditTotal = N * PER_LEARNER.audit;
  let prev = head.last_hash ?? GENESIS_HASH;
  let auditId = Number(head.last_id ?? 0);
  const from = today + startDay * DAY;
  const step = (today - 3600e3 - from) / auditTotal;
  for (let i = 0; i < auditTotal; i++) {
    const when = iso(from + Math.floor(i * step));
    const r = random();
    const si = Math.floor(random() * N);
    const student = students[si]!;
    const trainer = trainers[Math.floor(random() * trainers.length)]!;
    const admin = admins[Math.floor(random() * admins.length)]!;
    const enrollment = uuidOf(K.enrollment, si * 10);
    const client = `203.0.113.${Math.floor(random() * 254) + 1}`;
    let entry: Omit<ChainedAuditRow, "id" | "at" | "prev_hash">;
    if (r < 0.3)
      entry = {
        action: "sign_in.succeeded",
        actor_id: student.id,
        actor_email: student.email,
        subject_type: "user",
        subject_id: student.id,
        subject_user_id: student.id,
        client,
        fields: null,
        detail: null,
      };
    else if (r < 0.45)
      entry = {
        action: "sign_in.succeeded",
        actor_id: trainer.id,
        actor_email: trainer.email,
        subject_type: "user",
        subject_id: trainer.id,
        subject_user_id: trainer.id,
        client,
        fields: null,
        detail: null,
      };
    else if (r < 0.65)
      entry = {
        action: "assessment.result_recorded",
        actor_id: trainer.id,
        actor_email: trainer.email,
        subject_type: "enrollment",
        subject_id: enrollment,
        subject_user_id: student.id,
        client,
        fields: "score,status",
        detail: null,
      };
    else if (r < 0.8)
      entry = {
        action: "attendance.marked",
        actor_id: trainer.id,
        actor_email: trainer.email,
        subject_type: "enrollment",
        subject_id: enrollment,
        subject_user_id: student.id,
        client,
        fields: "status",
        detail: null,
      };
    else if (r < 0.9)
      entry = {
        action: "student.edited",
        actor_id: admin.id,
        actor_email: admin.email,
        subject_type: "user",
        subject_id: student.id,
        subject_user_id: student.id,
        client,
        fields: "address,phone",
        detail: null,
      };
    else if (r < 0.96)
      entry = {
        action: "students.listed",
        actor_id: admin.id,
        actor_email: admin.email,
        subject_type: null,
        subject_id: null,
        subject_user_id: null,
        client,
        fields: null,
        detail: null,
      };
    else
      entry = {
        action: "usi.viewed",
        actor_id: admin.id,
        actor_email: admin.email,
        subject_type: "user",
        subject_id: student.id,
        subject_user_id: student.id,
        client,
        fields: null,
        detail: null,
      };
    const row: ChainedAuditRow = { id: ++auditId, at: when, prev_hash: prev, ...entry };
    const hash = chainHash(row);
    await rows("audit_log").row([
      row.id,
      row.at,
      row.action,
      row.actor_id,
      row.actor_email,
      row.subject_type,
      row.subject_id,
      row.subject_user_id,
      row.client,
      row.fields,
      row.detail,
      row.prev_hash,
      hash,
    ]);
    prev = hash;
  }

  const written: Record<string, number> = {};
  await Promise.all((Object.keys(TABLES) as Table[]).map(async (table) => (written[table] = await streams[table].end())));

  // What the triggers would have kept, and the counters the next real row continues from.
  await db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    await sql`set local session_replication_role = replica`.execute(conn);
    for (const [key, n] of counts) {
      const [courseId, status] = key.split("\t");
      await sql`insert into enrollment_counts as c (course_id, status, n) values (${courseId}, ${status}, ${n}) on conflict (course_id, status) do update set n = c.n + excluded.n`.execute(
        conn,
      );
    }
    await sql`update audit_head set last_id = ${auditId}, last_hash = ${prev} where id = 1`.execute(conn);
    // accounts per role: counted once over the loaded users (the demo's among them)
    await sql`delete from user_counts`.execute(conn);
    await sql`insert into user_counts (role, is_active, n) select role, is_active, count(*) from users group by role, is_active`.execute(conn);
    await sql`update studying_count set n = (select count(*) from users where role = 'student' and is_active = 1 and current_enrollments > 0)`.execute(conn);
    await recountEnrollmentHours(conn);
    await recountInvoiceSums(conn);
    await recountAwaitingAssessor(conn);
    await recountCertificates(conn);
    await sql`delete from assessment_counts`.execute(conn);
    await sql`insert into assessment_counts (status, n) select status, count(*) from assessments group by status`.execute(conn);
    await sql`update counters set last_value = ${studentNumber} where name = 'student_number'`.execute(conn);
    await sql`update finance_sequences set last_value = ${invoiceNumber} where series = 'invoice'`.execute(conn);
    for (const [year, value] of certificateYears) {
      await sql`insert into certificate_sequence (year, last_value) values (${year}, ${value}) on conflict (year) do update set last_value = excluded.last_value`.execute(
        conn,
      );
    }
    // caches keyed on these versions must not serve what they read before the load
    await sql`update change_counters set version = version + 1`.execute(conn);
    await sql`commit`.execute(conn);
  });
  // identity columns continue after the copied ids
  const identities = await sql<{ t: string; s: string }>`
    select c.table_name as t, pg_get_serial_sequence(quote_ident(c.table_name), c.column_name) as s
    from information_schema.columns c where c.table_schema = current_schema() and c.column_name = 'id' and (c.is_identity = 'YES' or c.column_default like 'nextval%')`.execute(
    db,
  );
  for (const { t, s } of identities.rows) {
    if (s) await sql.raw(`select setval('${s}', coalesce((select max(id) from "${t}"), 0) + 1, false)`).execute(db);
  }
  return written;
}

/** A nine-character USI body unique to learner s: s in base 32, then random characters. */
function usiBody(s: number, random: () => number): string {
  let body = "";
  for (let v = s, i = 0; i < 4; i++, v = Math.floor(v / 32)) body += USI_ALPHABET[v % 32];
  while (body.length < 9) body += USI_ALPHABET[Math.floor(random() * 32)];
  return body;
}

/** An ABN whose check digits hold (the modulus-89 rule). */
function abn(random: () => number): string {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  for (;;) {
    const digits = [1 + Math.floor(random() * 9), ...Array.from({ length: 10 }, () => Math.floor(random() * 10))];
    const total = digits.reduce((sum, d, i) => sum + (i === 0 ? d - 1 : d) * weights[i]!, 0);
    if (total % 89 === 0) return digits.join("");
  }
}
