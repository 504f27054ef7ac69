import { sql, type Kysely } from "kysely";
import { dialectSql } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * Scheduled classes of a course (docs/decisions/013-classes.md):
 * - classes: the dates, place, trainer and seats of one run of a course; cancelled_at marks a
 *   cancelled class (kept, so its enrolments still say which class they were for);
 * - class_sessions: the days of a class, with start and end times (HH:MM) on the RTO's clock;
 * - enrollments.class_id: the class an enrolment holds a seat in (null for a course without
 *   classes). A seat is taken by every enrolment of the class that is not withdrawn. No foreign
 *   key: SQLite cannot drop a referencing column, and the models write it only with a class id
 *   they have just read;
 * - class_waitlist: first come first served (the identity column is the order); an offer holds
 *   a freed seat for one learner until offer_expires_at; offer_mailed_at claims its mail;
 * - attendance: one mark per session and enrolment;
 * - attendance_alerts: two absences in a row, for the office's dashboard; mailed_at claims the mail;
 * - calendar_feeds: each person's private feed token, stored hashed;
 * - class_reminders: the reminder mail of one enrolment for one class, claimed before it is sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { autoIncrementKey } = dialectSql(db);
  await db.schema
    .createTable("classes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("start_date", "text", (c) => c.notNull())
    .addColumn("end_date", "text", (c) => c.notNull())
    .addColumn("location_id", "text", (c) => c.references("delivery_locations.id"))
    .addColumn("trainer_id", "text", (c) => c.references("users.id"))
    .addColumn("seats", "integer", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("classes_course_start").on("classes").columns(["course_id", "start_date"]).execute();
  await db.schema.createIndex("classes_trainer_start").on("classes").columns(["trainer_id", "start_date"]).execute();
  await db.schema.createIndex("classes_start").on("classes").columns(["start_date"]).execute();

  await db.schema
    .createTable("class_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("class_id", "text", (c) => c.notNull().references("classes.id").onDelete("cascade"))
    .addColumn("session_date", "text", (c) => c.notNull())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("class_sessions_class_date").on("class_sessions").columns(["class_id", "session_date"]).execute();

  await sql`alter table enrollments add column class_id text`.execute(db);
  await db.schema.createIndex("enrollments_class_status").on("enrollments").columns(["class_id", "status"]).execute();

  await db.schema
    .createTable("class_waitlist")
    .addColumn("id", "integer", autoIncrementKey)
    .addColumn("class_id", "text", (c) => c.notNull().references("classes.id").onDelete("cascade"))
    .addColumn("student_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("joined_at", "text", (c) => c.notNull())
    .addColumn("offered_at", "text")
    .addColumn("offer_expires_at", "text")
    .addColumn("offer_mailed_at", "text")
    .addUniqueConstraint("class_waitlist_class_student", ["class_id", "student_id"])
    .execute();
  await db.schema.createIndex("class_waitlist_class_status").on("class_waitlist").columns(["class_id", "status", "id"]).execute();

  await db.schema
    .createTable("attendance")
    .addColumn("session_id", "text", (c) => c.notNull().references("class_sessions.id").onDelete("cascade"))
    .addColumn("enrollment_id", "text", (c) => c.notNull().references("enrollments.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("marked_by", "text")
    .addColumn("marked_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("attendance_pk", ["session_id", "enrollment_id"])
    .execute();
  await db.schema.createIndex("attendance_enrollment").on("attendance").columns(["enrollment_id"]).execute();

  await db.schema
    .createTable("attendance_alerts")
    .addColumn("id", "integer", autoIncrementKey)
    .addColumn("enrollment_id", "text", (c) => c.notNull().references("enrollments.id").onDelete("cascade"))
    .addColumn("session_id", "text", (c) => c.notNull().references("class_sessions.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("mailed_at", "text")
    .addUniqueConstraint("attendance_alerts_enrollment_session", ["enrollment_id", "session_id"])
    .execute();

  await db.schema
    .createTable("calendar_feeds")
    .addColumn("user_id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("class_reminders")
    .addColumn("class_id", "text", (c) => c.notNull().references("classes.id").onDelete("cascade"))
    .addColumn("enrollment_id", "text", (c) => c.notNull().references("enrollments.id").onDelete("cascade"))
    .addColumn("sent_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("class_reminders_pk", ["class_id", "enrollment_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("class_reminders").ifExists().execute();
  await db.schema.dropTable("calendar_feeds").ifExists().execute();
  await db.schema.dropTable("attendance_alerts").ifExists().execute();
  await db.schema.dropTable("attendance").ifExists().execute();
  await db.schema.dropTable("class_waitlist").ifExists().execute();
  await sql`drop index if exists enrollments_class_status`.execute(db);
  await sql`alter table enrollments drop column class_id`.execute(db);
  await db.schema.dropTable("class_sessions").ifExists().execute();
  await db.schema.dropTable("classes").ifExists().execute();
}
