/**
 * npm run db:backup [-- DESTINATION]: an online, consistent copy of the database, safe while
 * the server runs.
 * SQLite restore: stop the server, replace the database file with the copy (removing any -wal
 * and -shm files beside it), start the server.
 * PostgreSQL restore: pg_restore --clean --if-exists --no-owner --dbname=DATABASE_URL COPY.
 */
import { backupDatabase, defaultBackupPath } from "../db/backup";
import { parseEnv } from "../app/env.server";

const url = parseEnv().DATABASE_URL;
const destination = process.argv[2] ?? defaultBackupPath(url);
backupDatabase(url, destination)
  .then(({ file, description }) => console.log(`Backup written to ${file} (${description}).`))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
