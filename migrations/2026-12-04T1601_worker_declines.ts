import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * A worker named on a group booking can decline the seat from their invitation: the row stays
 * (the employer sees "Declined", the address cannot be named on that booking again), and
 * `declined_at` takes it out of the workers the booking's seats are counted against, so the
 * employer can name someone else in the seat.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("booking_workers").addColumn("declined_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("booking_workers").dropColumn("declined_at").execute();
}
