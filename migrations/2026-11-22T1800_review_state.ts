import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Review state kept on the rows the trainer and admin figures count, so each figure is an
 * index range instead of a correlated subquery per enrolment (on 100k enrolments the trainer
 * overview went from ~0.8 s to a few milliseconds):
 *
 * - enrollments.latest_assessment_status: the status of the enrolment's latest assessment
 *   (latestAssessmentOrder: calendar day, then time recorded), or NULL when none;
 * - enrollments.has_certificate: 1 once a certificate exists for the enrolment;
 * - enrollments.awaiting_assessor: generated from the two above, the "Pending Assessments"
 *   definition (PENDING_ASSESSMENT_DEFINITION) minus the student's account state;
 * - users.current_enrollments: how many enrolled or in-progress enrolments the user has
 *   ("My Students" counts active students with one or more), added to the name index.
 *
 * Triggers keep the first, second and fourth in step with assessments, certificates and
 * enrollments inside the writing statement, whatever writes them (the portal, the /api, the
 * seeds, an import), so they can never drift. users_search is an FTS5 trigram index over
 * students' names and e-mail addresses, kept in step the same way, which answers the admin
 * search's substring match without reading every user.
 *
 * On PostgreSQL the triggers are PL/pgSQL functions with the same bodies, the generated column
 * is stored (PostgreSQL has no virtual ones), and users_search is two GIN pg_trgm indexes on
 * lower(full_name) and lower(email), which answer the search's LIKE directly.
 */

const LATEST_STATUS = (enrollmentId: string) => `(
  select a.status from assessments a
  where a.enrollment_id = ${enrollmentId}
  order by substr(a.assessment_date, 1, 10) desc, a.created_at desc
  limit 1)`;
const HAS_CERTIFICATE = (enrollmentId: string) =>
  `exists (select 1 from certificates c where c.enrollment_id = ${enrollmentId})`;
const CURRENT_COUNT = (studentId: string) =>
  `(select count(*) from enrollments e where e.student_id = ${studentId} and e.status in ('enrolled', 'in_progress'))`;

const TRIGGERS: Record<string, string> = {
  assessments_latest_ai: `after insert on assessments begin
    update enrollments set latest_assessment_status = ${LATEST_STATUS("new.enrollment_id")} where id = new.enrollment_id;
  end`,
  assessments_latest_au: `after update of enrollment_id, status, assessment_date, created_at on assessments begin
    update enrollments set latest_assessment_status = ${LATEST_STATUS("old.enrollment_id")} where id = old.enrollment_id;
    update enrollments set latest_assessment_status = ${LATEST_STATUS("new.enrollment_id")} where id = new.enrollment_id;
  end`,
  assessments_latest_ad: `after delete on assessments begin
    update enrollments set latest_assessment_status = ${LATEST_STATUS("old.enrollment_id")} where id = old.enrollment_id;
  end`,
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
  enrollments_current_ai: `after insert on enrollments begin
    update users set current_enrollments = ${CURRENT_COUNT("new.student_id")} where id = new.student_id;
  end`,
  enrollments_current_au: `after update of student_id, status on enrollments begin
    update users set current_enrollments = ${CURRENT_COUNT("old.student_id")} where id = old.student_id;
    update users set current_enrollments = ${CURRENT_COUNT("new.student_id")} where id = new.student_id;
  end`,
  enrollments_current_ad: `after delete on enrollments begin
    update users set current_enrollments = ${CURRENT_COUNT("old.student_id")} where id = old.student_id;
  end`,
  users_search_ai: `after insert on users begin
    insert into users_search (rowid, full_name, email) values (new.rowid, new.full_name, new.email);
  end`,
  users_search_au: `after update of full_name, email on users begin
    insert into users_search (users_search, rowid, full_name, email) values ('delete', old.rowid, old.full_name, old.email);
    insert into users_search (rowid, full_name, email) values (new.rowid, new.full_name, new.email);
  end`,
  users_search_ad: `after delete on users begin
    insert into users_search (users_search, rowid, full_name, email) values ('delete', old.rowid, old.full_name, old.email);
  end`,
};

/** The same triggers as PL/pgSQL functions: one per table, run for each changed row. */
const PG_TRIGGERS: Record<string, { on: string; events: string; body: string }> = {
  assessments_latest: {
    on: "assessments",
    events: "insert or delete or update of enrollment_id, status, assessment_date, created_at",
    body: `
      if tg_op <> 'INSERT' then
        update enrollments set latest_assessment_status = ${LATEST_STATUS("old.enrollment_id")} where id = old.enrollment_id;
      end if;
      if tg_op <> 'DELETE' then
        update enrollments set latest_assessment_status = ${LATEST_STATUS("new.enrollment_id")} where id = new.enrollment_id;
      end if;`,
  },
  certificates_flag: {
    on: "certificates",
    events: "insert or delete or update of enrollment_id",
    body: `
      if tg_op <> 'INSERT' then
        update enrollments set has_certificate = (${HAS_CERTIFICATE("old.enrollment_id")})::integer where id = old.enrollment_id;
      end if;
      if tg_op <> 'DELETE' then
        update enrollments set has_certificate = 1 where id = new.enrollment_id;
      end if;`,
  },
  enrollments_current: {
    on: "enrollments",
    events: "insert or delete or update of student_id, status",
    body: `
      if tg_op <> 'INSERT' then
        update users set current_enrollments = ${CURRENT_COUNT("old.student_id")} where id = old.student_id;
      end if;
      if tg_op <> 'DELETE' then
        update users set current_enrollments = ${CURRENT_COUNT("new.student_id")} where id = new.student_id;
      end if;`,
  },
};

const AWAITING_ASSESSOR = `case
        when status = 'in_progress' and latest_assessment_status is null then 1
        when status in ('enrolled', 'in_progress') and latest_assessment_status in ('in_progress', 'resubmission') then 1
        else 0
      end`;

async function upPostgres(db: Kysely<any>): Promise<void> {
  await sql`alter table enrollments add column latest_assessment_status text`.execute(db);
  await sql`alter table enrollments add column has_certificate integer not null default 0`.execute(db);
  await sql`alter table users add column current_enrollments integer not null default 0`.execute(db);
  await sql
    .raw(`update enrollments set latest_assessment_status = ${LATEST_STATUS("enrollments.id")}, has_certificate = (${HAS_CERTIFICATE("enrollments.id")})::integer`)
    .execute(db);
  await sql.raw(`update users set current_enrollments = ${CURRENT_COUNT("users.id")}`).execute(db);
  await sql.raw(`alter table enrollments add column awaiting_assessor integer generated always as (${AWAITING_ASSESSOR}) stored`).execute(db);
  await sql`create index enrollments_awaiting_assessor_idx on enrollments (awaiting_assessor, updated_at, id)`.execute(db);
  await sql`create index enrollments_awaiting_student_idx on enrollments (student_id) where awaiting_assessor = 1`.execute(db);
  await sql`create index enrollments_awaiting_certificate_idx on enrollments (status, has_certificate, completion_date, id)`.execute(db);
  await sql`drop index users_role_active_name_idx`.execute(db);
  await sql`create index users_role_active_name_idx on users (role, is_active, (lower(full_name)), id, current_enrollments)`.execute(db);

  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index users_search_name_idx on users using gin (lower(full_name) gin_trgm_ops)`.execute(db);
  await sql`create index users_search_email_idx on users using gin (lower(email) gin_trgm_ops)`.execute(db);

  for (const [name, t] of Object.entries(PG_TRIGGERS)) {
    await sql.raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${t.body}
      return null;
    end $$`).execute(db);
    await sql.raw(`create trigger ${name} after ${t.events} on ${t.on} for each row execute function ${name}()`).execute(db);
  }
}

async function downPostgres(db: Kysely<any>): Promise<void> {
  for (const [name, t] of Object.entries(PG_TRIGGERS)) {
    await sql.raw(`drop trigger if exists ${name} on ${t.on}`).execute(db);
    await sql.raw(`drop function if exists ${name}()`).execute(db);
  }
  await sql`drop index if exists users_search_email_idx`.execute(db);
  await sql`drop index if exists users_search_name_idx`.execute(db);
  await sql`drop index users_role_active_name_idx`.execute(db);
  await sql`create index users_role_active_name_idx on users (role, is_active, (lower(full_name)), id)`.execute(db);
  // Dropping the columns drops the indexes on them.
  await sql`alter table enrollments drop column awaiting_assessor`.execute(db);
  await sql`alter table enrollments drop column has_certificate`.execute(db);
  await sql`alter table enrollments drop column latest_assessment_status`.execute(db);
  await sql`alter table users drop column current_enrollments`.execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") return upPostgres(db);
  await sql`alter table enrollments add column latest_assessment_status text`.execute(db);
  await sql`alter table enrollments add column has_certificate integer not null default 0`.execute(db);
  await sql`alter table users add column current_enrollments integer not null default 0`.execute(db);
  await sql
    .raw(`update enrollments set latest_assessment_status = ${LATEST_STATUS("enrollments.id")}, has_certificate = ${HAS_CERTIFICATE("enrollments.id")}`)
    .execute(db);
  await sql.raw(`update users set current_enrollments = ${CURRENT_COUNT("users.id")}`).execute(db);
  // Pending Assessments (see PENDING_ASSESSMENT_DEFINITION): a current enrolment whose latest
  // assessment is in progress or awaiting resubmission, or in progress with none recorded.
  await sql.raw(`
    alter table enrollments add column awaiting_assessor integer generated always as (
      ${AWAITING_ASSESSOR}) virtual`).execute(db);
  await sql`create index enrollments_awaiting_assessor_idx on enrollments (awaiting_assessor, updated_at, id)`.execute(db);
  await sql`create index enrollments_awaiting_student_idx on enrollments (student_id) where awaiting_assessor = 1`.execute(db);
  await sql`create index enrollments_awaiting_certificate_idx on enrollments (status, has_certificate, completion_date, id)`.execute(db);
  // The trainer's student list walks this index in name order; with current_enrollments in it,
  // the list and the "My Students" count read the index alone.
  await sql`drop index users_role_active_name_idx`.execute(db);
  await sql`create index users_role_active_name_idx on users (role, is_active, (lower(full_name)), id, current_enrollments)`.execute(db);

  await sql`create virtual table users_search using fts5(full_name, email, content = 'users', content_rowid = 'rowid', tokenize = 'trigram')`.execute(db);
  await sql`insert into users_search (users_search) values ('rebuild')`.execute(db);

  for (const [name, body] of Object.entries(TRIGGERS)) await sql.raw(`create trigger ${name} ${body}`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") return downPostgres(db);
  for (const name of Object.keys(TRIGGERS)) await sql.raw(`drop trigger if exists ${name}`).execute(db);
  await sql`drop table if exists users_search`.execute(db);
  await sql`drop index users_role_active_name_idx`.execute(db);
  await sql`create index users_role_active_name_idx on users (role, is_active, (lower(full_name)), id)`.execute(db);
  for (const name of [
    "enrollments_awaiting_certificate_idx",
    "enrollments_awaiting_student_idx",
    "enrollments_awaiting_assessor_idx",
  ]) {
    await db.schema.dropIndex(name).ifExists().execute();
  }
  await sql`alter table enrollments drop column awaiting_assessor`.execute(db);
  await sql`alter table enrollments drop column has_certificate`.execute(db);
  await sql`alter table enrollments drop column latest_assessment_status`.execute(db);
  await sql`alter table users drop column current_enrollments`.execute(db);
}
