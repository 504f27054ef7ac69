import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Employers and their group bookings (docs/decisions/032-employers-and-group-bookings.md):
 * - employers: a client organisation (name, ABN as 11 digits, billing contact, address);
 * - users.role may be 'employer', and users.employer_id links such a user to one organisation;
 * - group_bookings: seats an employer holds in a class. `seats` is what the booking holds now
 *   (the seat rule counts it whole, so a seat is taken once, when the booking is made); on
 *   release_on the seats no worker has taken are given back (seats drops to the workers
 *   enrolled, released_at marks it);
 * - booking_workers: the people named on a booking; user_id is their account (made for them
 *   when they had none, without a usable password), enrollment_id their enrolment once they
 *   accept, consent whether they share their results with the employer (null: not asked yet);
 * - enrollments.group_booking_id: an enrolment that sits in a booking's seat (the booking
 *   already counts it);
 * - invitations: the links mailed to an employer's user and to each worker, stored hashed,
 *   each with an expiry and used once.
 *
 * SQLite cannot change a CHECK constraint in place, so the users table is rebuilt there
 * (SQLite's documented procedure: keys off, copy every row with its rowid, which the name
 * search index is keyed by, swap, recreate the table's own indexes and triggers, check, keys on).
 */

const OLD_ROLES = "check (role in ('student','trainer','admin'))";
const NEW_ROLES = "check (role in ('student','trainer','admin','employer'))";

async function rebuildUsers(db: Kysely<any>, from: string, to: string): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin immediate`.execute(db);
    try {
      const table = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = 'users'`.execute(db);
      const create = table.rows[0]!.sql;
      if (!create.includes(from)) throw new Error("users: the role check is not the one this migration expects");
      const dependents = await sql<{ sql: string }>`select sql from sqlite_master where tbl_name = 'users' and type in ('index', 'trigger') and sql is not null`.execute(db);
      const columns = await sql<{ name: string }>`select name from pragma_table_info('users')`.execute(db);
      const list = columns.rows.map((c) => `"${c.name}"`).join(", ");
      await sql.raw(create.replace(/^CREATE TABLE "users"/, 'CREATE TABLE "users_rebuilt"').replace(from, to)).execute(db);
      await sql.raw(`insert into users_rebuilt (rowid, ${list}) select rowid, ${list} from users`).execute(db);
      // other tables' triggers name users; the rename must leave them as they are
      await sql`pragma legacy_alter_table = on`.execute(db);
      await sql`drop table users`.execute(db);
      await sql`alter table users_rebuilt rename to users`.execute(db);
      await sql`pragma legacy_alter_table = off`.execute(db);
      for (const d of dependents.rows) await sql.raw(d.sql).execute(db);
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length) throw new Error(`foreign key check failed after rebuilding users: ${JSON.stringify(broken.rows[0])}`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma legacy_alter_table = off`.execute(db);
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("employers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("abn", "text", (c) => c.notNull().unique())
    .addColumn("contact_name", "text", (c) => c.notNull())
    .addColumn("contact_email", "text", (c) => c.notNull())
    .addColumn("contact_phone", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("employers_name").on("employers").columns(["name"]).execute();

  await sql`alter table users add column employer_id text references employers (id)`.execute(db);
  if (dialectOf(db) === "postgres") {
    await sql`alter table users drop constraint users_role_check`.execute(db);
    await sql`alter table users add constraint users_role_check check (role in ('student','trainer','admin','employer'))`.execute(db);
  } else {
    await rebuildUsers(db, OLD_ROLES, NEW_ROLES);
  }
  await db.schema.createIndex("users_employer").on("users").columns(["employer_id"]).execute();

  await db.schema
    .createTable("group_bookings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("employer_id", "text", (c) => c.notNull().references("employers.id"))
    .addColumn("class_id", "text", (c) => c.notNull().references("classes.id"))
    .addColumn("seats", "integer", (c) => c.notNull())
    .addColumn("seats_booked", "integer", (c) => c.notNull())
    .addColumn("release_on", "text", (c) => c.notNull())
    .addColumn("released_at", "text")
    .addColumn("booked_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("group_bookings_class").on("group_bookings").columns(["class_id"]).execute();
  await db.schema.createIndex("group_bookings_employer").on("group_bookings").columns(["employer_id", "created_at"]).execute();
  await db.schema.createIndex("group_bookings_release").on("group_bookings").columns(["released_at", "release_on"]).execute();

  await db.schema
    .createTable("booking_workers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().references("group_bookings.id"))
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("enrollment_id", "text", (c) => c.references("enrollments.id"))
    .addColumn("consent", "integer")
    .addColumn("consent_at", "text")
    .addColumn("invited_at", "text", (c) => c.notNull())
    .addColumn("accepted_at", "text")
    .addUniqueConstraint("booking_workers_booking_email", ["booking_id", "email"])
    .execute();
  await db.schema.createIndex("booking_workers_user").on("booking_workers").columns(["user_id"]).execute();

  await sql`alter table enrollments add column group_booking_id text`.execute(db);
  await db.schema.createIndex("enrollments_group_booking").on("enrollments").columns(["group_booking_id"]).execute();

  await db.schema
    .createTable("invitations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("worker_id", "text", (c) => c.references("booking_workers.id"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("invitations_user").on("invitations").columns(["user_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("invitations").ifExists().execute();
  await db.schema.dropIndex("enrollments_group_booking").ifExists().execute();
  await sql`alter table enrollments drop column group_booking_id`.execute(db);
  await db.schema.dropTable("booking_workers").ifExists().execute();
  await db.schema.dropTable("group_bookings").ifExists().execute();
  await sql`delete from users where role = 'employer'`.execute(db);
  await db.schema.dropIndex("users_employer").ifExists().execute();
  if (dialectOf(db) === "postgres") {
    await sql`alter table users drop constraint users_role_check`.execute(db);
    await sql`alter table users add constraint users_role_check check (role in ('student','trainer','admin'))`.execute(db);
    await sql`alter table users drop column employer_id`.execute(db);
  } else {
    await rebuildUsers(db, NEW_ROLES, OLD_ROLES);
    await sql`alter table users drop column employer_id`.execute(db);
  }
  await db.schema.dropTable("employers").ifExists().execute();
}
