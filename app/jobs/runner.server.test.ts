import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { queueMail } from "~/models/outbox.server";
import { makeUser } from "../../tests/support/factories";
import { startMailSink, type MailSink } from "../../tests/support/mail-sink";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { SPENT_TOKEN_KEEP_DAYS } from "~/utils/form-token";
import { deliverNow, JOBS, runDueJobs, startJobs, stopJobs, type Job } from "./runner.server";

/**
 * The one runner: nothing starts it but the server's entry calling startJobs (importing the
 * server's modules starts nothing), JOBS=off turns it off in a process (no job, no nudge), each
 * job keeps its own period, and a job that fails is logged while the others still run.
 */

let db: DB;
let cleanup: () => Promise<void>;
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
  process.env.SMTP_URL = sink.url;
  process.env.APP_URL = "http://localhost:3000";
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterEach(async () => {
  await stopJobs();
  globalThis.__portalJobs = undefined;
  delete process.env.JOBS;
});
afterAll(async () => {
  await cleanup();
  await sink.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

async function queued(key: string): Promise<string> {
  const learner = await makeUser(db);
  return (await writeTransaction(db, (trx) =>
    queueMail(trx, {
      key,
      template: "class-cancelled",
      recipientId: learner.id,
      data: { course: "Dogging", start: "2026-12-01", end: "2026-12-02", path: "/courses" },
    }),
  ))!;
}
const state = (key: string) => db.selectFrom("outbox_messages").select("state").where("key", "=", key).executeTakeFirstOrThrow();

describe("the runner", () => {
  it("is not started by importing the server's entry and the runner's module", async () => {
    await import("~/entry.server");
    await import("./runner.server");
    expect(globalThis.__portalJobs?.timer).toBeUndefined();
  });

  it("JOBS=off: startJobs starts nothing and a request's nudge sends nothing", async () => {
    process.env.JOBS = "off";
    startJobs(db);
    expect(globalThis.__portalJobs?.timer).toBeUndefined();
    await queued("jobs-off");
    const id = (await db.selectFrom("outbox_messages").select("id").where("key", "=", "jobs-off").executeTakeFirstOrThrow()).id;
    deliverNow([id], db);
    await new Promise((r) => setTimeout(r, 500));
    expect(await state("jobs-off")).toEqual({ state: "queued" });
    expect(sink.countsByKey().get("jobs-off")).toBeUndefined();
  });

  it("on, the nudge delivers the message at once, and startJobs keeps one timer however often it is called", async () => {
    const id = await queued("jobs-on");
    deliverNow([id], db);
    for (let i = 0; i < 200 && (await state("jobs-on")).state !== "sent"; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await state("jobs-on")).toEqual({ state: "sent" });
    expect(sink.countsByKey().get("jobs-on")).toBe(1);
    startJobs(db);
    const timer = globalThis.__portalJobs?.timer;
    expect(timer).toBeDefined();
    startJobs(db);
    expect(globalThis.__portalJobs?.timer).toBe(timer);
  });

  it("runs each job when its period has passed; a job that throws does not stop the others", async () => {
    const runs: string[] = [];
    const jobs: Job[] = [
      {
        name: "fails",
        everySeconds: 0,
        run: async () => {
          runs.push("fails");
          throw new Error("boom");
        },
      },
      { name: "hourly", everySeconds: 3600, run: async () => void runs.push("hourly") },
      { name: "always", everySeconds: 0, run: async () => void runs.push("always") },
    ];
    const t0 = new Date("2026-11-28T00:00:00Z");
    await runDueJobs(db, t0, jobs);
    await runDueJobs(db, new Date(t0.getTime() + 60_000), jobs);
    await runDueJobs(db, new Date(t0.getTime() + 3_600_000), jobs);
    expect(runs).toEqual(["fails", "hourly", "always", "fails", "always", "fails", "hourly", "always"]);
  });

  it("drains the queues side by side: a drain still running does not hold the other back", async () => {
    const runs: string[] = [];
    let releaseMail!: () => void;
    const mailRunning = new Promise<void>((resolve) => (releaseMail = resolve));
    const jobs: Job[] = [
      { name: "periodic", everySeconds: 0, run: async () => void runs.push("periodic") },
      // a mail queue that keeps the drain busy until the webhooks' drain has run
      {
        name: "mail-queue",
        everySeconds: 0,
        drain: true,
        run: async () => {
          runs.push("mail starts");
          await mailRunning;
          runs.push("mail ends");
        },
      },
      {
        name: "webhook-queue",
        everySeconds: 0,
        drain: true,
        run: async () => {
          runs.push("webhooks");
          releaseMail();
        },
      },
    ];
    await runDueJobs(db, new Date("2026-11-29T00:00:00Z"), jobs);
    expect(runs).toEqual(["periodic", "mail starts", "webhooks", "mail ends"]);
  });

  it("its retention job removes the one-time tokens kept past their days, beside the outbox's old mail", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const spent = new Date("2026-10-01T00:00:00Z");
    await db.insertInto("spent_tokens").values({ user_id: admin.id, token: "old-key", purpose: "payment", used_at: spent.toISOString() }).execute();
    const retention = JOBS.find((job) => job.name === "retention")!;
    await retention.run(db, new Date(spent.getTime() + (SPENT_TOKEN_KEEP_DAYS - 1) * 864e5));
    expect(await db.selectFrom("spent_tokens").select("token").where("user_id", "=", admin.id).execute()).toHaveLength(1);
    await retention.run(db, new Date(spent.getTime() + (SPENT_TOKEN_KEEP_DAYS + 1) * 864e5));
    expect(await db.selectFrom("spent_tokens").select("token").where("user_id", "=", admin.id).execute()).toEqual([]);
  });
});
