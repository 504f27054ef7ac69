/**
 * A worker issuing invoices (tests only): opens the database at argv[2] with its own connections,
 * waits for "go" on stdin so every worker starts together, then issues argv[3] invoices at once for
 * the course argv[4] to the learner argv[5], each in its own write transaction, and prints the
 * numbers it got as one JSON line.
 */
import crypto from "node:crypto";
import { openDatabase, writeTransaction } from "../../db/connection";
import { issueInvoice } from "../../app/models/finance/invoice.server";

const [url, count, courseId, learnerId] = process.argv.slice(2) as [string, string, string, string];
const db = openDatabase(url);
process.stdout.write("ready\n");
await new Promise((resolve) => process.stdin.once("data", resolve));
const numbers = await Promise.all(
  Array.from({ length: Number(count) }, () =>
    writeTransaction(db, (trx) =>
      issueInvoice(trx, {
        buyer: { kind: "learner", id: learnerId, name: "Concurrent Learner", email: "learner@example.test" },
        lines: [{ course_id: courseId, description: "Concurrent course", quantity: 1, unit_price_cents: 110_00 }],
        source: { kind: "booking", id: crypto.randomUUID() },
        issued_by: null,
      }),
    ).then((r) => r.number),
  ),
);
process.stdout.write(`${JSON.stringify(numbers)}\n`);
await db.destroy();
process.exit(0);
