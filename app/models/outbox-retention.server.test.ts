import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import type { OutboxState } from "#db/schema";
import { sqlitePlan } from "../../tests/support/query-plan";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { dueMail, expiredMail, MAIL_REMOVAL_BATCH, removeExpiredMail, SENT_MAIL_KEEP_DAYS } from "./outbox.server";

const NOW = new Date("2026-12-04T12:00:00.000Z");
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 864e5).toISOString();

describe("the outbox at size: sent mail past its keep is removed, claims read only what waits", () => {
  let db: DB;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await createTestDb());
  });
  afterAll(() => cleanup());

  const message = (key: string, state: OutboxState, at: string) => ({
    id: crypto.randomUUID(),
    key,
    recipient_email: `${key}@example.com`,
    template: "class-reminder",
    data: "{}",
    state,
    next_attempt_at: at,
    claimed_by: null,
    claimed_until: null,
    sent_at: state === "sent" ? at : null,
    last_error: null,
    created_at: at,
  });

  it("removes sent messages older than the keep, a bounded number a pass, oldest first; keeps younger ones and any not sent", async () => {
    const old = Array.from({ length: MAIL_REMOVAL_BATCH + 500 }, (_, i) => message(`old-${i}`, "sent", daysAgo(SENT_MAIL_KEEP_DAYS + 1 + (i % 90))));
    for (let i = 0; i < old.length; i += 250)
      await db
        .insertInto("outbox_messages")
        .values(old.slice(i, i + 250))
        .execute();
    await db
      .insertInto("outbox_messages")
      .values([
        message("young-sent", "sent", daysAgo(SENT_MAIL_KEEP_DAYS - 1)),
        message("old-failed", "failed", daysAgo(SENT_MAIL_KEEP_DAYS + 30)),
        message("old-given-up", "given_up", daysAgo(SENT_MAIL_KEEP_DAYS + 30)),
        message("old-queued", "queued", daysAgo(SENT_MAIL_KEEP_DAYS + 30)),
      ])
      .execute();
    // one batch a pass when told so: the oldest go first
    expect(await removeExpiredMail(db, NOW, 1)).toBe(MAIL_REMOVAL_BATCH);
    const oldestLeft = await db
      .selectFrom("outbox_messages")
      .select((eb) => eb.fn.min("sent_at").as("at"))
      .where("key", "like", "old-%")
      .where("state", "=", "sent")
      .executeTakeFirstOrThrow();
    const removedNewest = old.map((m) => m.sent_at!).sort()[MAIL_REMOVAL_BATCH - 1]!;
    expect(oldestLeft.at! >= removedNewest).toBe(true);
    expect(await removeExpiredMail(db, NOW)).toBe(500);
    expect(await removeExpiredMail(db, NOW)).toBe(0);
    const left = await db.selectFrom("outbox_messages").select("key").orderBy("key").execute();
    expect(left.map((r) => r.key)).toEqual(["old-failed", "old-given-up", "old-queued", "young-sent"]);
  });

  it.runIf(TEST_DIALECT === "sqlite")("claims read only what waits, and removal only the sent mail, oldest first, through indexes", async () => {
    const claim = (await sqlitePlan(db, dueMail(db, NOW.toISOString()).orderBy("next_attempt_at").limit(20))).join("\n");
    // a search of the waiting states' range (the few due are sorted), never the sent ones
    expect(claim).toMatch(/SEARCH outbox_messages USING INDEX outbox_messages_due \(state=\?/);
    expect(claim).not.toMatch(/SCAN outbox_messages/);
    const removal = (await sqlitePlan(db, expiredMail(db, NOW))).join("\n");
    expect(removal).toMatch(/SEARCH outbox_messages USING INDEX outbox_messages_sent \(state=\? AND sent_at<\?\)/);
    expect(removal).not.toMatch(/SCAN outbox_messages|TEMP B-TREE/);
  });
});
