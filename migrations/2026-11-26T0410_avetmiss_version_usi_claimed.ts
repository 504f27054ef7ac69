import { sql, type Kysely } from "kysely";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The AVETMISS readiness list also reads users.usi_claimed (a USI a learner gave that another
 * person holds), so a write to it moves the `avetmiss` version too, as 2026-11-26T0400's
 * triggers do for the other columns the export reads.
 */
const BUMP = "update change_counters set version = version + 1 where topic = 'avetmiss';";

export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql
      .raw("create trigger avetmiss_version_usi_claimed after update of usi_claimed on users for each statement execute function avetmiss_version_bump()")
      .execute(db);
    return;
  }
  await sql.raw(`create trigger avetmiss_version_users_usi_claimed after update of usi_claimed on users begin ${BUMP} end`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") await sql.raw("drop trigger if exists avetmiss_version_usi_claimed on users").execute(db);
  else await sql.raw("drop trigger if exists avetmiss_version_users_usi_claimed").execute(db);
}
