import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The runner's release of stale review holds (models/review.server.ts releaseStaleReviewHolds)
 * looks for enrolments awaiting a review, oldest first. No index led with review_status, so each
 * run read every enrolment: 800 ms at 2,500,000 enrolments on PostgreSQL, on every worker's
 * tick, for the ten held. Leading with the state and ordered by the enrolment date, the search
 * reads the held ones alone. Not a partial index: the query binds 'awaiting' as a parameter,
 * which SQLite does not match against an index's WHERE.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("enrollments_review_hold").on("enrollments").columns(["review_status", "enrollment_date"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("enrollments_review_hold").execute();
}
