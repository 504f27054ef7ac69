/**
 * npm run db:backup [-- DESTINATION]: an online, consistent copy of the SQLite database, safe
 * while the server runs. Restore: stop the server, replace the database file with the copy
 * (removing any -wal and -shm files beside it), start the server.
 */
import { backupDatabase, defaultBackupPath } from "../db/backup";
import { parseEnv } from "../app/env.server";

const destination = process.argv[2] ?? defaultBackupPath();
backupDatabase(parseEnv().DATABASE_URL, destination)
  .then(({ file, pages }) => console.log(`Backup written to ${file} (${pages} pages, integrity ok).`))
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
