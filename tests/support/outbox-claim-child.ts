/**
 * A worker that dies mid-send (tests only): opens the database at argv[2], claims every due
 * outbox message with a lease of argv[3] seconds, says "claimed N" on stdout and then waits,
 * as a worker would while its SMTP server is slow, until the test kills it with SIGKILL.
 */
import { openDatabase } from "../../db/connection";
import { claimDueMail } from "../../app/models/outbox.server";

const db = openDatabase(process.argv[2]!);
const claimed = await claimDueMail(db, { worker: `doomed-${process.pid}`, leaseSeconds: Number(process.argv[3] ?? 2), limit: 1000 });
process.stdout.write(`claimed ${claimed.length}\n`);
setInterval(() => {}, 60_000);
