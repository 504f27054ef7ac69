import { sql } from "kysely";
import { dialectOf, type AnyDb } from "./dialect";

/**
 * The PostgreSQL role split (docs/decisions/017-audit-integrity.md, README "A database role for
 * the portal"). The table owner can disable audit_log's triggers or switch them all off with
 * session_replication_role, and rewrite history. So the migrations run as the owner and the
 * portal as a role that reads and writes the data but may only insert and read the audit trail
 * and its signed checkpoints, and only read its head: no UPDATE, DELETE or TRUNCATE on either, and no ownership, so no
 * ALTER TABLE.
 */

/** A role name the grants can be written with (PostgreSQL's unquoted identifiers). */
const ROLE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** What every table but the audit trail gives the portal's role: it reads and writes data. */
const DATA_PRIVILEGES = "select, insert, update, delete";
/** The migration bookkeeping the portal reads but never writes (only the owner migrates). */
const MIGRATION_TABLES = ["kysely_migration", "kysely_migration_lock"];

export interface AppRoleResult {
  created: boolean;
  /** the role that owns audit_log (the one migrations run as) */
  owner: string;
}

/** One statement built by PostgreSQL's format(), so every name is quoted by the server itself. */
async function formatted(db: AnyDb, template: string, ...names: string[]): Promise<void> {
  const args = names.map((n) => sql`${n}::text`);
  const { rows } = await sql<{ s: string }>`select format(${template}, ${sql.join(args)}) as s`.execute(db);
  await sql.raw(rows[0]!.s).execute(db);
}

/**
 * Creates the portal's role when it does not exist (LOGIN, with `password` when given) and
 * grants it what the portal needs, today and for tables later migrations add. Run as the owner
 * of the tables (or a superuser), after migrating. Idempotent: run it again after an upgrade.
 */
export async function grantAppRole(db: AnyDb, role: string, options: { password?: string } = {}): Promise<AppRoleResult> {
  if (dialectOf(db) !== "postgres") throw new Error("A separate database role is a PostgreSQL set-up; SQLite has no roles.");
  if (!ROLE_NAME.test(role)) throw new Error(`The role name must be lower-case letters, digits and _ (got "${role}").`);
  const { rows } = await sql<{ owner: string | null; exists: number; database: string; schema: string }>`
    select (select pg_get_userbyid(relowner) from pg_class where oid = to_regclass('audit_log')) as owner,
           exists (select 1 from pg_roles where rolname = ${role}) as exists,
           current_database() as database, current_schema() as schema`.execute(db);
  const { owner, exists, database, schema } = rows[0]!;
  if (!owner) throw new Error("audit_log does not exist here: run the migrations (npm run db:migrate) first.");
  if (owner === role) throw new Error(`${role} owns the tables: the portal's role must be another one.`);
  await db.transaction().execute(async (trx) => {
    if (!exists) {
      if (options.password) await formatted(trx, "create role %I login password %L", role, options.password);
      else await formatted(trx, "create role %I login", role);
    }
    await formatted(trx, "grant connect on database %I to %I", database, role);
    await formatted(trx, "grant usage on schema %I to %I", schema, role);
    await formatted(trx, `grant ${DATA_PRIVILEGES} on all tables in schema %I to %I`, schema, role);
    await formatted(trx, "grant usage, select on all sequences in schema %I to %I", schema, role);
    // the audit trail: read and append only; its head is moved by audit_log's own trigger, with
    // the owner's rights, so the portal only reads it
    await formatted(trx, "revoke all on audit_log from %I", role);
    await formatted(trx, "grant select, insert on audit_log to %I", role);
    await formatted(trx, "revoke all on audit_head from %I", role);
    await formatted(trx, "grant select on audit_head to %I", role);
    // the signed checkpoints the background job appends: read and append only
    await formatted(trx, "revoke all on audit_checkpoints from %I", role);
    await formatted(trx, "grant select, insert on audit_checkpoints to %I", role);
    for (const table of MIGRATION_TABLES) {
      await formatted(trx, "revoke all on %I from %I", table, role);
      await formatted(trx, "grant select on %I to %I", table, role);
    }
    // tables and sequences a later migration creates (as the owner) come with the same rights
    await formatted(trx, `alter default privileges for role %I in schema %I grant ${DATA_PRIVILEGES} on tables to %I`, owner, schema, role);
    await formatted(trx, "alter default privileges for role %I in schema %I grant usage, select on sequences to %I", owner, schema, role);
  });
  return { created: !exists, owner };
}

/**
 * The start-up warning: on PostgreSQL, when the portal's own connection owns audit_log (or is a
 * member of the role that does, or a superuser), it could switch the table's guards off and
 * rewrite the trail, hashes included. Null when it cannot (SQLite, or the split is in place).
 * Names the role, never the connection's URL or password.
 */
export async function auditOwnerWarning(db: AnyDb): Promise<string | null> {
  if (dialectOf(db) !== "postgres") return null;
  const { rows } = await sql<{ role: string; owns: number | null; superuser: number }>`
    select current_user as role,
           (select pg_has_role(current_user, relowner, 'USAGE') from pg_class where oid = to_regclass('audit_log')) as owns,
           (select rolsuper from pg_roles where rolname = current_user) as superuser`.execute(db);
  const { role, owns, superuser } = rows[0]!;
  if (!owns && !superuser) return null;
  return [
    `Warning: the portal connects to PostgreSQL as "${role}", ${superuser ? "a superuser" : "the owner of the audit_log table"}.`,
    "That role can switch the audit trail's guards off and rewrite it, hashes included.",
    'Run the portal as a role that may only insert and read audit_log: npm run db:roles, then see "A database role for the portal" in the README.',
  ].join(" ");
}
