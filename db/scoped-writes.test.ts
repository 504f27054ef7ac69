import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, takeWritesTurn, writeTransaction, type DB } from "./connection";
import { createTestDb, TEST_DIALECT } from "../tests/support/test-db";
import { makeCourse, makeUser } from "../tests/support/factories";
import { createClass } from "~/models/class.server";
import { createEnrollment } from "~/models/enrollment.server";
import { recordAudit } from "~/models/audit.server";
import { verifyAuditChain } from "~/models/audit-chain.server";

/**
 * Scoped writes (writeTransaction's `scopes`): on PostgreSQL they read beside each other and take
 * turns to write; a write of the same scope, or an unscoped one, waits. SQLite has one writer.
 */
const onPostgres = TEST_DIALECT === "postgres" ? it : it.skip;

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
});
afterAll(() => cleanup());

/** A promise and the function that settles it. */
function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** Whether `p` settles within `ms` (it is left running either way). */
async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

describe("scoped writes", () => {
  onPostgres("two of different scopes read at once; the second waits for the first's turn to write", async () => {
    const other = openDatabase(url);
    try {
      const held = gate();
      const inTurn = gate();
      const first = writeTransaction(
        db,
        async (trx) => {
          await takeWritesTurn(trx);
          inTurn.open();
          await held.opened;
        },
        { scopes: ["test:a"] },
      );
      await inTurn.opened;
      let readWhileTurnHeld = false;
      const second = writeTransaction(
        other,
        async (trx) => {
          await trx.selectFrom("courses").select("id").limit(1).execute();
          readWhileTurnHeld = true;
          await takeWritesTurn(trx);
        },
        { scopes: ["test:b"] },
      );
      expect(await settlesWithin(second, 300)).toBe(false);
      expect(readWhileTurnHeld).toBe(true);
      held.open();
      await Promise.all([first, second]);
    } finally {
      await other.destroy();
    }
  });

  onPostgres("one of the same scope waits from the start, and an unscoped write waits for every scoped one", async () => {
    const other = openDatabase(url);
    const third = openDatabase(url);
    try {
      const held = gate();
      const begun = gate();
      const first = writeTransaction(
        db,
        async () => {
          begun.open();
          await held.opened;
        },
        { scopes: ["test:a", "test:c"] },
      );
      await begun.opened;
      let sameScopeRan = false;
      const same = writeTransaction(other, async () => void (sameScopeRan = true), { scopes: ["test:c"] });
      let unscopedRan = false;
      const unscoped = writeTransaction(third, async () => void (unscopedRan = true));
      expect(await settlesWithin(Promise.race([same, unscoped]), 300)).toBe(false);
      expect([sameScopeRan, unscopedRan]).toEqual([false, false]);
      held.open();
      await Promise.all([first, same, unscoped]);
      expect([sameScopeRan, unscopedRan]).toEqual([true, true]);
    } finally {
      await other.destroy();
      await third.destroy();
    }
  });

  onPostgres("an enrolment that chose its scopes before a class of its course was added starts again with the course's seats", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const course = await makeCourse(db);
    const learner = await makeUser(db);
    const other = openDatabase(url);
    try {
      const added = gate();
      const day = "2027-04-01";
      // an unscoped write adding the course's first class, still open when the enrolment looks for classes
      const adding = writeTransaction(db, async (trx) => {
        await createClass(
          trx,
          course.id,
          { start_date: day, end_date: day, sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 2 },
          trainer.id,
          new Date("2026-12-01T00:00:00Z"),
        );
        await added.opened;
      });
      await new Promise((r) => setTimeout(r, 100));
      const enrolling = createEnrollment(other, { studentId: learner.id, courseId: course.id, now: new Date("2026-12-01T00:00:00Z") });
      await new Promise((r) => setTimeout(r, 200));
      added.open();
      await adding;
      const enrolled = await enrolling;
      const cls = await db.selectFrom("classes").select("id").where("course_id", "=", course.id).executeTakeFirstOrThrow();
      expect(enrolled.class_id).toBe(cls.id);
    } finally {
      await other.destroy();
    }
  });

  it("learners enrolling at once from several connections take exactly the seats a class has", async () => {
    const trainer = await makeUser(db, { role: "trainer" });
    const course = await makeCourse(db);
    const day = "2027-03-01";
    const cls = await createClass(
      db,
      course.id,
      { start_date: day, end_date: day, sessions: [{ date: day, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 3 },
      trainer.id,
      new Date("2026-12-01T00:00:00Z"),
    );
    const learners = await Promise.all(Array.from({ length: 8 }, () => makeUser(db)));
    const dbs = TEST_DIALECT === "postgres" ? [db, openDatabase(url), openDatabase(url), openDatabase(url)] : [db];
    try {
      const results = await Promise.allSettled(
        learners.map((l, i) =>
          createEnrollment(dbs[i % dbs.length]!, { studentId: l.id, courseId: course.id, classId: cls.id, now: new Date("2026-12-01T00:00:00Z") }),
        ),
      );
      const taken = results.filter((r) => r.status === "fulfilled");
      const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
      expect(taken).toHaveLength(3);
      expect(refused).toHaveLength(5);
      for (const r of refused) expect((r.reason as { status?: number }).status).toBe(409);
      const seated = await db
        .selectFrom("enrollments")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("class_id", "=", cls.id)
        .executeTakeFirstOrThrow();
      expect(Number(seated.n)).toBe(3);
      expect(await verifyAuditChain(db, { batch: 50 })).toMatchObject({ intact: true });
    } finally {
      for (const other of dbs.slice(1)) await other.destroy();
    }
  });
});

describe("the turn's look at the audit chain", () => {
  onPostgres("a write that waited for its turn links to the entry the write before it appended, with its actor's email as it was", async () => {
    const other = openDatabase(url);
    try {
      const [first, second] = [await makeUser(db, { role: "trainer" }), await makeUser(db, { role: "trainer" })];
      const held = gate();
      const inTurn = gate();
      const one = writeTransaction(
        db,
        async (trx) => {
          await takeWritesTurn(trx, [first.id]);
          inTurn.open();
          await held.opened;
          await recordAudit(trx, { action: "sign_out", actor: { id: first.id }, detail: "turn one" });
        },
        { scopes: ["test:look-a"] },
      );
      await inTurn.opened;
      const two = writeTransaction(
        other,
        async (trx) => {
          // waits for the first's commit, then reads the head that commit moved
          await takeWritesTurn(trx, [second.id]);
          await recordAudit(trx, { action: "sign_out", actor: { id: second.id }, detail: "turn two" });
        },
        { scopes: ["test:look-b"] },
      );
      expect(await settlesWithin(two, 300)).toBe(false);
      held.open();
      await Promise.all([one, two]);
      const rows = await db
        .selectFrom("audit_log")
        .select(["detail", "actor_email", "prev_hash", "hash"])
        .where("detail", "in", ["turn one", "turn two"])
        .orderBy("id")
        .execute();
      expect(rows.map((r) => [r.detail, r.actor_email])).toEqual([
        ["turn one", first.email],
        ["turn two", second.email],
      ]);
      expect(rows[1]!.prev_hash).toBe(rows[0]!.hash);
      expect(await verifyAuditChain(db, { batch: 50 })).toMatchObject({ intact: true });
    } finally {
      await other.destroy();
    }
  });

  onPostgres("an actor the turn was not told of is read when the entries are written", async () => {
    const [named, unnamed] = [await makeUser(db), await makeUser(db)];
    await writeTransaction(
      db,
      async (trx) => {
        await takeWritesTurn(trx, [named.id]);
        await recordAudit(trx, { action: "sign_out", actor: { id: named.id }, detail: "named" });
        await recordAudit(trx, { action: "sign_out", actor: { id: unnamed.id }, detail: "unnamed" });
      },
      { scopes: ["test:look-c"] },
    );
    const rows = await db.selectFrom("audit_log").select(["detail", "actor_email"]).where("detail", "in", ["named", "unnamed"]).orderBy("id").execute();
    expect(rows).toEqual([
      { detail: "named", actor_email: named.email },
      { detail: "unnamed", actor_email: unnamed.email },
    ]);
    expect(await verifyAuditChain(db, { batch: 50 })).toMatchObject({ intact: true });
  });
});

describe("audit entries at commit", () => {
  it("a transaction's entries are linked and written together when it commits, and none when it rolls back", async () => {
    const before = await db.selectFrom("audit_head").select("last_id").executeTakeFirst();
    const from = before?.last_id ?? 0;
    await writeTransaction(db, async (trx) => {
      for (const n of [1, 2, 3]) await recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: `batch ${n}` });
      // nothing is written before the commit
      expect(await trx.selectFrom("audit_log").select("id").where("id", ">", from).execute()).toEqual([]);
    });
    await expect(
      writeTransaction(db, async (trx) => {
        await recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: "rolled back" });
        throw new Error("no");
      }),
    ).rejects.toThrow("no");
    const rows = await db.selectFrom("audit_log").select(["id", "detail"]).where("id", ">", from).orderBy("id").execute();
    expect(rows).toEqual([
      { id: from + 1, detail: "batch 1" },
      { id: from + 2, detail: "batch 2" },
      { id: from + 3, detail: "batch 3" },
    ]);
    expect(await verifyAuditChain(db, { batch: 50 })).toMatchObject({ intact: true });
  });

  it("inside a transaction writeTransaction did not open, an entry is written at once", async () => {
    const from = (await db.selectFrom("audit_head").select("last_id").executeTakeFirst())?.last_id ?? 0;
    await db.transaction().execute(async (trx) => {
      await writeTransaction(trx, (w) => recordAudit(w, { action: "sign_out", actor: { id: null }, detail: "at once" }));
      expect(await trx.selectFrom("audit_log").select("detail").where("id", ">", from).execute()).toEqual([{ detail: "at once" }]);
    });
  });
});
