import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import { deliverDueMail } from "~/jobs/deliver-mail.server";
import { createMailer } from "~/mail/transport.server";
import { addQuestion, inviteLearnerAfterCompletion } from "~/models/standards/questionnaire.server";
import * as apiComplaints from "~/routes/api+/complaints";
import * as complaintForm from "~/routes/complaints+/new";
import * as forgotPassword from "~/routes/_landing+/forgot-password";
import * as questionnairePage from "~/routes/questionnaire.$token";
import { COMPLAINT_MESSAGES } from "~/schemas/complaint-text";
import { QUESTIONNAIRE_EXPIRED, TOO_MANY_QUESTIONNAIRES } from "~/schemas/improvement-text";
import type { RouteModule } from "../support/api-calls";
import { parseEml } from "../support/eml";
import { makeUser } from "../support/factories";
import { startMailSink, type MailSink } from "../support/mail-sink";
import { postFrom, serveRoutes, type RouteSockets } from "../support/route-sockets";
import { createTestDb, useAsAppDb } from "../support/test-db";

/**
 * The anonymous writes that can mail an address nobody has proven (complaints, password
 * resets) or add records without an account (questionnaire answers), over real sockets: each
 * client is its socket address (TRUST_PROXY off; 127.0.0.2, 127.0.0.3, … are distinct clients).
 * Requests fired at once must not slip past a limit, a refusal stores and mails nothing, and the
 * mail that does go out carries none of the sender's words at its top or in its subject.
 */
let db: DB;
let cleanup: () => Promise<void>;
let sockets: RouteSockets;
let sink: MailSink;

beforeAll(async () => {
  delete process.env.TRUST_PROXY;
  sink = await startMailSink();
  // the process's mailer (a reset is sent at once by the request's own process) is the sink too
  process.env.SMTP_URL = sink.url;
  process.env.APP_URL = "http://localhost:3000";
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  sockets = await serveRoutes([
    { prefix: "/api/complaints", route: apiComplaints as unknown as RouteModule },
    { prefix: "/complaints/new", route: complaintForm as unknown as RouteModule },
    { prefix: "/forgot-password", route: forgotPassword as unknown as RouteModule },
    { prefix: "/questionnaire/", route: questionnairePage as unknown as RouteModule, params: (rest) => ({ token: rest }) },
  ]);
});
afterAll(async () => {
  await sockets.close();
  await cleanup();
  await sink.close();
  delete process.env.SMTP_URL;
  delete process.env.APP_URL;
});

/** POSTs from a given loopback source address (a client of its own). */
const post = (path: string, from: string, body: string, type?: string) => postFrom(sockets.port, path, from, body, type);
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = "application/x-www-form-urlencoded";

const complaintsFrom = async (email: string) =>
  Number(
    (
      await db
        .selectFrom("complaints")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("email", "=", email)
        .executeTakeFirstOrThrow()
    ).n,
  );
const mailsTo = async (email: string) =>
  Number(
    (
      await db
        .selectFrom("outbox_messages")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("recipient_email", "=", email)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("complaints", () => {
  const perClient = RATE_LIMITS.complaintClient.limit;
  const perEmail = RATE_LIMITS.complaintEmail.limit;

  it(`one client fired 12 at once gets exactly ${perClient} lodged; the rest are 429 with Retry-After, stored and mailed nowhere`, async () => {
    const email = `cannon-${crypto.randomUUID().slice(0, 8)}@test.example`;
    // a new address per complaint, so only the client's limit can refuse
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post("/api/complaints", "127.0.0.2", JSON.stringify({ details: "The crane was late", email: `${i}-${email}` }))),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(perClient);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(12 - perClient);
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    expect(JSON.parse(refused[0]!.text).detail).toBe(COMPLAINT_MESSAGES.tooManyFromClient);
    let stored = 0;
    let mailed = 0;
    for (let i = 0; i < 12; i++) {
      stored += await complaintsFrom(`${i}-${email}`);
      mailed += await mailsTo(`${i}-${email}`);
    }
    expect(stored).toBe(perClient);
    expect(mailed).toBe(perClient);
    // the page form is the same model: refused too, with the message in the page
    const page = await post("/complaints/new", "127.0.0.2", form({ details: "Still late" }), FORM);
    expect(page.status).toBe(429);
    expect(JSON.parse(page.text).error).toBe(COMPLAINT_MESSAGES.tooManyFromClient);
    // another client is not held back by this one
    expect((await post("/api/complaints", "127.0.0.3", JSON.stringify({ details: "The crane was late" }))).status).toBe(201);
  });

  it(`one address is acknowledged at most ${perEmail} times a day, whichever clients name it`, async () => {
    const victim = `victim-${crypto.randomUUID().slice(0, 8)}@test.example`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        post("/complaints/new", `127.0.1.${i + 2}`, form({ details: "Please call me", name: "A visitor", email: victim }), FORM),
      ),
    );
    expect(answers.filter((a) => a.status === 302)).toHaveLength(perEmail);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(6 - perEmail);
    const failure = JSON.parse(refused[0]!.text) as { error: string; fieldErrors: Record<string, string> };
    expect(failure.fieldErrors.email).toBe(COMPLAINT_MESSAGES.tooManyForEmail);
    expect(await complaintsFrom(victim)).toBe(perEmail);
    expect(await mailsTo(victim)).toBe(perEmail);
    // the same complaint without the address is taken (the limit is on mail, not on complaining)
    expect((await post("/complaints/new", "127.0.1.20", form({ details: "Please call me" }), FORM)).status).toBe(302);
  });
});

describe("mail to an address nobody has proven", () => {
  const PHISH = "https://phish.example/claim-refund";

  it("a complaint's acknowledgement greets nobody by the name the sender typed, and its subject holds none of their words", async () => {
    const to = `ack-${crypto.randomUUID().slice(0, 8)}@test.example`;
    expect((await post("/complaints/new", "127.0.2.2", form({ details: `Refund at ${PHISH}`, name: PHISH, email: to }), FORM)).status).toBe(302);
    const mailer = createMailer({ SMTP_URL: sink.url, APP_URL: "http://localhost:3000", RTO_NAME: "Summit" });
    await deliverDueMail(db, { mailer, worker: "test" });
    const raw = sink.received.find((m) => m.to === to)?.raw;
    expect(raw).toBeDefined();
    const mail = parseEml(raw!);
    expect(mail.text!.split("\n")[0]).toBe("Hello there,");
    expect(raw).not.toContain("phish");
    expect(mail.headers.subject).toMatch(/^We received your complaint C-\d{4}-\d{4,}: /);
  });

  it("a password reset greets nobody by the name an account was registered with", async () => {
    const user = await makeUser(db, { full_name: `${PHISH} Smith` });
    expect((await post("/forgot-password", "127.0.2.3", form({ email: user.email }), FORM)).status).toBe(302);
    await expect.poll(() => sink.received.some((m) => m.to === user.email), { timeout: 10_000 }).toBe(true);
    const raw = sink.received.find((m) => m.to === user.email)!.raw;
    expect(parseEml(raw).text!.split("\n")[0]).toBe("Hello there,");
    expect(raw).not.toContain("phish");
  });
});

describe("questionnaire answers", () => {
  const perClient = RATE_LIMITS.questionnaireClient.limit;

  async function invitations(n: number, at = new Date()): Promise<{ tokens: string[]; question: string }> {
    const admin = await makeUser(db, { role: "admin" });
    const question = (await addQuestion(db, { audience: "learner", kind: "rating", prompt: `Was it useful ${crypto.randomUUID()}?` }, admin.id)).id;
    const learner = await makeUser(db);
    const tokens: string[] = [];
    for (let i = 0; i < n; i++) {
      const token = await writeTransaction(db, (trx) =>
        inviteLearnerAfterCompletion(trx, { enrollmentId: crypto.randomUUID(), studentId: learner.id, course: "Dogging", now: at }),
      );
      tokens.push(token!);
    }
    return { tokens, question };
  }
  const responses = async () =>
    Number(
      (
        await db
          .selectFrom("questionnaire_responses")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it(`one client answering ${perClient + 4} links at once gets exactly ${perClient} recorded`, async () => {
    const { tokens, question } = await invitations(perClient + 4);
    const before = await responses();
    const answers = await Promise.all(tokens.map((t) => post(`/questionnaire/${t}`, "127.0.3.2", form({ [`q_${question}`]: "4" }), FORM)));
    expect(answers.filter((a) => a.status === 302)).toHaveLength(perClient);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(4);
    expect(JSON.parse(refused[0]!.text).error).toBe(TOO_MANY_QUESTIONNAIRES);
    expect(Number(refused[0]!.headers["retry-after"])).toBeGreaterThan(0);
    expect(await responses()).toBe(before + perClient);
    // a refused link still works from another client
    const left = tokens.filter((_, i) => answers[i]!.status === 429);
    expect((await post(`/questionnaire/${left[0]}`, "127.0.3.3", form({ [`q_${question}`]: "4" }), FORM)).status).toBe(302);
  });

  it("an expired link is refused with 410 and records nothing", async () => {
    const { tokens, question } = await invitations(1, new Date(Date.now() - 61 * 86_400_000));
    const before = await responses();
    const answer = await post(`/questionnaire/${tokens[0]}`, "127.0.3.4", form({ [`q_${question}`]: "5" }), FORM);
    expect(answer.status).toBe(410);
    expect(JSON.parse(answer.text).error).toBe(QUESTIONNAIRE_EXPIRED);
    expect(await responses()).toBe(before);
  });
});
