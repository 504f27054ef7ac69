import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { issueApiToken } from "~/api/auth.server";
import { createClass } from "~/models/class.server";
import { acceptEmployerInvitation, inviteEmployerUser } from "~/models/employers/employer.server";
import { acceptWorkerInvitation, setOwnConsent } from "~/models/employers/group-booking.server";
import { CREDIT_EXCEEDS_PAID, GST_TREATMENT_INVALID, OVERPAYMENT } from "~/schemas/invoice-text";
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_INVALID, IDEMPOTENCY_KEY_USED } from "~/utils/form-token";
import * as employersApi from "~/routes/api+/admin.employers";
import * as employerApi from "~/routes/api+/admin.employers.$id";
import * as bookingsApi from "~/routes/api+/employer.bookings";
import * as bookingApi from "~/routes/api+/employer.bookings.$id";
import * as bookingWorkersApi from "~/routes/api+/employer.bookings.$id.workers";
import * as workersApi from "~/routes/api+/employer.workers";
import * as workerApi from "~/routes/api+/employer.workers.$id";
import * as invoicesApi from "~/routes/api+/admin.invoices";
import * as invoiceApi from "~/routes/api+/admin.invoices.$id";
import * as paymentsApi from "~/routes/api+/admin.invoices.$id.payments";
import * as creditNotesApi from "~/routes/api+/admin.invoices.$id.credit-notes";
import * as courseApi from "~/routes/api+/admin.courses.$id";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeCourse } from "../../tests/support/factories";
import { conformsTo } from "../../tests/support/json-schema";
import { bodyOf, call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { openApiDocument } from "./openapi";

/**
 * Employers, their bookings and workers, and invoices, payments and credit notes over /api: the
 * pages' schemas and models, each answer checked against the OpenAPI document, the refusals too.
 */

const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];
const mod = (m: unknown) => m as RouteModule;

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let trainer: Caller;
let classId: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  trainer = await caller(db, "trainer");
  const course = await makeCourse(db, { name: "Dogging", price: 450 });
  const start = "2027-03-15";
  classId = (
    await createClass(
      db,
      course.id,
      { start_date: start, end_date: start, sessions: [{ date: start, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 8 },
      trainer.id,
    )
  ).id;
});
afterAll(async () => cleanup());

const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);

/** An employer added over /api, with one user who has chosen their password, holding an API token. */
async function employerOverApi(name: string, abn: string): Promise<{ id: string; user: Caller }> {
  const employer = await conforms(
    await call(mod(employersApi), "POST", "/api/admin/employers", {
      token: admin.token,
      json: {
        name,
        abn,
        contact_name: "Pat Lee",
        contact_email: `${crypto.randomUUID()}@example.com`,
        contact_phone: "02 9999 0000",
        address: "1 George St\nSydney NSW 2000",
      },
    }),
    "/api/admin/employers",
    "post",
  );
  const email = `${crypto.randomUUID()}@example.com`;
  const invited = await inviteEmployerUser(db, { employerId: employer.id, full_name: `${name} booker`, email, actor: { id: admin.id }, link: () => null });
  await acceptEmployerInvitation(db, { token: invited.token, password: "correct horse battery staple" });
  return { id: employer.id, user: { id: invited.userId, email, token: await issueApiToken(db, invited.userId) } };
}

const tokenOf = async (workerEmail: string) => {
  const message = await db
    .selectFrom("outbox_messages")
    .select("data")
    .where("template", "=", "worker-invitation")
    .where("recipient_id", "=", db.selectFrom("users").select("id").where("email", "=", workerEmail))
    .executeTakeFirstOrThrow();
  return (JSON.parse(message.data) as { link: string }).link.split("/").pop()!;
};

describe("employers, bookings and workers over /api", () => {
  it("adds and edits employers (administrators), refusing a bad ABN and other roles", async () => {
    const list = "/api/admin/employers";
    const one = "/api/admin/employers/{id}";
    const bad = await conforms(
      await call(mod(employersApi), "POST", list, { token: admin.token, json: { name: "", abn: "51 824 753 557", contact_email: "nope" } }),
      list,
      "post",
    );
    expect(Object.keys(bad.errors)).toEqual(expect.arrayContaining(["name", "abn", "contact_email", "contact_name"]));
    await conforms(await call(mod(employersApi), "GET", list, { token: trainer.token }), list, "get");
    const { id } = await employerOverApi("Harbour Lifting", "51 824 753 556");
    const clash = await conforms(
      await call(mod(employersApi), "POST", list, {
        token: admin.token,
        json: { name: "Copy", abn: "51824753556", contact_name: "A", contact_email: "a@example.com", contact_phone: "02 9999 0000", address: "x" },
      }),
      list,
      "post",
    );
    expect(clash.detail).toMatch(/ABN/);
    const edited = await conforms(
      await call(mod(employerApi), "PUT", "/x", {
        token: admin.token,
        params: { id },
        json: {
          name: "Harbour Lifting Pty Ltd",
          abn: "51 824 753 556",
          contact_name: "Pat Lee",
          contact_email: "accounts@example.com",
          contact_phone: "02 9999 0000",
          address: "2 George St",
        },
      }),
      one,
      "put",
    );
    expect(edited).toMatchObject({ name: "Harbour Lifting Pty Ltd", abn: "51824753556" });
    // PUT is partial: the fields left out keep their values, and what is sent is checked as a whole
    const partly = await conforms(
      await call(mod(employerApi), "PUT", "/x", { token: admin.token, params: { id }, json: { contact_phone: "02 8888 1111" } }),
      one,
      "put",
    );
    const kept = {
      name: "Harbour Lifting Pty Ltd",
      abn: "51824753556",
      contact_name: "Pat Lee",
      contact_email: "accounts@example.com",
      address: "2 George St",
    };
    expect(partly).toEqual(expect.objectContaining({ ...kept, contact_phone: "02 8888 1111" }));
    const blanked = await conforms(await call(mod(employerApi), "PUT", "/x", { token: admin.token, params: { id }, json: { name: " " } }), one, "put");
    expect(Object.keys(blanked.errors)).toEqual(["name"]);
    expect(await bodyOf(await call(mod(employerApi), "GET", "/x", { token: admin.token, params: { id } }))).toEqual(partly);
    const listed = await conforms(await call(mod(employersApi), "GET", list, { token: admin.token }), list, "get");
    expect(listed.employers.find((e: { id: string }) => e.id === id)).toMatchObject({ users: 1, bookings: 0 });
    await conforms(await call(mod(employerApi), "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), one, "get");
  });

  it("books seats, names workers up to the seats, and scopes every read to the caller's organisation", async () => {
    const mine = await employerOverApi("Mine Cranes", "33 051 775 556");
    const theirs = await employerOverApi("Their Rigging", "49 004 028 077");
    const list = "/api/employer/bookings";
    const one = "/api/employer/bookings/{id}";
    const workers = "/api/employer/bookings/{id}/workers";
    const email = (n: string) => `${n}-${crypto.randomUUID()}@example.com`;
    const ana = email("ana");
    const booked = await conforms(
      await call(mod(bookingsApi), "POST", list, {
        token: mine.user.token,
        json: { class_id: classId, seats: 3, workers: [{ full_name: "Ana Worker", email: ana }] },
      }),
      list,
      "post",
    );
    expect(booked).toMatchObject({ seats: 3, seats_booked: 3, workers: 1, accepted: 0, released: false });
    expect(booked.worker_list[0]).toMatchObject({ full_name: "Ana Worker", state: "invited", consent: "unanswered", results: null });
    // more than the class has left: a 409, nothing stored
    await conforms(await call(mod(bookingsApi), "POST", list, { token: theirs.user.token, json: { class_id: classId, seats: 6 } }), list, "post");
    const invalid = await conforms(
      await call(mod(bookingsApi), "POST", list, { token: mine.user.token, json: { class_id: classId, seats: 0, workers: [{ full_name: "", email: "x" }] } }),
      list,
      "post",
    );
    expect(invalid.errors).toHaveProperty("seats");
    await conforms(await call(mod(bookingsApi), "POST", list, { token: admin.token, json: {} }), list, "post");

    // more workers later, up to the seats held
    const added = await conforms(
      await call(mod(bookingWorkersApi), "POST", "/x", {
        token: mine.user.token,
        params: { id: booked.id },
        json: {
          workers: [
            { full_name: "Ben Worker", email: email("ben") },
            { full_name: "Cy Worker", email: email("cy") },
          ],
        },
      }),
      workers,
      "post",
    );
    expect(added.workers).toBe(3);
    const tooMany = await conforms(
      await call(mod(bookingWorkersApi), "POST", "/x", {
        token: mine.user.token,
        params: { id: booked.id },
        json: { workers: [{ full_name: "Di Worker", email: email("di") }] },
      }),
      workers,
      "post",
    );
    expect(tooMany.detail).toMatch(/holds 3 seats/);
    // another employer's booking and worker are not found
    await conforms(await call(mod(bookingApi), "GET", "/x", { token: theirs.user.token, params: { id: booked.id } }), one, "get");
    await conforms(
      await call(mod(bookingWorkersApi), "POST", "/x", {
        token: theirs.user.token,
        params: { id: booked.id },
        json: { workers: [{ full_name: "X", email: email("x") }] },
      }),
      workers,
      "post",
    );
    const anaId = booked.worker_list[0].id as string;
    const hidden = await call(mod(workerApi), "GET", "/x", { token: theirs.user.token, params: { id: anaId } });
    expect(hidden.status).toBe(404);
    await conforms(hidden, "/api/employer/workers/{id}", "get");
    expect(
      (await conforms(await call(mod(workersApi), "GET", "/api/employer/workers", { token: theirs.user.token }), "/api/employer/workers", "get")).workers,
    ).toEqual([]);

    // the worker accepts and shares their results, then withdraws: the employer sees it each time
    const accepted = await acceptWorkerInvitation(db, {
      token: await tokenOf(ana),
      signedInUserId: null,
      consent: "yes",
      usi: null,
      phone: null,
      date_of_birth: null,
      full_name: "Ana Worker",
      password: "a long enough password",
    });
    let seen = await conforms(await call(mod(workerApi), "GET", "/x", { token: mine.user.token, params: { id: anaId } }), "/api/employer/workers/{id}", "get");
    expect(seen).toMatchObject({ state: "enrolled", consent: "yes", results: { statements: [] } });
    await setOwnConsent(db, { userId: accepted.userId, workerId: anaId, consent: "no" });
    seen = await conforms(await call(mod(workerApi), "GET", "/x", { token: mine.user.token, params: { id: anaId } }), "/api/employer/workers/{id}", "get");
    expect(seen).toMatchObject({ consent: "no", results: null });
    const mineList = await conforms(await call(mod(bookingsApi), "GET", list, { token: mine.user.token }), list, "get");
    expect(mineList.bookings).toEqual([expect.objectContaining({ id: booked.id, accepted: 1, workers: 3 })]);
    // administrators and learners are not employers' users
    await conforms(await call(mod(workersApi), "GET", "/api/employer/workers", { token: admin.token }), "/api/employer/workers", "get");
  });
});

describe("invoices, payments and credit notes over /api", () => {
  it("lists the booking's invoice, records part payments, and refuses a credit note above what was paid", async () => {
    const list = "/api/admin/invoices";
    const one = "/api/admin/invoices/{id}";
    const pay = "/api/admin/invoices/{id}/payments";
    const credit = "/api/admin/invoices/{id}/credit-notes";
    const employer = await employerOverApi("Invoice Cranes", "48 123 123 124");
    await conforms(
      await call(mod(bookingsApi), "POST", "/api/employer/bookings", { token: employer.user.token, json: { class_id: classId, seats: 2 } }),
      "/api/employer/bookings",
      "post",
    );
    const page = await conforms(
      await call(mod(invoicesApi), "GET", `${list}?buyer=${encodeURIComponent("Invoice Cranes")}`, { token: admin.token }),
      list,
      "get",
    );
    expect(page.invoices).toHaveLength(1);
    expect(page.invoices[0]).toMatchObject({ buyer_kind: "employer", buyer_abn: "48123123124", total_cents: 90_000, paid_cents: 0, status: "owed" });
    expect(page.totals).toMatchObject({ count: 1, owed_cents: 90_000 });
    await conforms(await call(mod(invoicesApi), "GET", `${list}?status=lost`, { token: admin.token }), list, "get");
    const id = page.invoices[0].id as string;

    const invoice = await conforms(await call(mod(invoiceApi), "GET", "/x", { token: admin.token, params: { id } }), one, "get");
    expect(invoice.lines).toEqual([
      expect.objectContaining({ quantity: 2, unit_price_cents: 45_000, amount_cents: 90_000, gst_treatment: "gst_free", gst_cents: 0 }),
    ]);
    await conforms(await call(mod(invoiceApi), "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), one, "get");
    await conforms(await call(mod(invoiceApi), "GET", "/x", { token: employer.user.token, params: { id } }), one, "get");

    const payment = { method: "bank_transfer", reference: "EFT 1234", received_on: "2026-11-20" };
    const part = await conforms(
      await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...payment, amount: "300.00" } }),
      pay,
      "post",
    );
    expect(part).toMatchObject({ paid_cents: 30_000, owed_cents: 60_000, status: "part_paid" });
    const over = await conforms(
      await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...payment, amount: "600.01" } }),
      pay,
      "post",
    );
    expect(over.detail).toBe(OVERPAYMENT);
    await conforms(
      await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...payment, method: "cash", amount: "ten" } }),
      pay,
      "post",
    );
    // a payment is recorded once it has come in: a day after today is refused, at the field, and nothing is stored
    const later = await conforms(
      await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params: { id }, json: { ...payment, received_on: "2099-01-01", amount: "1.00" } }),
      pay,
      "post",
    );
    expect(later.detail).toBe("Date received cannot be in the future");
    expect(await db.selectFrom("payments").select("id").where("invoice_id", "=", id).where("received_on", "=", "2099-01-01").execute()).toEqual([]);

    const tooMuch = await conforms(
      await call(mod(creditNotesApi), "POST", "/x", { token: admin.token, params: { id }, json: { amount: "300.01", reason: "One worker could not attend" } }),
      credit,
      "post",
    );
    expect(tooMuch.detail).toBe(CREDIT_EXCEEDS_PAID);
    const credited = await conforms(
      await call(mod(creditNotesApi), "POST", "/x", { token: admin.token, params: { id }, json: { amount: "300.00", reason: "One worker could not attend" } }),
      credit,
      "post",
    );
    expect(credited).toMatchObject({ credited_cents: 30_000, refundable_cents: 0 });
    expect(credited.credit_notes).toEqual([expect.objectContaining({ amount_cents: 30_000, gst_cents: 0, reason: "One worker could not attend" })]);
    await conforms(await call(mod(creditNotesApi), "POST", "/x", { token: trainer.token, params: { id }, json: {} }), credit, "post");
  });

  it("an Idempotency-Key makes a repeated payment, credit note or booking store once, for its caller alone", async () => {
    const bookings = "/api/employer/bookings";
    const pay = "/api/admin/invoices/{id}/payments";
    const credit = "/api/admin/invoices/{id}/credit-notes";
    const employer = await employerOverApi("Repeat Cranes", "53 004 085 616");
    const key = (k: string) => ({ [IDEMPOTENCY_KEY_HEADER]: k });
    const book = () =>
      call(mod(bookingsApi), "POST", bookings, { token: employer.user.token, headers: key("book-once-1"), json: { class_id: classId, seats: 1 } });
    await conforms(await book(), bookings, "post");
    const again = await conforms(await book(), bookings, "post");
    expect(again.detail).toBe(IDEMPOTENCY_KEY_USED("book-once-1"));
    const held = await db.selectFrom("group_bookings").select("id").where("employer_id", "=", employer.id).execute();
    expect(held).toHaveLength(1);
    const invoice = await db.selectFrom("invoices").select("id").where("source_id", "=", held[0]!.id).executeTakeFirstOrThrow();
    const params = { id: invoice.id };

    const payment = { method: "bank_transfer", reference: "EFT 77", received_on: "2026-11-20", amount: "100.00" };
    const payOnce = (token: string) => call(mod(paymentsApi), "POST", "/x", { token, params, headers: key("pay-once-1"), json: payment });
    expect(await conforms(await payOnce(admin.token), pay, "post")).toMatchObject({ paid_cents: 10_000 });
    const repeated = await payOnce(admin.token);
    expect(repeated.status).toBe(409);
    expect((await conforms(repeated, pay, "post")).detail).toBe(IDEMPOTENCY_KEY_USED("pay-once-1"));
    // the same key is another administrator's own: their call is stored
    const other = await caller(db, "admin");
    expect(await conforms(await payOnce(other.token), pay, "post")).toMatchObject({ paid_cents: 20_000 });
    // without the header each call is stored, as before
    await conforms(await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params, json: payment }), pay, "post");
    expect(await db.selectFrom("payments").select("id").where("invoice_id", "=", invoice.id).execute()).toHaveLength(3);
    // a key the /api cannot keep is a 400, nothing stored
    const bad = await call(mod(paymentsApi), "POST", "/x", { token: admin.token, params, headers: key("x".repeat(256)), json: payment });
    expect([bad.status, (await conforms(bad, pay, "post")).detail]).toEqual([400, IDEMPOTENCY_KEY_INVALID]);
    expect(await db.selectFrom("payments").select("id").where("invoice_id", "=", invoice.id).execute()).toHaveLength(3);

    const note = () =>
      call(mod(creditNotesApi), "POST", "/x", { token: admin.token, params, headers: key("credit-once-1"), json: { amount: "10.00", reason: "Rebate" } });
    await conforms(await note(), credit, "post");
    expect((await conforms(await note(), credit, "post")).detail).toBe(IDEMPOTENCY_KEY_USED("credit-once-1"));
    expect(await db.selectFrom("credit_notes").select("id").where("invoice_id", "=", invoice.id).execute()).toHaveLength(1);
  });

  it("a course's GST treatment is set through the course schema and charged on the next invoice", async () => {
    const course = await makeCourse(db, { name: "Site induction refresher", price: 165 });
    const one = "/api/admin/courses/{id}";
    const refused = await conforms(
      await call(mod(courseApi), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { gst_treatment: "exempt" } }),
      one,
      "put",
    );
    expect(refused.errors).toEqual({ gst_treatment: GST_TREATMENT_INVALID });
    const saved = await conforms(
      await call(mod(courseApi), "PUT", "/x", { token: admin.token, params: { id: course.id }, json: { gst_treatment: "taxable" } }),
      one,
      "put",
    );
    expect(saved.gst_treatment).toBe("taxable");
    const start = "2027-04-12";
    const cls = await createClass(
      db,
      course.id,
      { start_date: start, end_date: start, sessions: [{ date: start, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer.id, seats: 4 },
      trainer.id,
    );
    const employer = await employerOverApi("Taxable Lifts", "16 009 661 901");
    await conforms(
      await call(mod(bookingsApi), "POST", "/api/employer/bookings", { token: employer.user.token, json: { class_id: cls.id, seats: 3 } }),
      "/api/employer/bookings",
      "post",
    );
    const page = await conforms(await call(mod(invoicesApi), "GET", "/api/admin/invoices?buyer=Taxable", { token: admin.token }), "/api/admin/invoices", "get");
    // 3 × $165.00 = $495.00, of which one eleventh is GST
    expect(page.invoices[0]).toMatchObject({ total_cents: 49_500, gst_cents: 4_500 });
  });
});
