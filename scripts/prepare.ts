/**
 * Brings the database to the latest schema and seeds the demo organisation into an empty one
 * (unless SEED_DEMO=false). `--reset` wipes everything first; `--no-seed` only migrates.
 */
import { openDatabase } from "../db/connection";
import { migrateDownAll, migrateToLatest } from "../db/migrate";
import { seedDemoData } from "../db/seed";
import { parseEnv } from "../app/env.server";

const args = new Set(process.argv.slice(2));

async function main() {
  const env = parseEnv();
  const db = openDatabase(env.DATABASE_URL);
  try {
    if (args.has("--reset")) {
      await migrateDownAll(db);
      console.log("Database wiped.");
    }
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database schema is up to date.");
    if (!args.has("--no-seed") && env.SEED_DEMO) {
      const { seeded } = await seedDemoData(db);
      console.log(seeded ? "Seeded demo data (password for every demo login: password123)." : "Database already has data; seed skipped.");
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
