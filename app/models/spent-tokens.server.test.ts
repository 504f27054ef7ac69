import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, writeTransaction, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { OVERPAYMENT } from "~/schemas/invoice-text";
import { DomainError } from "~/utils/errors";
import { FORM_ALREADY_SENT, IDEMPOTENCY_KEY_USED, SPENT_TOKEN_KEEP_DAYS } from "~/utils/form-token";
import { issueCreditNote, issueInvoice, recordPayment } from "./finance/invoice.server";
import { formOnce, recordSpentToken, removeExpiredTokens, storedOnce, type OnceToken } from "./spent-tokens.server";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let admin: string;
const NOW = new Date("2026-11-20T00:00:00Z");

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  admin = (await makeUser(db, { role: "admin" })).id;
});
afterAll(() => cleanup());

/** An invoice of $500 to a learner, nothing paid. */
async function anInvoice() {
  const learner = await makeUser(db);
  const course = await makeCourse(db);
  return writeTransaction(db, (trx) =>
    issueInvoice(trx, {
      buyer: { kind: "learner", id: learner.id, name: "Pat Rigger", email: "pat@example.test" },
      lines: [{ course_id: course.id, description: "Dogging", quantity: 1, unit_price_cents: 500_00 }],
      source: { kind: "booking", id: crypto.randomUUID() },
      issued_by: null,
      now: NOW,
    }),
  );
}

const payment = (invoiceId: string, once?: OnceToken, userId = admin) => ({
  invoiceId,
  method: "bank_transfer" as const,
  reference: "EFT 1",
  receivedOn: "2026-11-19",
  amountCents: 100_00,
  actor: { id: userId, client: null },
  now: NOW,
  once,
});

const paymentsOf = (invoiceId: string) => db.selectFrom("payments").select("amount_cents").where("invoice_id", "=", invoiceId).execute();
const creditNotesOf = (invoiceId: string) => db.selectFrom("credit_notes").select("amount_cents").where("invoice_id", "=", invoiceId).execute();

/**
 * Runs the calls at the same moment: on PostgreSQL each on a connection pool of its own, so they
 * truly overlap; SQLite has one writer in the process, which they share as the app's requests do.
 */
async function atOnce<T>(calls: Array<(db: DB) => Promise<T>>): Promise<PromiseSettledResult<T>[]> {
  const pools = TEST_DIALECT === "postgres" ? calls.map(() => openDatabase(url)) : calls.map(() => db);
  try {
    return await Promise.allSettled(calls.map((call, i) => call(pools[i]!)));
  } finally {
    if (TEST_DIALECT === "postgres") await Promise.all(pools.map((p) => p.destroy()));
  }
}

/** One call stored, the other refused with a 409 and `message`. */
function oneStoredOneRefused<T>(results: PromiseSettledResult<T>[], message: string) {
  expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  const refused = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as DomainError;
  expect(refused).toBeInstanceOf(DomainError);
  expect([refused.status, refused.message]).toEqual([409, message]);
}

describe("a form's one-time token stores its change once", () => {
  it("two payments posted at the same moment with the same token: one is stored, the other is told the form was already sent", async () => {
    const invoice = await anInvoice();
    const once = formOnce(crypto.randomUUID());
    oneStoredOneRefused(
      await atOnce([(d) => recordPayment(d, payment(invoice.id, once)), (d) => recordPayment(d, payment(invoice.id, once))]),
      FORM_ALREADY_SENT,
    );
    expect(await paymentsOf(invoice.id)).toEqual([{ amount_cents: 100_00 }]);
    const row = await db.selectFrom("invoices").select("paid_cents").where("id", "=", invoice.id).executeTakeFirstOrThrow();
    expect(Number(row.paid_cents)).toBe(100_00);
    const spent = await db.selectFrom("spent_tokens").selectAll().where("token", "=", once.token).execute();
    expect(spent).toEqual([{ user_id: admin, token: once.token, purpose: "payment", used_at: NOW.toISOString() }]);
  });

  it("a payment sent again later (the browser's back button) is refused before it could be called more than is owed", async () => {
    const invoice = await anInvoice();
    const once = formOnce(crypto.randomUUID());
    await recordPayment(db, { ...payment(invoice.id, once), amountCents: 500_00 });
    await expect(recordPayment(db, { ...payment(invoice.id, once), amountCents: 500_00 })).rejects.toMatchObject({ status: 409, message: FORM_ALREADY_SENT });
    expect(await paymentsOf(invoice.id)).toEqual([{ amount_cents: 500_00 }]);
  });

  it("two credit notes posted at the same moment with the same token: one note, one number drawn", async () => {
    const invoice = await anInvoice();
    await recordPayment(db, { ...payment(invoice.id), amountCents: 500_00 });
    const once = formOnce(crypto.randomUUID());
    const note = (d: DB) => issueCreditNote(d, { invoiceId: invoice.id, amountCents: 50_00, reason: "Class moved", actor: { id: admin }, now: NOW, once });
    oneStoredOneRefused(await atOnce([note, note]), FORM_ALREADY_SENT);
    expect(await creditNotesOf(invoice.id)).toEqual([{ amount_cents: 50_00 }]);
    const row = await db.selectFrom("invoices").select("credited_cents").where("id", "=", invoice.id).executeTakeFirstOrThrow();
    expect(Number(row.credited_cents)).toBe(50_00);
  });

  it("a refused change does not spend its token: the form corrected and sent again with it is stored", async () => {
    const invoice = await anInvoice();
    const once = formOnce(crypto.randomUUID());
    await expect(recordPayment(db, { ...payment(invoice.id, once), amountCents: 900_00 })).rejects.toMatchObject({ status: 422, message: OVERPAYMENT });
    expect(await db.selectFrom("spent_tokens").select("token").where("token", "=", once.token).execute()).toEqual([]);
    await recordPayment(db, payment(invoice.id, once));
    expect(await paymentsOf(invoice.id)).toEqual([{ amount_cents: 100_00 }]);
  });

  it("without a token (the seed, an /api call without the header) each call is stored, as before", async () => {
    const invoice = await anInvoice();
    await atOnce([(d) => recordPayment(d, payment(invoice.id)), (d) => recordPayment(d, payment(invoice.id))]);
    expect(await paymentsOf(invoice.id)).toHaveLength(2);
  });
});

describe("an Idempotency-Key", () => {
  it("sent twice at the same moment stores once; the second is refused naming the key", async () => {
    const invoice = await anInvoice();
    const once: OnceToken = { token: "retry-7f3a", from: "idempotency-key" };
    oneStoredOneRefused(
      await atOnce([(d) => recordPayment(d, payment(invoice.id, once)), (d) => recordPayment(d, payment(invoice.id, once))]),
      IDEMPOTENCY_KEY_USED("retry-7f3a"),
    );
    expect(await paymentsOf(invoice.id)).toHaveLength(1);
  });

  it("is the caller's own: another user's call with the same key is stored", async () => {
    const invoice = await anInvoice();
    const other = (await makeUser(db, { role: "admin" })).id;
    const once: OnceToken = { token: "same-key-both", from: "idempotency-key" };
    await recordPayment(db, payment(invoice.id, once));
    await recordPayment(db, payment(invoice.id, once, other));
    expect(await paymentsOf(invoice.id)).toHaveLength(2);
    await expect(recordPayment(db, payment(invoice.id, once, other))).rejects.toMatchObject({ status: 409 });
  });
});

describe("the table's primary key", () => {
  it("refuses a token written twice, which storedOnce answers as a repeat (the last word when two writes read before either wrote)", async () => {
    const once = formOnce(crypto.randomUUID());
    const spend = { userId: admin, purpose: "payment" as const, now: NOW };
    await writeTransaction(db, (trx) => recordSpentToken(trx, once, spend));
    await expect(storedOnce(db, once, admin, () => writeTransaction(db, (trx) => recordSpentToken(trx, once, spend)))).rejects.toMatchObject({
      status: 409,
      message: FORM_ALREADY_SENT,
    });
    // another unique clash is not a repeat: it stays the fault it is
    const fresh = formOnce(crypto.randomUUID());
    await expect(storedOnce(db, fresh, admin, () => writeTransaction(db, (trx) => recordSpentToken(trx, once, spend)))).rejects.not.toBeInstanceOf(DomainError);
  });
});

describe("retention", () => {
  it("removes tokens spent longer ago than they are kept, and keeps the rest", async () => {
    const later = new Date(NOW.getTime() + (SPENT_TOKEN_KEEP_DAYS + 1) * 24 * 60 * 60 * 1000);
    const old = crypto.randomUUID();
    const recent = crypto.randomUUID();
    await db
      .insertInto("spent_tokens")
      .values([
        { user_id: admin, token: old, purpose: "booking", used_at: NOW.toISOString() },
        { user_id: admin, token: recent, purpose: "booking", used_at: new Date(later.getTime() - 60_000).toISOString() },
      ])
      .execute();
    expect(await removeExpiredTokens(db, later)).toBeGreaterThanOrEqual(1);
    const left = await db.selectFrom("spent_tokens").select("token").where("token", "in", [old, recent]).execute();
    expect(left.map((r) => r.token)).toEqual([recent]);
  });
});
