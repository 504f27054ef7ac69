import { openDatabase, writeTransaction } from "../../db/connection";
import { queueMail } from "../../app/models/outbox.server";
import type { MailSink } from "./mail-sink";

/**
 * The many-workers check of the outbox, for the scripts that start real servers: queue `count`
 * messages straight into the database the servers share, then wait for the servers' runners to
 * deliver them to a local sink and count, by key, what arrived.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function queueBulkMail(url: string, count: number, prefix: string): Promise<string[]> {
  const db = openDatabase(url);
  try {
    const people = await db.selectFrom("users").select("id").limit(20).execute();
    const keys = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
    await writeTransaction(db, async (trx) => {
      for (const [i, key] of keys.entries()) {
        await queueMail(trx, {
          key,
          template: "class-cancelled",
          recipientId: people[i % people.length]!.id,
          data: { course: `Bulk ${i}`, start: "2026-12-01", end: "2026-12-01", path: "/courses" },
        });
      }
    });
    return keys;
  } finally {
    await db.destroy();
  }
}

export interface BulkOutcome {
  delivered: number;
  lost: string[];
  doubled: string[];
  /** how many workers' names are on the messages sent */
  workers: number;
  seconds: number;
}

/** Waits (up to `timeoutMs`) until every key has arrived at the sink, then a moment for stragglers, and counts. */
export async function awaitBulkMail(url: string, sink: MailSink, keys: string[], timeoutMs = 90_000): Promise<BulkOutcome> {
  const started = Date.now();
  const wanted = new Set(keys);
  const arrived = () => [...sink.countsByKey().keys()].filter((k) => wanted.has(k)).length;
  while (arrived() < keys.length && Date.now() - started < timeoutMs) await sleep(200);
  const seconds = (Date.now() - started) / 1000;
  await sleep(1_500); // a second copy, if any, would come now
  const counts = sink.countsByKey();
  const db = openDatabase(url);
  try {
    // a sender is named "<process>/<run>": count the processes
    const claims = await db.selectFrom("outbox_messages").select("claimed_by").distinct().where("key", "in", keys).where("state", "=", "sent").execute();
    const senders = new Set(claims.map((c) => (c.claimed_by ?? "").split("/")[0]));
    return {
      delivered: keys.filter((k) => (counts.get(k) ?? 0) >= 1).length,
      lost: keys.filter((k) => !counts.get(k)),
      doubled: keys.filter((k) => (counts.get(k) ?? 0) > 1),
      workers: senders.size,
      seconds,
    };
  } finally {
    await db.destroy();
  }
}
