import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * group_bookings.refund_policy_version: the refund policy version in force when the employer
 * booked, kept with the booking as an enrolment keeps its own, so a credit note against the
 * booking's invoice names the policy the seats were bought under. Bookings made before this
 * stay null: their version was not recorded, and is not guessed afterwards.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("group_bookings").addColumn("refund_policy_version", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("group_bookings").dropColumn("refund_policy_version").execute();
}
