import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * RPL's third-party reports and competency sessions (issue 56).
 *
 * - recognition_referee_requests: staff ask a referee (an employer, a supervisor) for a report on
 *   an RPL application. The mailed link's token is kept only as its SHA-256 hash, works once and
 *   until expires_at. Once the referee submits, the report's columns hold what they wrote and
 *   submitted_at (their declaration is part of submitting: no report is kept without it).
 * - recognition_sessions: a competency conversation or practical challenge the assessor books for
 *   an RPL application: the organisation's day, HH:MM start and end (as class_sessions keep
 *   them), a delivery location, notes. Cancelling keeps the row (cancelled_at, by whom, why);
 *   rescheduling changes the time in place. The assessor's index answers the double-booking check.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("recognition_referee_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("recognition_applications.id"))
    .addColumn("referee_name", "text", (c) => c.notNull())
    .addColumn("referee_email", "text", (c) => c.notNull())
    .addColumn("relationship", "text")
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("requested_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("requested_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("submitted_at", "text")
    .addColumn("reporter_name", "text")
    .addColumn("reporter_role", "text")
    .addColumn("reporter_organisation", "text")
    .addColumn("reporter_phone", "text")
    .addColumn("known_how", "text")
    .addColumn("work_witnessed", "text")
    .addColumn("worked_from", "text")
    .addColumn("worked_to", "text")
    .execute();
  await db.schema.createIndex("recognition_referee_requests_application").on("recognition_referee_requests").columns(["application_id", "requested_at"]).execute();
  await db.schema
    .createTable("recognition_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("application_id", "text", (c) => c.notNull().references("recognition_applications.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("assessor_id", "text", (c) => c.notNull().references("users.id"))
    .addColumn("session_date", "text", (c) => c.notNull())
    .addColumn("starts_at", "text", (c) => c.notNull())
    .addColumn("ends_at", "text", (c) => c.notNull())
    .addColumn("location_id", "text", (c) => c.notNull().references("delivery_locations.id"))
    .addColumn("notes", "text")
    .addColumn("booked_by", "text", (c) => c.notNull().references("users.id"))
    .addColumn("booked_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("cancelled_at", "text")
    .addColumn("cancelled_by", "text", (c) => c.references("users.id"))
    .addColumn("cancel_reason", "text")
    .execute();
  await db.schema.createIndex("recognition_sessions_application").on("recognition_sessions").columns(["application_id", "session_date"]).execute();
  await db.schema.createIndex("recognition_sessions_assessor").on("recognition_sessions").columns(["assessor_id", "session_date"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("recognition_sessions").execute();
  await db.schema.dropTable("recognition_referee_requests").execute();
}
