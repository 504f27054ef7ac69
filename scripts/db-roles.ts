/**
 * npm run db:roles -- --role portal_app: on PostgreSQL, creates the portal's own database role
 * (when it does not exist) and grants it what the portal needs, with read and insert only on the
 * audit trail (db/roles.ts). Run as the tables' owner: MIGRATION_DATABASE_URL when set, else
 * DATABASE_URL. A new role gets the password in APP_ROLE_PASSWORD, or none (set it yourself);
 * the password is never printed. Run it again after an upgrade; it changes nothing twice.
 */
import { parseArgs } from "node:util";
import { openDatabase } from "../db/connection";
import { grantAppRole } from "../db/roles";
import { parseEnv } from "../app/env.server";

async function main() {
  const { values } = parseArgs({ options: { role: { type: "string" } } });
  if (!values.role) throw new Error("Usage: npm run db:roles -- --role portal_app (run as the owner of the tables)");
  const env = parseEnv();
  const db = openDatabase(env.MIGRATION_DATABASE_URL ?? env.DATABASE_URL);
  try {
    const password = process.env.APP_ROLE_PASSWORD || undefined;
    const { created, owner } = await grantAppRole(db, values.role, { password });
    console.log(
      [
        created
          ? `Created the role ${values.role}${password ? " with the password in APP_ROLE_PASSWORD" : " without a password (set one: ALTER ROLE ... PASSWORD, or psql's \\password)"}.`
          : `The role ${values.role} exists.`,
        `Granted ${values.role}: read and write on every table, read and insert only on audit_log; tables ${owner}'s later migrations create come with the same rights.`,
        `Run the portal with DATABASE_URL naming ${values.role} and MIGRATION_DATABASE_URL naming ${owner}.`,
      ].join("\n"),
    );
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
