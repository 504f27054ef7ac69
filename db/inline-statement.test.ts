import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { inlineStatement } from "./inline-statement";
import { sendKeptWrites, sendWritesAtCommit, writeLater, writeTransaction, type DB } from "./connection";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";
import { makeCourse, makeUser } from "../tests/support/factories";
import { createClass } from "~/models/class.server";
import { createEnrollment } from "~/models/enrollment.server";
import { recordEvent } from "~/models/event.server";

/**
 * Writes kept for the commit (writeLater after sendWritesAtCommit): on PostgreSQL their
 * parameters are written into the statements, which go with the commit in one round trip.
 */
const onPostgres = TEST_DIALECT === "postgres" ? it : it.skip;

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(() => cleanup());

/** Text that would break a statement if written in carelessly. */
const HOSTILE = [
  "O'Brien",
  "back\\slash \\' \\\\",
  "'); drop table events; --",
  "$1 $2 $$ $tag$",
  "E'\\x41'",
  "tab\there\nnewline\r",
  "Ngā mihi 🏗️ 起重机",
  '"quoted" name',
  "\u0001\u001f control",
];

describe("inlineStatement", () => {
  it("writes each parameter in as a quoted literal, and leaves $n inside quotes alone", () => {
    expect(inlineStatement(`select $1, '$1', "$2" from t where a = $2 and b = 'it''s $1'`, ["x", 7])).toBe(
      `select 'x', '$1', "$2" from t where a = '7' and b = 'it''s $1'`,
    );
    expect(inlineStatement("select $1, $2, $3", [null, undefined, true])).toBe("select NULL, NULL, 'true'");
    expect(inlineStatement("select $1", ["O'Brien"])).toBe("select 'O''Brien'");
    // a backslash: an escape string whose backslash is doubled
    expect(inlineStatement("select $1", ["a\\b"])).toBe("select  E'a\\\\b'");
    expect(inlineStatement("select $1", [Buffer.from([0, 255, 16])])).toBe("select '\\x00ff10'");
    expect(
      inlineStatement(
        "select $10",
        Array.from({ length: 10 }, (_, i) => i + 1),
      ),
    ).toBe("select '10'");
  });

  it("refuses what it cannot write safely, before anything is sent", () => {
    expect(() => inlineStatement("select $1", ["a\0b"])).toThrow(/0x00/);
    expect(() => inlineStatement("select $2", ["a"])).toThrow(/\$2 of 1/);
    expect(() => inlineStatement("select 'open", [])).toThrow(/Unterminated/);
  });
});

describe("writes kept for the commit", () => {
  onPostgres("store every value exactly as a parameter would have", async () => {
    const user = await makeUser(db);
    const at = new Date("2026-12-01T10:00:00.000Z").toISOString();
    await writeTransaction(db, async (trx) => {
      sendWritesAtCommit(trx);
      for (const [i, message] of HOSTILE.entries())
        await recordEvent(trx, { actorId: user.id, subjectUserId: user.id, type: `hostile.${i}`, entityType: "user", entityId: user.id, message, now: at });
      // kept, not yet sent: the transaction itself does not see them
      expect(await trx.selectFrom("events").select("id").where("subject_user_id", "=", user.id).execute()).toHaveLength(0);
    });
    const stored = await db.selectFrom("events").select(["type", "message", "created_at"]).where("subject_user_id", "=", user.id).execute();
    expect(stored.sort((a, b) => a.type.localeCompare(b.type, "en", { numeric: true })).map((e) => e.message)).toEqual(HOSTILE);
    expect(new Set(stored.map((e) => e.created_at))).toEqual(new Set([at]));
    expect(await db.selectFrom("events").select("id").limit(1).execute()).toHaveLength(1);
  });

  onPostgres("one that fails at the commit takes the whole transaction with it", async () => {
    const user = await makeUser(db);
    const course = await makeCourse(db);
    await createEnrollment(db, { studentId: user.id, courseId: course.id });
    const marker = `rolled back ${crypto.randomUUID()}`;
    await expect(
      writeTransaction(db, async (trx) => {
        await trx.updateTable("users").set({ full_name: marker }).where("id", "=", user.id).execute();
        sendWritesAtCommit(trx);
        await recordEvent(trx, { actorId: null, subjectUserId: user.id, type: "kept", entityType: "user", entityId: user.id, message: marker });
        // the learner's second enrolment in the course: refused by its unique key, at the commit
        const twice = {
          id: crypto.randomUUID(),
          student_id: user.id,
          course_id: course.id,
          status: "enrolled" as const,
          progress_percentage: 0,
          enrollment_date: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        };
        await writeLater(trx, trx.insertInto("enrollments").values(twice));
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await db.selectFrom("users").select("full_name").where("id", "=", user.id).executeTakeFirstOrThrow()).full_name).not.toBe(marker);
    expect(await db.selectFrom("events").select("id").where("message", "=", marker).execute()).toHaveLength(0);
  });

  onPostgres("a write joining the transaction, or sendKeptWrites, sends what was kept first, so it reads it", async () => {
    const user = await makeUser(db);
    await writeTransaction(db, async (trx) => {
      sendWritesAtCommit(trx);
      await recordEvent(trx, { actorId: null, subjectUserId: user.id, type: "kept.1", entityType: "user", entityId: user.id, message: "one" });
      const seen = await writeTransaction(trx, (inner) => inner.selectFrom("events").select("type").where("subject_user_id", "=", user.id).execute());
      expect(seen.map((e) => e.type)).toEqual(["kept.1"]);
      await recordEvent(trx, { actorId: null, subjectUserId: user.id, type: "kept.2", entityType: "user", entityId: user.id, message: "two" });
      await sendKeptWrites(trx);
      expect(await trx.selectFrom("events").select("type").where("subject_user_id", "=", user.id).execute()).toHaveLength(2);
    });
  });

  it("without sendWritesAtCommit, and on SQLite, each write runs at once", async () => {
    const user = await makeUser(db);
    await writeTransaction(db, async (trx) => {
      await recordEvent(trx, { actorId: null, subjectUserId: user.id, type: "now", entityType: "user", entityId: user.id, message: "at once" });
      expect(await trx.selectFrom("events").select("id").where("subject_user_id", "=", user.id).execute()).toHaveLength(1);
    });
    await writeTransaction(db, async (trx) => {
      sendWritesAtCommit(trx);
      await recordEvent(trx, { actorId: null, subjectUserId: user.id, type: "later", entityType: "user", entityId: user.id, message: "kept on PostgreSQL" });
      const seen = await trx.selectFrom("events").select("id").where("subject_user_id", "=", user.id).execute();
      expect(seen).toHaveLength(TEST_DIALECT === "postgres" ? 1 : 2);
    });
  });

  onPostgres("an enrolment in a class, paid by card, holds the writes' turn for two round trips after taking it", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const course = await makeCourse(db, { price: 1450 });
    const day = "2027-04-01";
    const cls = await createClass(
      db,
      course.id,
      { start_date: day, end_date: day, sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 3 },
      trainer.id,
      new Date("2026-12-01T00:00:00Z"),
    );
    const learner = await makeUser(db);
    // the learner's student number given by an earlier enrolment, as nearly every learner's is
    await createEnrollment(db, { studentId: learner.id, courseId: (await makeCourse(db)).id });
    const sent: string[] = [];
    const real = pg.Client.prototype.query;
    const counting = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      if (typeof args[0] === "string") sent.push(args[0]);
      return (real as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    try {
      await createEnrollment(db, { studentId: learner.id, courseId: course.id, classId: cls.id });
    } finally {
      counting.mockRestore();
    }
    // the turn comes with the audit chain's head and the actor's email (take_writes_turn)
    const turn = sent.findIndex((q) => q.includes("take_writes_turn("));
    expect(turn).toBeGreaterThan(0);
    const inTurn = sent.slice(turn + 1);
    // the next invoice number, then every write with the commit
    expect(inTurn).toHaveLength(2);
    expect(inTurn[0]).toMatch(/insert into "finance_sequences"/);
    const batch = inTurn[1]!;
    expect(batch).not.toMatch(/"audit_head"/);
    for (const table of ["enrollments", "events", "invoices", "invoice_lines", "payments", "outbox_messages", "audit_log"])
      expect(batch).toContain(`insert into "${table}"`);
    expect(batch.trim()).toMatch(/commit$/);
    const made = await db
      .selectFrom("enrollments")
      .select(["class_id", "planned_start_date"])
      .where("student_id", "=", learner.id)
      .where("course_id", "=", course.id)
      .executeTakeFirstOrThrow();
    expect(made).toEqual({ class_id: cls.id, planned_start_date: day });
    const invoice = await db
      .selectFrom("invoices")
      .select(["total_cents", "paid_cents"])
      .where("buyer_id", "=", learner.id)
      .where("total_cents", "=", 145000)
      .executeTakeFirstOrThrow();
    expect(Number(invoice.paid_cents)).toBe(145000);
  });
});
