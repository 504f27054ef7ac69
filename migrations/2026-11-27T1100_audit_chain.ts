import { sql, type Kysely } from "kysely";
import { CHAINED_COLUMNS, chainHash, GENESIS_HASH, type ChainedAuditRow } from "../db/audit-chain";
import { dialectOf } from "../db/dialect";

// Frozen in time: never edit a migration that has shipped; add a new one instead.
// (db/audit-chain's encoding is frozen as well: every stored hash depends on it.)

/**
 * The audit trail becomes a hash chain (docs/decisions/017-audit-integrity.md): each row keeps
 * the hash of the row before it (`prev_hash`) and the hash of its own content with that
 * (`hash`). Rows written before now are hashed here, in id order, so an older database verifies
 * from its first entry.
 *
 * The database also refuses an insert that is not the next entry: its id must be one more than
 * the highest, and it must carry both hashes. On SQLite this is what stops `INSERT OR REPLACE`
 * (and `REPLACE`) with an existing id, which deletes the old row without firing the delete
 * trigger; on PostgreSQL it stops a row slipped into an older gap in the ids.
 */

const BATCH = 500;
const OUT_OF_ORDER = "audit_log is append-only: a new entry takes the next number and carries its hashes";

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === "postgres";
  await db.schema.alterTable("audit_log").addColumn("prev_hash", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("hash", "text").execute();

  // The update guard stands aside only while the existing rows get their hashes.
  if (postgres) await sql`alter table audit_log disable trigger audit_log_no_change`.execute(db);
  else await sql`drop trigger audit_log_no_update`.execute(db);
  let prev = GENESIS_HASH;
  let after = 0;
  for (;;) {
    const rows = (await db
      .selectFrom("audit_log")
      .select(CHAINED_COLUMNS.filter((c) => c !== "prev_hash"))
      .where("id", ">", after)
      .orderBy("id")
      .limit(BATCH)
      .execute()) as Omit<ChainedAuditRow, "prev_hash">[];
    for (const row of rows) {
      const hash = chainHash({ ...row, prev_hash: prev });
      await db.updateTable("audit_log").set({ prev_hash: prev, hash }).where("id", "=", row.id).execute();
      prev = hash;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  if (postgres) {
    await sql`alter table audit_log enable trigger audit_log_no_change`.execute(db);
    await sql`alter table audit_log alter column prev_hash set not null, alter column hash set not null`.execute(db);
    await sql
      .raw(
        `create function audit_log_next_only() returns trigger language plpgsql as $$
         begin
           if new.id is distinct from (select coalesce(max(id), 0) + 1 from audit_log) or new.hash is null or new.prev_hash is null then
             raise exception '${OUT_OF_ORDER}';
           end if;
           return new;
         end $$`,
      )
      .execute(db);
    await sql`create trigger audit_log_next_only before insert on audit_log for each row execute function audit_log_next_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql
      .raw(
        `create trigger audit_log_next_only before insert on audit_log
         when new.id is null or new.id <> coalesce((select max(id) from audit_log), 0) + 1 or new.hash is null or new.prev_hash is null
         begin select raise(abort, '${OUT_OF_ORDER}'); end`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === "postgres") {
    await sql`drop trigger if exists audit_log_next_only on audit_log`.execute(db);
    await sql`drop function if exists audit_log_next_only()`.execute(db);
  } else {
    await sql`drop trigger if exists audit_log_next_only`.execute(db);
  }
  await db.schema.alterTable("audit_log").dropColumn("hash").execute();
  await db.schema.alterTable("audit_log").dropColumn("prev_hash").execute();
}
