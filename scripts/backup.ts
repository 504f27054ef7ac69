/**
 * npm run db:backup [-- DESTINATION]: an online, consistent copy of the database, safe while
 * the server runs, and beside it (DESTINATION-files/) a checked copy of the local file store
 * (FILE_STORE=file:…, the assessment evidence). An S3 store is not copied here: see the README.
 * SQLite restore: stop the server, replace the database file with the copy (removing any -wal
 * and -shm files beside it), put the files copy back as the FILE_STORE directory, start the server.
 * PostgreSQL restore: pg_restore --clean --if-exists --no-owner --dbname=DATABASE_URL COPY.
 */
import { backupDatabase, defaultBackupPath } from "../db/backup";
import { parseEnv } from "../app/env.server";
import { backupFileStore } from "../app/files/backup.server";

const env = parseEnv();
const url = env.DATABASE_URL;
const destination = process.argv[2] ?? defaultBackupPath(url);
backupDatabase(url, destination)
  .then(async ({ file, description }) => {
    console.log(`Backup written to ${file} (${description}).`);
    if (env.FILE_STORE.startsWith("file:")) {
      const target = `${file.replace(/\.(db|dump)$/, "")}-files`;
      const { files, bytes } = await backupFileStore(env.FILE_STORE.slice("file:".length), target);
      console.log(`File store copied to ${target} (${files} files, ${bytes} bytes, every hash checked).`);
    } else {
      console.log(`Files are in ${env.FILE_STORE}: back them up with the object store's own versioning or replication (README).`);
    }
  })
  .catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
