/**
 * npm run seed:large — fills a database with a large organisation for benchmarks:
 * 20,000 students, 60 courses, 100,000 enrollments, 30,000 certificates and 50,000
 * assessments, plus the demo organisation (so the three demo logins work).
 *
 * DATABASE_URL (default file:./data/large.db). Refuses a database that already has users
 * unless --force (which then wipes it first). Deterministic: the same data on every machine.
 * DATABASE_URL=postgres://… loads a national provider's volume in proportion instead
 * (scripts/seed-national.ts, COPY streams): `--learners N` (default 20,000; CONTRACT 23's
 * reference volume is 500,000), `--today YYYY-MM-DD` to pin the dates; there --if-empty skips a
 * database that already has users (the bench's "seed on first run").
 */
import crypto from "node:crypto";
import fs from "node:fs";
import { hashPassword } from "../app/security/password.server";
import { newVerificationCode } from "../app/models/certificates/certificate-number.server";
import { openDatabase, sqlitePathFromUrl } from "../db/connection";
import { isPostgresUrl } from "../db/dialect";
import { migrateToLatest } from "../db/migrate";
import { seedDemoData } from "../app/demo/seed.server";
import SQLite from "../db/sqlite-driver";
import { DEMO_PASSWORD } from "../app/demo/data";
import { TIERS, type EnrollmentStatus, type Tier } from "../db/schema";
// the same learners' names and streets as the national volume
import { FIRST, LAST, rng, seedNational, STREETS } from "./seed-national";

const TARGET = { students: 20_000, courses: 60, enrollments: 100_000, certificates: 30_000, assessments: 50_000 };
const DAY = 864e5;
const BATCH = 5_000;

const SUBURBS = [
  "Newcastle NSW 2300",
  "Parramatta NSW 2150",
  "Wollongong NSW 2500",
  "Blacktown NSW 2148",
  "Port Kembla NSW 2505",
  "Botany NSW 2019",
  "Penrith NSW 2750",
  "Gosford NSW 2250",
  "Liverpool NSW 2170",
  "Geelong VIC 3220",
  "Gladstone QLD 4680",
  "Port Hedland WA 6721",
];
const TOPICS = [
  ["Dogging", "DG"],
  ["Basic rigging", "RB"],
  ["Intermediate rigging", "RI"],
  ["Advanced rigging", "RA"],
  ["Non-slewing mobile crane", "CN"],
  ["Slewing mobile crane up to 20 t", "C2"],
  ["Slewing mobile crane up to 60 t", "C6"],
  ["Slewing mobile crane up to 100 t", "C1"],
  ["Tower crane", "CT"],
  ["Self-erecting tower crane", "CS"],
  ["Bridge and gantry crane", "CB"],
  ["Vehicle loading crane", "CV"],
  ["Portal boom crane", "CP"],
  ["Derrick crane", "CD"],
  ["Materials hoist", "HM"],
  ["Personnel and materials hoist", "HP"],
  ["Boom-type elevating work platform", "WP"],
  ["Forklift truck", "LF"],
  ["Order-picking forklift", "LO"],
  ["Basic scaffolding", "SB"],
];
const ASSESSMENT_TYPES = ["Written", "Practical", "Log book review", "Oral questioning"];
const FEEDBACK = [
  "Confident hand signals; good load control.",
  "Sound understanding of working load limits.",
  "Needs more care with pre-use inspection checklist.",
  "Excellent communication with the crane operator.",
  "Load calculation correct; sling angle chart used well.",
  "Resit booked: tag line use was inconsistent.",
];

/** `--name value` from the command line, or undefined. */
function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main() {
  const args = new Set(process.argv.slice(2));
  const url = process.env.DATABASE_URL || "file:./data/large.db";
  const learners = option("--learners");
  if (isPostgresUrl(url)) {
    // the national volume's COPY load (scripts/seed-national.ts), at 20,000 learners unless told
    await seedNational(url, {
      learners: learners === undefined ? TARGET.students : Number(learners),
      force: args.has("--force"),
      ifEmpty: args.has("--if-empty"),
      today: option("--today"),
    });
    return;
  }
  if (learners !== undefined) throw new Error("--learners applies to PostgreSQL (DATABASE_URL=postgres://…); SQLite keeps its 20,000 learners.");
  const file = sqlitePathFromUrl(url);
  if (file === ":memory:") throw new Error("seed:large needs a file database (DATABASE_URL=file:PATH).");
  await seedSqlite(file, args.has("--force"));
}

async function seedSqlite(file: string, force: boolean) {
  const started = Date.now();

  if (fs.existsSync(file)) {
    const probe = new SQLite(file, { readonly: true, fileMustExist: true });
    let users = 0;
    try {
      const hasUsers = probe.prepare("select 1 from sqlite_master where type='table' and name='users'").get();
      if (hasUsers) users = (probe.prepare("select count(*) as n from users").get() as { n: number }).n;
    } finally {
      probe.close();
    }
    if (users > 0 && !force) {
      throw new Error(`${file} already has ${users} users; refusing to add a large data set. Use --force to wipe it first.`);
    }
    if (users > 0 || force) {
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    }
  }

  // 1. Schema and the demo organisation (the demo logins, through the normal seed).
  const kdb = openDatabase(`file:${file}`);
  try {
    await migrateToLatest(kdb);
    await seedDemoData(kdb);
  } finally {
    await kdb.destroy();
  }

  // 2. The bulk of the organisation, straight through better-sqlite3 in big transactions.
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  db.pragma("foreign_keys = ON");
  const random = rng(11_2026);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const now = Date.now();
  const iso = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();

  const count = (table: string) => (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  const trainerId = (db.prepare("select id from users where email = 'trainer@example.com'").get() as { id: string }).id;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // Courses
  const existingCourses = db.prepare("select id, tier from courses").all() as Array<{ id: string; tier: Tier }>;
  const insertCourse = db.prepare(
    `insert into courses (id, unit_code, name, description, tier, duration_hours, price_cents, is_active,
       prerequisites, learning_outcomes, assessment_criteria, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const newCourses: Array<{ id: string; tier: Tier }> = [];
  db.transaction(() => {
    for (let i = existingCourses.length; i < TARGET.courses; i++) {
      const [topic, code] = TOPICS[i % TOPICS.length]!;
      const variant = Math.floor(i / TOPICS.length);
      const tier = TIERS[i % TIERS.length]!;
      const id = crypto.randomUUID();
      const hours = tier === "tier_1" ? 40 : tier === "tier_2" ? 60 : 80;
      insertCourse.run(
        id,
        `CPCHRW${String(3000 + i).padStart(4, "0")}`,
        `${topic} (${code})${variant ? ` — ${["refresher", "site-based", "weekend intensive"][variant - 1] ?? `stream ${variant}`}` : ""}`,
        `Nationally recognised high-risk work training in ${topic.toLowerCase()}, with theory, supervised practice and a final assessment.`,
        tier,
        hours,
        tier === "tier_1" ? 120000 : tier === "tier_2" ? 180000 : 250000,
        random() < 0.9 ? 1 : 0,
        JSON.stringify(tier === "tier_1" ? [] : ["White Card (CPCWHS1001)"]),
        JSON.stringify(["Plan the work", "Select and inspect equipment", "Carry out the task safely", "Pack up"]),
        JSON.stringify(["Written assessment", "Practical demonstration", "Log book sign-off"]),
        iso(900 - i),
        iso(900 - i),
      );
      newCourses.push({ id, tier });
    }
  })();
  const courses = [...existingCourses, ...newCourses];

  // Students
  const insertUser = db.prepare(
    `insert into users (id, email, full_name, password_hash, role, phone, address, date_of_birth, emergency_contact,
       license_number, is_active, approval_status, created_at, updated_at, last_login)
     values (?, ?, ?, ?, 'student', ?, ?, ?, ?, ?, ?, 'approved', ?, ?, ?)`,
  );
  const toAdd = TARGET.students - count("users where role = 'student'");
  const studentIds: string[] = [];
  for (let start = 0; start < toAdd; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(toAdd, start + BATCH); i++) {
        const first = pick(FIRST);
        const last = pick(LAST);
        const id = crypto.randomUUID();
        const joined = 5 + Math.floor(random() * 1800);
        const created = iso(joined);
        insertUser.run(
          id,
          `${first}.${last}.${i}@students.example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, ""),
          `${first} ${last}`,
          passwordHash,
          random() < 0.8 ? `04${String(Math.floor(random() * 1e8)).padStart(8, "0")}` : null,
          random() < 0.7 ? `${1 + Math.floor(random() * 200)} ${pick(STREETS)}, ${pick(SUBURBS)}` : null,
          random() < 0.7
            ? `${1960 + Math.floor(random() * 45)}-${String(1 + Math.floor(random() * 12)).padStart(2, "0")}-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`
            : null,
          null,
          random() < 0.3 ? `HRW-NSW-${Math.floor(1e6 + random() * 9e6)}` : null,
          random() < 0.95 ? 1 : 0,
          created,
          created,
          random() < 0.6 ? iso(Math.floor(random() * joined)) : null,
        );
        studentIds.push(id);
      }
    })();
  }

  // Enrollments (+ the enrolment event), distinct courses per student
  const insertEnrollment = db.prepare(
    `insert into enrollments (id, student_id, course_id, status, progress_percentage, enrollment_date, completion_date, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEvent = db.prepare(
    `insert into events (id, actor_id, subject_user_id, type, entity_type, entity_id, message, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const enrollmentsToAdd = TARGET.enrollments - count("enrollments");
  const certificatesToAdd = TARGET.certificates - count("certificates");
  type Enr = {
    id: string;
    student: string;
    course: { id: string; tier: Tier };
    status: EnrollmentStatus;
    enrolledDaysAgo: number;
    completedDaysAgo: number | null;
  };
  const enrollments: Enr[] = [];
  const perStudent = enrollmentsToAdd / studentIds.length;
  let remaining = enrollmentsToAdd;
  for (let s = 0; s < studentIds.length && remaining > 0; s++) {
    const left = studentIds.length - s;
    const n = Math.min(remaining, Math.max(1, Math.round(remaining / left + (random() - 0.5) * 2 * Math.min(3, perStudent - 1))));
    const chosen = new Set<number>();
    while (chosen.size < Math.min(n, courses.length)) chosen.add(Math.floor(random() * courses.length));
    for (const c of chosen) {
      const roll = random();
      // ~42% completed so 30,000 certificates fit among the completed ones
      const status: EnrollmentStatus = roll < 0.42 ? "completed" : roll < 0.72 ? "in_progress" : roll < 0.92 ? "enrolled" : "withdrawn";
      const enrolledDaysAgo = 1 + Math.floor(random() * 1400);
      const completedDaysAgo = status === "completed" ? Math.max(0, enrolledDaysAgo - 14 - Math.floor(random() * 40)) : null;
      enrollments.push({ id: crypto.randomUUID(), student: studentIds[s]!, course: courses[c]!, status, enrolledDaysAgo, completedDaysAgo });
    }
    remaining -= chosen.size;
  }
  for (let start = 0; start < enrollments.length; start += BATCH) {
    db.transaction(() => {
      for (const e of enrollments.slice(start, start + BATCH)) {
        const progress =
          e.status === "completed" ? 100 : e.status === "enrolled" ? 0 : e.status === "withdrawn" ? Math.floor(random() * 50) : 5 + Math.floor(random() * 90);
        insertEnrollment.run(
          e.id,
          e.student,
          e.course.id,
          e.status,
          progress,
          iso(e.enrolledDaysAgo),
          e.completedDaysAgo === null ? null : iso(e.completedDaysAgo),
          iso(e.completedDaysAgo ?? e.enrolledDaysAgo),
        );
        insertEvent.run(crypto.randomUUID(), e.student, e.student, "enrollment.created", "enrollment", e.id, "Enrolled in a course", iso(e.enrolledDaysAgo));
      }
    })();
  }

  // Certificates for completed enrollments, numbered SCR-YYYY-NNNNN per year in issue order
  const completed = enrollments.filter((e) => e.completedDaysAgo !== null);
  if (completed.length < certificatesToAdd) throw new Error(`Only ${completed.length} completed enrollments for ${certificatesToAdd} certificates`);
  const certified = completed.slice(0, certificatesToAdd).map((e) => ({ e, issued: new Date(now - Math.max(0, e.completedDaysAgo! - 2) * DAY) }));
  certified.sort((a, b) => a.issued.getTime() - b.issued.getTime());
  const sequence = new Map<number, number>(
    (db.prepare("select year, last_value from certificate_sequence").all() as Array<{ year: number; last_value: number }>).map((r) => [r.year, r.last_value]),
  );
  const insertCertificate = db.prepare(
    `insert into certificates (id, certificate_number, verification_code, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertSequence = db.prepare(
    "insert into certificate_sequence (year, last_value) values (?, ?) on conflict (year) do update set last_value = excluded.last_value",
  );
  for (let start = 0; start < certified.length; start += BATCH) {
    db.transaction(() => {
      for (const { e, issued } of certified.slice(start, start + BATCH)) {
        const year = issued.getUTCFullYear();
        const value = (sequence.get(year) ?? 0) + 1;
        if (value > 99_999) throw new Error(`More than 99,999 certificates in ${year}`);
        sequence.set(year, value);
        const number = `SCR-${year}-${String(value).padStart(5, "0")}`;
        const id = crypto.randomUUID();
        insertCertificate.run(
          id,
          number,
          newVerificationCode(),
          e.student,
          e.course.id,
          e.id,
          e.course.tier,
          issued.toISOString(),
          trainerId,
          issued.toISOString(),
        );
        insertEvent.run(
          crypto.randomUUID(),
          trainerId,
          e.student,
          "certificate.issued",
          "certificate",
          id,
          `Certificate ${number} issued`,
          issued.toISOString(),
        );
      }
      for (const [year, value] of sequence) upsertSequence.run(year, value);
    })();
  }

  // Assessments on started (not merely enrolled) enrollments
  const assessable = enrollments.filter((e) => e.status !== "enrolled");
  const assessmentsToAdd = TARGET.assessments - count("assessments");
  const insertAssessment = db.prepare(
    `insert into assessments (id, enrollment_id, student_id, course_id, assessment_type, status, score, max_score,
       assessment_date, feedback, assessed_by, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let start = 0; start < assessmentsToAdd; start += BATCH) {
    db.transaction(() => {
      for (let i = start; i < Math.min(assessmentsToAdd, start + BATCH); i++) {
        const e = assessable[i % assessable.length]!;
        const roll = random();
        const status = e.status === "completed" ? "passed" : roll < 0.55 ? "passed" : roll < 0.75 ? "failed" : roll < 0.92 ? "in_progress" : "resubmission";
        const score = status === "in_progress" ? null : status === "failed" ? 30 + Math.floor(random() * 39) : 70 + Math.floor(random() * 31);
        const daysAgo = Math.max(0, (e.completedDaysAgo ?? 0) + Math.floor(random() * Math.max(1, e.enrolledDaysAgo - (e.completedDaysAgo ?? 0))));
        const at = iso(daysAgo);
        insertAssessment.run(
          crypto.randomUUID(),
          e.id,
          e.student,
          e.course.id,
          pick(ASSESSMENT_TYPES),
          status,
          score,
          score === null ? null : 100,
          at,
          pick(FEEDBACK),
          trainerId,
          at,
        );
      }
    })();
  }

  db.pragma("synchronous = FULL");
  const summary = {
    students: count("users where role = 'student'"),
    courses: count("courses"),
    enrollments: count("enrollments"),
    certificates: count("certificates"),
    assessments: count("assessments"),
    events: count("events"),
  };
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  console.log(`Large data set in ${file} (${((Date.now() - started) / 1000).toFixed(1)} s):`, summary);
  console.log(`Sign in with the demo logins (password ${DEMO_PASSWORD}).`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
