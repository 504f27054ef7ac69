import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, sqlitePathFromUrl, writeTransaction, type DB } from "#db/connection";
import { createMailer, type Mailer } from "~/mail/transport.server";
import { runClassJobs } from "~/models/class-jobs.server";
import { createClass } from "~/models/class.server";
import { createEnrollment, updateEnrollmentProgress } from "~/models/enrollment.server";
import { joinWaitlist } from "~/models/waitlist.server";
import { MAX_ATTEMPTS, queueMail, RETRY_MINUTES } from "~/models/outbox.server";
import * as mailPage from "~/routes/admin+/mail";
import * as mailApi from "~/routes/api+/admin.mail";
import { call, sessionCookie, type RouteModule } from "../../tests/support/api-calls";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { SQLITE_DRIVER_PATH } from "#db/sqlite-driver";
import { judgeCopies } from "../../tests/support/mail-copies";
import { startMailSink, type MailSink } from "../../tests/support/mail-sink";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { deliverDueMail } from "./deliver-mail.server";

/**
 * The outbox delivered: retries with back-off, the give-up that waits for staff and their
 * "Send again", a worker killed between claim and send, a cause queued twice, and the class
 * reminders of a failed first send. Mail goes over SMTP to a local sink that counts each
 * message by its outbox key.
 */

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let sink: MailSink;
let mailer: Mailer;
let admin: { id: string };
let trainer: { id: string };
const ctx = { origin: "http://localhost:3000", rto: { name: "Summit", code: "90001" } };
const MINUTE = 60_000;

beforeAll(async () => {
  sink = await startMailSink();
  // the process's mailer (getMailer), which "Send again" delivers through, is this sink too
  process.env.SMTP_URL = sink.url;
  process.env.APP_URL = "http://localhost:3000";
  ({ db, url, cleanup } = await createTestDb());
  useAsAppDb(db);
  mailer = createMailer({ SMTP_URL: sink.url, APP_URL: ctx.origin, RTO_NAME: "Summit" });
  admin = await makeUser(db, { role: "admin" });
  trainer = await makeUser(db, { role: "trainer" });
});
afterAll(async () => {
  await cleanup();
  await sink.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

async function queue(key: string, recipientId: string, at: Date) {
  return writeTransaction(db, (trx) =>
    queueMail(trx, {
      key,
      template: "class-cancelled",
      recipientId,
      data: { course: "Dogging", start: "2026-12-01", end: "2026-12-02", path: "/courses" },
      now: at,
    }),
  );
}

const deliver = (at: Date, worker = "test-worker") => deliverDueMail(db, { mailer, worker, now: () => at, ctx });
const row = (key: string) => db.selectFrom("outbox_messages").selectAll().where("key", "=", key).executeTakeFirstOrThrow();
const arrived = (key: string) => sink.countsByKey().get(key) ?? 0;
async function until(ready: () => boolean, ms = 10_000) {
  for (const start = Date.now(); !ready(); await new Promise((r) => setTimeout(r, 20))) {
    if (Date.now() - start > ms) throw new Error("waited too long");
  }
}
/** Another process holding SQLite's write lock for 6 s (says "locked" once it holds it). */
const SQLITE_LOCKER = `
const SQLite = require(${JSON.stringify(SQLITE_DRIVER_PATH)});
const db = new SQLite(process.argv[1]);
db.exec("BEGIN IMMEDIATE");
process.stdout.write("locked\\n");
setTimeout(() => { db.exec("COMMIT"); db.close(); }, 6000);
`;

describe("delivery", () => {
  it("a send that fails is retried after the pause and delivered, once", async () => {
    const learner = await makeUser(db);
    const t0 = new Date("2026-11-20T00:00:00Z");
    await queue("retry-once", learner.id, t0);
    sink.refuse(1);
    expect(await deliver(t0)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    const failed = await row("retry-once");
    expect(failed).toMatchObject({ state: "failed", attempts: 1, claimed_by: null });
    expect(failed.next_attempt_at).toBe(new Date(t0.getTime() + RETRY_MINUTES[0] * MINUTE).toISOString());
    expect(failed.last_error).toMatch(/451/);
    // not before its pause is over
    expect((await deliver(new Date(t0.getTime() + 30_000))).sent).toBe(0);
    expect((await deliver(new Date(t0.getTime() + RETRY_MINUTES[0] * MINUTE))).sent).toBe(1);
    expect(await row("retry-once")).toMatchObject({ state: "sent", attempts: 2, last_error: null });
    expect(arrived("retry-once")).toBe(1);
  });

  it("after the last try the message is given up, shows on /admin/mail with its error, and Send again delivers it", async () => {
    const learner = await makeUser(db, { full_name: "Gita Given-Up" });
    let at = new Date("2026-11-21T00:00:00Z");
    await queue("given-up", learner.id, at);
    sink.refuse(MAX_ATTEMPTS);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const result = await deliver(at);
      expect(result.sent).toBe(0);
      at = new Date(at.getTime() + (RETRY_MINUTES[attempt - 1] ?? 0) * MINUTE);
    }
    expect(await row("given-up")).toMatchObject({ state: "given_up", attempts: MAX_ATTEMPTS });
    expect((await deliver(new Date(at.getTime() + 365 * 24 * 60 * MINUTE))).sent).toBe(0);
    expect(arrived("given-up")).toBe(0);

    const cookie = await sessionCookie(db, admin.id);
    const page = await call(mailPage as unknown as RouteModule, "GET", "/admin/mail?state=given_up&recipient=Given-Up", { cookie });
    expect(page.status).toBe(200);
    const listed = (await page.json()) as {
      total: number;
      messages: { id: string; key: string; state: string; attempts: number; last_error: string; resendable: boolean; recipient: { email: string } }[];
    };
    expect(listed.total).toBe(1);
    const [message] = listed.messages;
    expect(message).toMatchObject({ key: "given-up", state: "given_up", attempts: MAX_ATTEMPTS, resendable: true, recipient: { email: learner.email } });
    expect(message!.last_error).toMatch(/451/);

    // a learner or trainer may not
    const student = await sessionCookie(db, learner.id);
    const refused = await call(mailPage as unknown as RouteModule, "POST", "/admin/mail", {
      cookie: student,
      body: `intent=resend&id=${message!.id}`,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(refused.headers.get("Location")).toBe("/dashboard");
    expect(await row("given-up")).toMatchObject({ state: "given_up" });

    const resent = await call(mailPage as unknown as RouteModule, "POST", "/admin/mail?state=given_up", {
      cookie,
      body: `intent=resend&id=${message!.id}`,
      contentType: "application/x-www-form-urlencoded",
    });
    expect(resent.status).toBe(302);
    expect(resent.headers.get("Location")).toBe("/admin/mail?state=given_up");
    // the request delivers it at once, in this process
    for (let i = 0; i < 100 && arrived("given-up") === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(arrived("given-up")).toBe(1);
    for (let i = 0; i < 40 && (await row("given-up")).state !== "sent"; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await row("given-up")).toMatchObject({ state: "sent" });
    const audit = await db.selectFrom("audit_log").select(["action", "subject_id"]).where("action", "=", "mail.resent").execute();
    expect(audit).toEqual([{ action: "mail.resent", subject_id: message!.id }]);
  });

  it("a worker killed after claiming and before sending: another delivers the message once its lease lapses", async () => {
    const learner = await makeUser(db);
    const now = new Date();
    await queue("killed-mid-send", learner.id, now);
    // node itself, with tsx as a loader: SIGKILL reaches the process that holds the claim
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/support/outbox-claim-child.ts"), url, "3"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const said = await new Promise<string>((resolve) => child.stdout!.on("data", (d: Buffer) => resolve(d.toString())));
    expect(said).toMatch(/^claimed [1-9]/);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    const held = await row("killed-mid-send");
    expect(held.claimed_by).toMatch(/^doomed-/);
    // while the dead worker's lease holds, nobody else takes the message
    expect((await deliverDueMail(db, { mailer, worker: "survivor", ctx })).sent).toBe(0);
    await new Promise((r) => setTimeout(r, 3_200));
    expect((await deliverDueMail(db, { mailer, worker: "survivor", ctx })).sent).toBeGreaterThanOrEqual(1);
    expect((await deliverDueMail(db, { mailer, worker: "another", ctx })).sent).toBe(0);
    expect(await row("killed-mid-send")).toMatchObject({ state: "sent", attempts: 2 });
    expect(arrived("killed-mid-send")).toBe(1);
  }, 20_000);
});

describe("the mail list finds any recipient", () => {
  it("GET /api/admin/mail?recipient= finds mail to an address with no account, by address or name, and a user's by name", async () => {
    const at = new Date("2026-11-22T00:00:00Z");
    const learner = await makeUser(db, { full_name: "Lara Listed" });
    await queue("listed-user", learner.id, at);
    await writeTransaction(db, (trx) =>
      queueMail(trx, {
        key: "listed-complainant",
        template: "class-cancelled",
        recipientId: { email: "no.account.42@example.net", name: "Cora Complainant" },
        data: { course: "Dogging", start: "2026-12-01", end: "2026-12-02", path: "/courses" },
        now: at,
      }),
    );
    const cookie = await sessionCookie(db, admin.id);
    const keys = async (term: string) => {
      const res = await call(mailApi as unknown as RouteModule, "GET", `/api/admin/mail?recipient=${encodeURIComponent(term)}`, { cookie });
      expect(res.status).toBe(200);
      return ((await res.json()) as { messages: { key: string }[] }).messages.map((m) => m.key).sort();
    };
    expect(await keys("no.account.42@example")).toEqual(["listed-complainant"]);
    expect(await keys("NO.ACCOUNT.42@EXAMPLE.NET")).toEqual(["listed-complainant"]);
    expect(await keys("Cora Compl")).toEqual(["listed-complainant"]);
    expect(await keys("Lara Listed")).toEqual(["listed-user"]);
    expect(await keys("nobody-at-all-here")).toEqual([]);
  });
});

describe("the one duplicate, and no other", () => {
  it("a worker killed after the last byte of its message and before the server's acceptance: the second copy is judged the crash window", async () => {
    // a sink that takes 1.5 s to accept, so the worker dies with its message received whole but not yet accepted
    const slow = await startMailSink({ delayMs: 1_500 });
    try {
      const learner = await makeUser(db);
      const id = (await queue("killed-before-acceptance", learner.id, new Date()))!;
      const child = spawn(process.execPath, ["--import", "tsx", path.resolve("tests/support/outbox-send-child.ts"), url, slow.url, "3", id], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      await slow.held();
      child.kill("SIGKILL");
      const kill = Date.now();
      await new Promise((r) => child.once("exit", r));
      await until(() => slow.received.some((r) => r.key === "killed-before-acceptance"));
      // the sink accepted the first copy after its sender was dead: the moment of acceptance
      // says nothing about whether the sender lived (the crash test judged by it, and called this doubled)
      expect(slow.received.find((r) => r.key === "killed-before-acceptance")!.at).toBeGreaterThan(kill);
      await new Promise((r) => setTimeout(r, 3_200)); // the dead worker's lease lapses
      const survivor = createMailer({ SMTP_URL: slow.url, APP_URL: ctx.origin, RTO_NAME: "Summit" });
      expect((await deliverDueMail(db, { mailer: survivor, worker: "survivor", ctx, ids: [id] })).sent).toBe(1);
      const copies = slow.received.filter((r) => r.key === "killed-before-acceptance");
      expect(copies).toHaveLength(2);
      expect(judgeCopies(copies, [kill])).toBe("crash-window");
    } finally {
      await slow.close();
    }
  }, 60_000);

  it("copies judged: the same message across a kill is the crash window; without one, or two Message-IDs, it is doubled", () => {
    const copy = (dataAt: number, messageId = "<a@x>") => ({ messageId, dataAt, at: dataAt + 30 });
    expect(judgeCopies([copy(100)], [])).toBe("once");
    expect(judgeCopies([copy(100), copy(12_000)], [110])).toBe("crash-window");
    // a kill before the first copy's DATA began, or after the second's: two live senders
    expect(judgeCopies([copy(100), copy(12_000)], [90, 12_010])).toBe("doubled");
    expect(judgeCopies([copy(100), copy(200, "<b@x>")], [150])).toBe("doubled");
    expect(judgeCopies([copy(100), copy(12_000), copy(24_000)], [150])).toBe("doubled");
  });

  it("the database refusing the record of a sent message for a while: the worker records it once it can, and no other worker sends it again", async () => {
    const learner = await makeUser(db);
    const [message] = await db
      .selectFrom("outbox_messages")
      .select("id")
      .where("id", "=", (await queue("record-refused", learner.id, new Date()))!)
      .execute();
    // the worker has a database handle of its own (its own process, in production); on
    // PostgreSQL a pool of one connection, so holding that connection leaves it none
    const postgres = process.env.TEST_DIALECT === "postgres";
    process.env.PG_POOL_SIZE = "1";
    const workerDb = openDatabase(url);
    delete process.env.PG_POOL_SIZE;
    let blocked = 0;
    // for 6 s after the server accepted the message, longer than SQLite's busy timeout and the
    // pool's wait for a connection (5 s each): the first record fails
    const blockDatabase = (): Promise<void> =>
      postgres
        ? new Promise<void>((held) => void workerDb.connection().execute(async () => (held(), await new Promise((r) => setTimeout(r, 6_000)))))
        : new Promise<void>((held) => {
            const locker = spawn(process.execPath, ["-e", SQLITE_LOCKER, sqlitePathFromUrl(url)], { stdio: ["ignore", "pipe", "inherit"] });
            locker.stdout!.once("data", () => held());
          });
    const refusing: Mailer = {
      kind: "smtp",
      async send(mail) {
        const sent = await mailer.send(mail);
        if (blocked++ === 0) await blockDatabase();
        return sent;
      },
    };
    try {
      const result = await deliverDueMail(workerDb, { mailer: refusing, worker: "slow-recorder", leaseSeconds: 30, ctx, ids: [message!.id] });
      expect(result).toMatchObject({ sent: 1, failed: 0 });
      expect(await row("record-refused")).toMatchObject({ state: "sent", attempts: 1 });
      // once the claim would have lapsed, another worker finds nothing to send
      expect((await deliverDueMail(db, { mailer, worker: "later", ctx, now: () => new Date(Date.now() + 31_000), ids: [message!.id] })).sent).toBe(0);
      expect(arrived("record-refused")).toBe(1);
    } finally {
      await workerDb.destroy();
    }
  }, 30_000);
});

describe("a cause queued twice", () => {
  it("queues one message: the same key twice, a repeated offer pass, a retried offer mail", async () => {
    const learner = await makeUser(db);
    const at = new Date("2026-11-22T00:00:00Z");
    expect(await queue("twice", learner.id, at)).not.toBeNull();
    expect(await queue("twice", learner.id, at)).toBeNull();
    expect(await db.selectFrom("outbox_messages").select("id").where("key", "=", "twice").execute()).toHaveLength(1);

    const course = await makeCourse(db);
    const cls = await createClass(
      db,
      course.id,
      {
        start_date: "2026-12-20",
        end_date: "2026-12-20",
        sessions: [{ date: "2026-12-20", starts_at: "07:30", ends_at: "15:30" }],
        trainer_id: trainer.id,
        seats: 1,
      },
      trainer.id,
      at,
    );
    const [holder, waiting] = await Promise.all([makeUser(db), makeUser(db)]);
    const held = await createEnrollment(db, { studentId: holder.id, courseId: course.id, classId: cls.id, now: at });
    await joinWaitlist(db, { classId: cls.id, studentId: waiting.id, now: at });
    await updateEnrollmentProgress(db, { enrollmentId: held.id, progress: 0, status: "withdrawn", actorId: trainer.id, now: at });
    const offers = () =>
      db.selectFrom("outbox_messages").select(["key", "recipient_id"]).where("template", "=", "seat-offered").where("recipient_id", "=", waiting.id).execute();
    expect(await offers()).toHaveLength(1); // queued with the offer itself
    await runClassJobs(db, { now: at });
    await runClassJobs(db, { now: at });
    // the offer's mark lost (a restore, a job retried after a crash): its key still holds
    await db.updateTable("class_waitlist").set({ offer_mailed_at: null }).where("student_id", "=", waiting.id).execute();
    await runClassJobs(db, { now: at });
    expect(await offers()).toHaveLength(1);
  });
});

describe("the class reminders of a failed first send", () => {
  it("three reminders due, the first SMTP send refused once: all three are delivered", async () => {
    const course = await makeCourse(db);
    const cls = await createClass(
      db,
      course.id,
      {
        start_date: "2026-12-09",
        end_date: "2026-12-09",
        sessions: [{ date: "2026-12-09", starts_at: "07:30", ends_at: "15:30" }],
        trainer_id: trainer.id,
        seats: 5,
      },
      trainer.id,
      new Date("2026-11-20T00:00:00Z"),
    );
    const learners = await Promise.all([makeUser(db), makeUser(db), makeUser(db)]);
    for (const l of learners) await createEnrollment(db, { studentId: l.id, courseId: course.id, classId: cls.id, now: new Date("2026-11-20T00:00:00Z") });
    const due = new Date("2026-12-06T22:00:00Z"); // 7 December, 9 am in Sydney: two days before
    await runClassJobs(db, { now: due });
    const queued = await db.selectFrom("outbox_messages").select(["id", "key"]).where("key", "like", `class-reminder:${cls.id}:%`).execute();
    const keys = queued.map((k) => k.key);
    expect(keys).toHaveLength(3);
    // these three only: the other tests' messages wait in the same outbox
    const only = (at: Date) => deliverDueMail(db, { mailer, worker: "test-worker", now: () => at, ctx, ids: queued.map((q) => q.id) });
    sink.refuse(1);
    const first = await only(due);
    expect(first).toMatchObject({ sent: 2, failed: 1 });
    await runClassJobs(db, { now: new Date(due.getTime() + MINUTE) }); // the job's next pass queues nothing again
    expect(await db.selectFrom("outbox_messages").select("id").where("key", "like", `class-reminder:${cls.id}:%`).execute()).toHaveLength(3);
    const retry = await only(new Date(due.getTime() + RETRY_MINUTES[0] * MINUTE));
    expect(retry).toMatchObject({ sent: 1, failed: 0 });
    expect(keys.map(arrived)).toEqual([1, 1, 1]);
    const mails = sink.received.filter((r) => keys.includes(r.key));
    expect(new Set(mails.map((m) => m.to))).toEqual(new Set(learners.map((l) => l.email)));
    expect(mails.every((m) => /Subject: Reminder:/.test(m.raw))).toBe(true);
  });
});
