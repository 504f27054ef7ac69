/**
 * Brings the database to the latest schema and seeds the demo organisation into an empty one
 * (unless SEED_DEMO=false). `--reset` wipes everything first; `--no-seed` only migrates.
 *
 * A public deployment (APP_URL names a host other than this machine) never gets demo data,
 * and does not start while any account still has the demo password: that password is printed
 * in the README.
 *
 * With MIGRATION_DATABASE_URL set (PostgreSQL's role split) this runs as the tables' owner,
 * and checks that the portal's own DATABASE_URL does not: a portal that owns audit_log could
 * rewrite it, so starting that way prints a warning.
 */
import fs from "node:fs";
import { isDatabaseUnavailable, openDatabase, type DB } from "../db/connection";
import { isPublicDeployment, demoLockAtStart } from "../app/http/demo-lock.server";
import { migrateDownAll, migrateToLatest } from "../db/migrate";
import { seedDemoData } from "../app/demo/seed.server";
import { auditOwnerWarning } from "../db/roles";
import { parseEnv, type Env } from "../app/env.server";
import { encryptStoredSecrets } from "../app/auth/secret-box.server";

const args = new Set(process.argv.slice(2));

async function main() {
  const env = parseEnv();
  const publicDeployment = isPublicDeployment(env);
  const db = openDatabase(env.MIGRATION_DATABASE_URL ?? env.DATABASE_URL);
  try {
    if (args.has("--reset")) {
      await migrateDownAll(db);
      console.log("Database wiped.");
    }
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database schema is up to date.");
    // authenticator secrets stored before they were encrypted are encrypted now (decision 018)
    const encrypted = await encryptStoredSecrets(db, env.TWO_STEP_KEY);
    if (encrypted) console.log(`Encrypted ${encrypted} authenticator secret(s) stored as text.`);
    if (publicDeployment) {
      if (!args.has("--no-seed") && env.SEED_DEMO) console.log(`Public deployment (${env.APP_URL}): demo data is never seeded.`);
    } else if (!args.has("--no-seed") && env.SEED_DEMO) {
      const { seeded } = await seedDemoData(db);
      console.log(seeded ? "Seeded demo data (password for every demo login: password123)." : "Database already has data; seed skipped.");
    }
    if (publicDeployment || !args.has("--no-seed")) {
      // the demo lock (app/http/demo-lock.server.ts): throws when the portal must not start
      const demoAccounts = await demoLockAtStart(db, { APP_URL: env.APP_URL, HOST: env.HOST });
      // npm start hands the finding to the server it starts, which would otherwise check every
      // account's hash again in each worker (seconds of scrypt at start)
      if (!args.has("--no-seed") && process.env.PREPARE_REPORT) fs.writeFileSync(process.env.PREPARE_REPORT, JSON.stringify({ demoAccounts }), { mode: 0o600 });
    }
    if (!args.has("--no-seed")) {
      await warnWhenPortalOwnsAuditTrail(db, env);
    }
  } finally {
    await db.destroy();
  }
}

/** The start-up warning of db/roles.ts, asked of the connection the portal itself will use. */
async function warnWhenPortalOwnsAuditTrail(migrationDb: DB, env: Env) {
  const separate = env.MIGRATION_DATABASE_URL !== undefined && env.MIGRATION_DATABASE_URL !== env.DATABASE_URL;
  const portalDb = separate ? openDatabase(env.DATABASE_URL) : migrationDb;
  try {
    const warning = await auditOwnerWarning(portalDb);
    if (warning) console.warn(warning);
  } finally {
    if (separate) await portalDb.destroy();
  }
}

/** The URL without its password, for a message. */
function shown(url: string): string {
  return url.replace(/\/\/([^:@/]*):[^@/]*@/, "//$1:***@");
}

main().catch((error) => {
  if (isDatabaseUnavailable(error)) {
    const cause = error.cause instanceof Error ? error.cause : error;
    const reason = cause.message || (cause as { code?: string }).code || "no answer";
    console.error(`Cannot reach the database at ${shown(parseEnv().DATABASE_URL)}: ${reason}`);
  } else {
    console.error(error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
