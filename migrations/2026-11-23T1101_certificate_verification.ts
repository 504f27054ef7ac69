import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Certificates that anyone can verify, and that can be revoked or reissued without ever being
 * deleted:
 * - verification_code: 16 characters from a 32-character alphabet (80 random bits), printed
 *   on the document with its /verify URL; every existing certificate gets one here;
 * - revoked_at / revoked_by / revocation_reason: an administrator's revocation;
 * - replaces_id on a reissued certificate, replaced_at on the one it replaces.
 *
 * A reissue is a second certificate for the same enrolment, so UNIQUE(enrollment_id) becomes
 * "one current certificate per enrolment" (a partial unique index over rows not replaced).
 * SQLite cannot drop a column's UNIQUE, so the table is rebuilt (SQLite's documented
 * procedure: foreign keys off, copy, swap, recreate indexes and triggers, check, keys on).
 */

const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function verificationCode(): string {
  let code = "";
  for (const byte of crypto.randomBytes(16)) code += CODE_ALPHABET[byte & 31];
  return code;
}

const HAS_CERTIFICATE = (enrollmentId: string) =>
  `exists (select 1 from certificates c where c.enrollment_id = ${enrollmentId})`;

/** The review-state triggers of 2026-11-22T1800, recreated with the table. */
const TRIGGERS: Record<string, string> = {
  certificates_flag_ai: `after insert on certificates begin
    update enrollments set has_certificate = 1 where id = new.enrollment_id;
  end`,
  certificates_flag_au: `after update of enrollment_id on certificates begin
    update enrollments set has_certificate = ${HAS_CERTIFICATE("old.enrollment_id")} where id = old.enrollment_id;
    update enrollments set has_certificate = 1 where id = new.enrollment_id;
  end`,
  certificates_flag_ad: `after delete on certificates begin
    update enrollments set has_certificate = ${HAS_CERTIFICATE("old.enrollment_id")} where id = old.enrollment_id;
  end`,
};

async function rebuild(db: Kysely<any>, create: string, copy: string, indexes: string[]): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      await sql.raw(create).execute(db);
      await sql.raw(copy).execute(db);
      await sql`drop table certificates`.execute(db);
      await sql`alter table certificates_new rename to certificates`.execute(db);
      for (const index of indexes) await sql.raw(index).execute(db);
      for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`foreign key check failed after rebuilding certificates: ${JSON.stringify(broken.rows[0])}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

const COMMON_INDEXES = [
  `create index certificates_student_issue_idx on certificates (student_id, issue_date)`,
  `create index certificates_issue_idx on certificates (issue_date)`,
];

/** PostgreSQL drops a constraint in place; the columns are added and the codes filled in. */
async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table certificates
    add column verification_code text,
    add column revoked_at text,
    add column revoked_by text references users (id) on delete set null,
    add column revocation_reason text,
    add column replaces_id text unique references certificates (id) on delete restrict,
    add column replaced_at text,
    add constraint certificates_revocation_check check ((revoked_at is null) = (revocation_reason is null))`.execute(db);
  await fillCodes(db);
  await sql`alter table certificates alter column verification_code set not null, add constraint certificates_verification_code_key unique (verification_code)`.execute(db);
  await sql`alter table certificates drop constraint if exists certificates_enrollment_id_key`.execute(db);
  await sql`create unique index certificates_current_enrollment on certificates (enrollment_id) where replaced_at is null`.execute(db);
}

async function fillCodes(db: Kysely<any>): Promise<void> {
  const rows = await sql<{ id: string }>`select id from certificates where verification_code is null or verification_code like 'pending:%'`.execute(db);
  for (const row of rows.rows) {
    await sql`update certificates set verification_code = ${verificationCode()} where id = ${row.id}`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") return upPostgres(db);
  await rebuild(
    db,
    `create table certificates_new (
      id text primary key,
      certificate_number text not null unique,
      student_id text not null references users (id) on delete cascade,
      course_id text not null references courses (id) on delete restrict,
      enrollment_id text not null references enrollments (id) on delete cascade,
      tier_achieved text not null check (tier_achieved in ('tier_1','tier_2','tier_3')),
      issue_date text not null,
      issued_by text references users (id) on delete set null,
      created_at text not null,
      verification_code text not null unique,
      revoked_at text,
      revoked_by text references users (id) on delete set null,
      revocation_reason text,
      replaces_id text unique references certificates (id) on delete restrict,
      replaced_at text,
      check ((revoked_at is null) = (revocation_reason is null))
    )`,
    `insert into certificates_new (id, certificate_number, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at, verification_code)
     select id, certificate_number, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at, 'pending:' || id from certificates`,
    [
      ...COMMON_INDEXES,
      `create unique index certificates_current_enrollment on certificates (enrollment_id) where replaced_at is null`,
    ],
  );
  await fillCodes(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`delete from certificate_documents where certificate_id in (select id from certificates where replaced_at is not null)`.execute(db);
    await sql`delete from certificates where replaced_at is not null`.execute(db);
    await sql`drop index if exists certificates_current_enrollment`.execute(db);
    await sql`alter table certificates add constraint certificates_enrollment_id_key unique (enrollment_id)`.execute(db);
    await sql`alter table certificates drop constraint certificates_revocation_check, drop column verification_code, drop column revoked_at, drop column revoked_by, drop column revocation_reason, drop column replaces_id, drop column replaced_at`.execute(db);
    return;
  }
  // Reissued certificates cannot fit one-per-enrolment again; the replaced ones go.
  await rebuild(
    db,
    `create table certificates_new (
      id text primary key,
      certificate_number text not null unique,
      student_id text not null references users (id) on delete cascade,
      course_id text not null references courses (id) on delete restrict,
      enrollment_id text not null unique references enrollments (id) on delete cascade,
      tier_achieved text not null check (tier_achieved in ('tier_1','tier_2','tier_3')),
      issue_date text not null,
      issued_by text references users (id) on delete set null,
      created_at text not null
    )`,
    `insert into certificates_new (id, certificate_number, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at)
     select id, certificate_number, student_id, course_id, enrollment_id, tier_achieved, issue_date, issued_by, created_at from certificates where replaced_at is null`,
    COMMON_INDEXES,
  );
  await sql`delete from certificate_documents where certificate_id not in (select id from certificates)`.execute(db);
}
