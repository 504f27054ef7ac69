import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "#db/connection";
import { createTestDb, TEST_DIALECT } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { DomainError } from "~/utils/errors";
import { isAbn } from "~/utils/abn";
import { CLASS_FULL, CLASS_NOT_OPEN, onlySeatsLeft } from "~/schemas/class-text";
import { employerSchema } from "~/schemas/employer";
import { ABN_INVALID, INVITATION_USED, WORKER_DECLINED_BEFORE, WORKER_EMAIL_REFUSED } from "~/schemas/employer-text";
import { createClass, listUpcomingClasses } from "../class.server";
import { createEnrollment } from "../enrollment.server";
import { acceptEmployerInvitation, createEmployer, employerOfUser, inviteEmployerUser } from "./employer.server";
import {
  acceptWorkerInvitation,
  addWorkers,
  bookableClasses,
  createBooking,
  declineWorkerInvitation,
  listOwnBookings,
  releaseUnfilledSeats,
  setOwnConsent,
} from "./group-booking.server";
import { getBooking, getWorker, listWorkers } from "./employer-view.server";
import { getCertificateForViewer } from "../certificates/certificate.server";
import { renderMail } from "~/mail/templates.server";
import { getCreditNote, getInvoice, listEmployerInvoices } from "../finance/finance.server";
import { issueCreditNote, recordPayment } from "../finance/invoice.server";
import { renderCreditNotePdf } from "~/pdf/invoice-pdf.server";
import { creditNotePolicyLine } from "~/schemas/refund-policy";
import { pdfText } from "../../../tests/support/pdf-fixtures";
import { seatQuote } from "~/rules/invoice-rules";
import { FORM_ALREADY_SENT } from "~/utils/form-token";
import { formOnce } from "../spent-tokens.server";

let db: DB;
let url: string;
let cleanup: () => Promise<void>;
let trainer: string;
const NOW = new Date("2026-11-20T00:00:00Z");
const link = (token: string) => `http://localhost/invitation/${token}`;
const admin = { id: null, client: null };

/** Each employer needs an ABN of its own: random digits until the check digits add up (1 in 89). */
function anAbn(): string {
  for (;;) {
    const digits = String(10_000_000_000 + Math.floor(Math.random() * 89_999_999_999));
    if (isAbn(digits)) return digits;
  }
}

beforeAll(async () => {
  ({ db, url, cleanup } = await createTestDb());
  trainer = (await makeUser(db, { role: "trainer" })).id;
});
afterAll(() => cleanup());

async function classOf(courseId: string, seats: number, start = "2026-12-14") {
  return createClass(
    db,
    courseId,
    { start_date: start, end_date: start, sessions: [{ date: start, starts_at: "07:30", ends_at: "15:30" }], trainer_id: trainer, seats },
    trainer,
    NOW,
  );
}

/** An employer with one signed-up user. */
async function employerWithUser(name: string) {
  const employer = await createEmployer(
    db,
    employerSchema.parse({
      name,
      abn: anAbn(),
      contact_name: "Pat Lee",
      contact_email: `${crypto.randomUUID()}@example.com`,
      contact_phone: "02 9999 0000",
      address: "1 George St, Sydney NSW 2000",
    }),
    admin,
    NOW,
  );
  const invited = await inviteEmployerUser(db, {
    employerId: employer.id,
    full_name: `${name} booker`,
    email: `${crypto.randomUUID()}@example.com`,
    actor: admin,
    link,
    now: NOW,
  });
  await acceptEmployerInvitation(db, { token: invited.token, password: "correct horse battery staple", now: NOW });
  return { employer, user: { id: invited.userId, role: "employer" as const }, token: invited.token };
}

const tokenOf = async (workerId: string) => {
  const message = await db
    .selectFrom("outbox_messages")
    .select("data")
    .where("template", "=", "worker-invitation")
    .where("recipient_id", "=", db.selectFrom("booking_workers").select("user_id").where("id", "=", workerId))
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  return (JSON.parse(message.data) as { link: string }).link.split("/").pop()!;
};

describe("employers", () => {
  it("refuses an ABN whose check digits do not add up, and stores nothing", async () => {
    const result = employerSchema.safeParse({
      name: "Bad ABN Pty Ltd",
      abn: "51 824 753 557",
      contact_name: "A",
      contact_email: "a@example.com",
      contact_phone: "02 9999 0000",
      address: "x",
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues.find((i) => i.path[0] === "abn")!.message).toBe(ABN_INVALID);
    expect(
      employerSchema.parse({
        name: "Good",
        abn: "51 824 753 556",
        contact_name: "A",
        contact_email: "a@example.com",
        contact_phone: "02 9999 0000",
        address: "x",
      }).abn,
    ).toBe("51824753556");
  });

  it("an employer's user reads their own organisation; any other user's organisation is not found", async () => {
    const { employer, user } = await employerWithUser("Own Org Cranes");
    expect((await employerOfUser(db, user)).id).toBe(employer.id);
    for (const role of ["student", "trainer", "admin"] as const) {
      const other = await makeUser(db, { role });
      await expect(employerOfUser(db, other)).rejects.toMatchObject({ status: 404 });
    }
    // a user with the employer's role but no organisation (never stored by the portal) is refused the same way
    const orphan = await makeUser(db, { role: "employer" });
    await expect(employerOfUser(db, orphan)).rejects.toMatchObject({ status: 404 });
  });

  it("an invitation sets the password once, and is mailed through the outbox", async () => {
    const { user, token } = await employerWithUser("Once Cranes");
    const mail = await db.selectFrom("outbox_messages").select(["template"]).where("recipient_id", "=", user.id).execute();
    expect(mail.map((m) => m.template)).toEqual(["employer-invitation"]);
    await expect(acceptEmployerInvitation(db, { token, password: "another good password", now: NOW })).rejects.toMatchObject({
      status: 409,
      message: INVITATION_USED,
    });
  });
});

describe("group bookings take seats exactly once", () => {
  it("2 employers booking the last 5 seats at once get exactly 5", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 8);
    for (let i = 0; i < 3; i++) await createEnrollment(db, { studentId: (await makeUser(db)).id, courseId: course.id, classId: cls.id, now: NOW });
    const [a, b] = [await employerWithUser("Alpha Rigging"), await employerWithUser("Beta Lifting")];
    const connections = TEST_DIALECT === "postgres" ? [openDatabase(url), openDatabase(url)] : [db, db];
    try {
      const results = await Promise.allSettled(
        [a, b].map((e, i) => createBooking(connections[i]!, { user: e.user, class_id: cls.id, seats: 5, workers: [], link, now: NOW })),
      );
      const booked = results.filter((r) => r.status === "fulfilled");
      expect(booked).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as DomainError;
      expect(refused).toBeInstanceOf(DomainError);
      expect([refused.status, refused.message]).toEqual([409, CLASS_FULL]);
    } finally {
      if (TEST_DIALECT === "postgres") await Promise.all(connections.map((c) => c.destroy()));
    }
    const held = await db.selectFrom("group_bookings").select(["seats"]).where("class_id", "=", cls.id).execute();
    expect(held.map((h) => Number(h.seats))).toEqual([5]);
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(0);
    // a learner enrolling alone now finds the class full
    await expect(createEnrollment(db, { studentId: (await makeUser(db)).id, courseId: course.id, classId: cls.id, now: NOW })).rejects.toMatchObject({
      status: 409,
      message: CLASS_FULL,
    });
  });

  it("one employer's booking form posted twice at once with its token books once: one booking, one invoice, one invitation", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10);
    const { user } = await employerWithUser("Twice Sent Cranes");
    const once = formOnce(crypto.randomUUID());
    const worker = { full_name: "Kim Twice", email: `${crypto.randomUUID()}@example.com` };
    const book = (d: DB) => createBooking(d, { user, class_id: cls.id, seats: 3, workers: [worker], link, now: NOW, once });
    const connections = TEST_DIALECT === "postgres" ? [openDatabase(url), openDatabase(url)] : [db, db];
    try {
      const results = await Promise.allSettled(connections.map(book));
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === "rejected")!.reason as DomainError;
      expect(refused).toBeInstanceOf(DomainError);
      expect([refused.status, refused.message]).toEqual([409, FORM_ALREADY_SENT]);
    } finally {
      if (TEST_DIALECT === "postgres") await Promise.all(connections.map((c) => c.destroy()));
    }
    const held = await db.selectFrom("group_bookings").select(["id", "seats"]).where("class_id", "=", cls.id).execute();
    expect(held.map((h) => Number(h.seats))).toEqual([3]);
    expect(await listEmployerInvoices(db, user.id)).toHaveLength(1);
    const invitations = await db.selectFrom("booking_workers").select("id").where("booking_id", "=", held[0]!.id).execute();
    expect(invitations).toHaveLength(1);
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(7);
    expect(await db.selectFrom("spent_tokens").select(["user_id", "purpose"]).where("token", "=", once.token).execute()).toEqual([
      { user_id: user.id, purpose: "booking" },
    ]);
    // sent again once the class is full, the repeat is still told it was sent, not that the class is full
    await createBooking(db, { user: (await employerWithUser("Filler Lifting")).user, class_id: cls.id, seats: 7, workers: [], link, now: NOW });
    await expect(book(db)).rejects.toMatchObject({ status: 409, message: FORM_ALREADY_SENT });
  });

  it("more seats than are left says how many are left, at the seats; a course out of the catalogue takes no booking; nothing is stored", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 4);
    const { user } = await employerWithUser("Delta Hoists");
    await expect(createBooking(db, { user, class_id: cls.id, seats: 5, workers: [], link, now: NOW })).rejects.toMatchObject({
      status: 409,
      message: onlySeatsLeft(4),
      field: "seats",
    });
    expect(onlySeatsLeft(1)).toBe("Only 1 seat is left in this class");
    await db.updateTable("courses").set({ is_active: 0 }).where("id", "=", course.id).execute();
    await expect(createBooking(db, { user, class_id: cls.id, seats: 1, workers: [], link, now: NOW })).rejects.toMatchObject({
      status: 409,
      message: CLASS_NOT_OPEN,
      field: "class_id",
    });
    expect(await db.selectFrom("group_bookings").select("id").where("class_id", "=", cls.id).execute()).toEqual([]);
    expect(await db.selectFrom("invoices").select("id").where("source_kind", "=", "booking").where("buyer_name", "=", "Delta Hoists").execute()).toEqual([]);
  });

  it("names workers up to the seats held; the unfilled seats go back on the release day", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10, "2026-12-21");
    const { user } = await employerWithUser("Gamma Cranes");
    const booking = await createBooking(db, {
      user,
      class_id: cls.id,
      seats: 3,
      workers: [{ full_name: "Sam Worker", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: NOW,
    });
    expect(booking.release_on).toBe("2026-12-14");
    // the booking's tax invoice to the employer was issued with it: 3 seats at the course's price
    const invoice = await db
      .selectFrom("invoices")
      .select(["buyer_abn", "total_cents", "buyer_address_line1", "buyer_address_line2", "buyer_city", "buyer_region", "buyer_postcode", "buyer_country"])
      .where("source_kind", "=", "booking")
      .where("source_id", "=", booking.id)
      .executeTakeFirstOrThrow();
    expect(invoice.buyer_abn).toMatch(/^\d{11}$/);
    // the employer's typed address lands field by field: street, then town, state and postcode
    expect(invoice).toMatchObject({
      buyer_address_line1: "1 George St",
      buyer_address_line2: null,
      buyer_city: "Sydney",
      buyer_region: "NSW",
      buyer_postcode: "2000",
      buyer_country: "Australia",
    });
    expect(Number(invoice.total_cents)).toBe(3 * 120000);
    await expect(
      addWorkers(db, {
        user,
        bookingId: booking.id,
        workers: Array.from({ length: 3 }, (_, i) => ({ full_name: `W ${i}`, email: `${crypto.randomUUID()}@example.com` })),
        link,
        now: NOW,
      }),
    ).rejects.toMatchObject({ status: 422 });
    const [second] = await addWorkers(db, {
      user,
      bookingId: booking.id,
      workers: [{ full_name: "Jo Worker", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: new Date("2026-12-10T00:00:00Z"),
    });
    const sam = await acceptWorkerInvitation(db, {
      token: await tokenOf(booking.worker_ids[0]!),
      signedInUserId: null,
      consent: "yes",
      usi: null,
      phone: null,
      date_of_birth: null,
      full_name: "Sam Worker",
      password: "a long enough password",
      now: NOW,
    });
    // the worker's enrolment is confirmed by mail (queued with it): the employer is billed, and the greeting names nobody
    const confirmation = await db
      .selectFrom("outbox_messages")
      .selectAll()
      .where("template", "=", "enrolment-confirmed")
      .where("recipient_id", "=", sam.userId)
      .executeTakeFirstOrThrow();
    const mail = renderMail(
      { ...confirmation, template: "enrolment-confirmed", data: JSON.parse(confirmation.data) as Record<string, unknown> },
      { email: "sam@example.com", full_name: "Sam Worker" },
      { origin: "https://portal.example", rto: { name: "RTO", code: "1" } },
    );
    expect(mail.text).toContain("Hello there,");
    expect(mail.text).not.toContain("Sam");
    expect(mail.text).toMatch(/booked this seat and is invoiced for it/);
    expect(mail.text).toMatch(/- \d{1,2} Dec 2026, 7:30 am – 3:30 pm/);
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(7);
    const released = async () => (await getBooking(db, user, booking.id, NOW)).released;
    await releaseUnfilledSeats(db, new Date("2026-12-12T00:00:00Z"));
    expect(await released()).toBe(false);
    expect(await releaseUnfilledSeats(db, new Date("2026-12-14T00:00:00Z"))).toBeGreaterThanOrEqual(1);
    expect(await released()).toBe(true);
    expect(await releaseUnfilledSeats(db, new Date("2026-12-14T00:00:00Z"))).toBe(0);
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(9);
    // a worker accepting after the release takes a free seat of the class again
    await acceptWorkerInvitation(db, {
      token: await tokenOf(second!),
      signedInUserId: null,
      consent: "no",
      usi: null,
      phone: null,
      date_of_birth: null,
      full_name: "Jo Worker",
      password: "a long enough password",
      now: new Date("2026-12-14T01:00:00Z"),
    });
    expect((await listUpcomingClasses(db, course.id, NOW))[0]!.seats_left).toBe(8);
    expect((await getBooking(db, user, booking.id, NOW)).seats).toBe(2);
  });
});

describe("what an employer sees", () => {
  it("another employer's worker and booking are 404", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10);
    const mine = await employerWithUser("Delta Rigging");
    const theirs = await employerWithUser("Epsilon Hire");
    const booking = await createBooking(db, {
      user: theirs.user,
      class_id: cls.id,
      seats: 1,
      workers: [{ full_name: "Their Worker", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: NOW,
    });
    await expect(getWorker(db, mine.user, booking.worker_ids[0]!, NOW)).rejects.toMatchObject({ status: 404 });
    await expect(getBooking(db, mine.user, booking.id, NOW)).rejects.toMatchObject({ status: 404 });
    await expect(
      addWorkers(db, { user: mine.user, bookingId: booking.id, workers: [{ full_name: "X", email: "x@example.com" }], link, now: NOW }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await listWorkers(db, mine.user, NOW)).toEqual([]);
    expect((await getWorker(db, theirs.user, booking.worker_ids[0]!, NOW)).full_name).toBe("Their Worker");
  });

  it("a booking is priced before and after: the quote, the invoice, its mail and the employer's own invoices (another's are not found)", async () => {
    const course = await makeCourse(db, { price: 450 });
    const cls = await classOf(course.id, 10);
    const mine = await employerWithUser("Priced Cranes");
    const theirs = await employerWithUser("Other Cranes");
    const offered = (await bookableClasses(db, NOW)).find((c) => c.id === cls.id)!;
    const quote = seatQuote(3, offered);
    expect(quote).toEqual({ seat_cents: 45_000, seats: 3, gst_cents: offered.gst_treatment === "gst_free" ? 0 : 12_273, total_cents: 135_000 });
    const booking = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 3, workers: [], link, now: NOW });
    const confirmed = await getBooking(db, mine.user, booking.id, NOW);
    expect(confirmed.invoice).toMatchObject({
      seat_cents: 45_000,
      seats: 3,
      gst_cents: quote.gst_cents,
      total_cents: 135_000,
      owed_cents: 135_000,
      status: "owed",
    });
    const list = await listEmployerInvoices(db, mine.user.id, NOW);
    expect(list.map((i) => i.id)).toEqual([confirmed.invoice!.id]);
    expect(await listEmployerInvoices(db, theirs.user.id, NOW)).toEqual([]);
    expect(await getInvoice(db, confirmed.invoice!.id, { employerUserId: theirs.user.id }, NOW)).toBeNull();
    expect((await getInvoice(db, confirmed.invoice!.id, { employerUserId: mine.user.id }, NOW))!.number).toBe(confirmed.invoice!.number);
    const mail = await db
      .selectFrom("outbox_messages")
      .select(["recipient_email", "data"])
      .where("key", "=", `invoice-issued:${confirmed.invoice!.id}`)
      .executeTakeFirstOrThrow();
    expect(mail.recipient_email).toBe(mine.employer.contact_email);
    expect(JSON.parse(mail.data)).toMatchObject({
      number: confirmed.invoice!.number,
      totalCents: 135_000,
      path: `/employer/invoices/${confirmed.invoice!.id}/pdf`,
    });
  });

  it("a booking keeps the refund policy version in force when it is made; a credit note against its invoice names it, an older booking's says it was not recorded", async () => {
    const course = await makeCourse(db, { price: 300 });
    const cls = await classOf(course.id, 10, "2027-01-18");
    const mine = await employerWithUser("Refund Cranes");
    const before = new Date("2026-12-01T00:00:00Z");
    const after = new Date("2026-12-06T00:00:00Z");
    // a version taking effect between the two bookings: the first keeps the one it was made under
    await db
      .insertInto("refund_policies")
      .values({ version: "2026-12-05", effective_from: "2026-12-05", created_at: before.toISOString(), created_by: null })
      .execute();
    try {
      const first = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 2, workers: [], link, now: before });
      const second = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 1, workers: [], link, now: after });
      const older = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 1, workers: [], link, now: after });
      // a booking made before bookings kept their version: it stays unknown, not guessed from its day
      await db.updateTable("group_bookings").set({ refund_policy_version: null }).where("id", "=", older.id).execute();
      const kept = await db.selectFrom("group_bookings").select(["id", "refund_policy_version"]).where("id", "in", [first.id, second.id, older.id]).execute();
      expect(Object.fromEntries(kept.map((b) => [b.id, b.refund_policy_version]))).toEqual({
        [first.id]: "2026-11-22",
        [second.id]: "2026-12-05",
        [older.id]: null,
      });
      expect(first.refund_policy_version).toBe("2026-11-22");

      const refund = async (bookingId: string) => {
        const { invoice } = await getBooking(db, mine.user, bookingId, after);
        await recordPayment(db, {
          invoiceId: invoice!.id,
          method: "bank_transfer",
          reference: "EFT 1",
          receivedOn: "2026-12-06",
          amountCents: 300_00,
          actor: null,
        });
        const note = await issueCreditNote(db, { invoiceId: invoice!.id, amountCents: 150_00, reason: "A worker cancelled", actor: null, now: after });
        const record = (await getCreditNote(db, note.id, { learnerId: null }))!;
        return { version: record.refund_policy_version, pdf: await pdfText(Buffer.from(await renderCreditNotePdf(record))) };
      };
      const firstNote = await refund(first.id);
      expect(firstNote.version).toBe("2026-11-22");
      expect(firstNote.pdf).toContain(creditNotePolicyLine("2026-11-22"));
      expect((await refund(second.id)).version).toBe("2026-12-05");
      const olderNote = await refund(older.id);
      expect(olderNote.version).toBeNull();
      expect(olderNote.pdf).toContain(creditNotePolicyLine(null));
    } finally {
      await db.deleteFrom("refund_policies").where("version", "=", "2026-12-05").execute();
    }
  });

  it("a seat named for a worker is released before their link expires only when the mail says the day: accept before it", async () => {
    const course = await makeCourse(db);
    const mine = await employerWithUser("Release Day Cranes");
    const invitationText = async (workerId: string) => {
      const row = await db
        .selectFrom("outbox_messages")
        .selectAll()
        .where("template", "=", "worker-invitation")
        .where("recipient_id", "=", db.selectFrom("booking_workers").select("user_id").where("id", "=", workerId))
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.data).releaseOn).toBeDefined();
      return renderMail(
        { ...row, template: "worker-invitation", data: JSON.parse(row.data) as Record<string, unknown> },
        { email: "kim@example.com", full_name: "Kim Lau" },
        { origin: "https://portal.example", rto: { name: "RTO", code: "1" } },
      ).text;
    };
    // a class 5 days out: the seats go back on 22 Nov, before the link's 7 days end (27 Nov): the mail names 22 Nov
    const near = await createBooking(db, {
      user: mine.user,
      class_id: (await classOf(course.id, 10, "2026-11-25")).id,
      seats: 1,
      workers: [{ full_name: "Kim Lau", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: NOW,
    });
    expect(near.release_on).toBe("2026-11-22");
    const nearText = await invitationText(near.worker_ids[0]!);
    expect(nearText).toContain("Accept before 22 Nov 2026: on that day seats nobody has accepted are released");
    expect(nearText).toContain("It works once, until 27 Nov 2026, 11:00 am.");
    expect(nearText).not.toMatch(/for 7 days/);
    // a class weeks out: the link ends first, and the release job leaves the seat alone until after it has
    const far = await createBooking(db, {
      user: mine.user,
      class_id: (await classOf(course.id, 10, "2026-12-28")).id,
      seats: 1,
      workers: [{ full_name: "Kim Lau", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: NOW,
    });
    expect(far.release_on > "2026-11-27").toBe(true);
    const farText = await invitationText(far.worker_ids[0]!);
    expect(farText).toContain("It works once, until 27 Nov 2026, 11:00 am.");
    expect(farText).not.toContain("Accept before");
    await releaseUnfilledSeats(db, new Date("2026-11-27T01:00:00Z"));
    expect((await getBooking(db, mine.user, far.id, NOW)).released).toBe(false);
  });

  it("a worker declines: the link is spent, the employer sees 'Declined' and may name someone else in the seat, and it is audited", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10);
    const mine = await employerWithUser("Decline Cranes");
    const email = `${crypto.randomUUID()}@example.com`;
    const booking = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 1, workers: [{ full_name: "Lee Ngo", email }], link, now: NOW });
    const workerId = booking.worker_ids[0]!;
    const token = await tokenOf(workerId);
    expect(await declineWorkerInvitation(db, { token, now: NOW })).toEqual({ employer: "Decline Cranes" });
    const seen = await getBooking(db, mine.user, booking.id, NOW);
    expect(seen).toMatchObject({ seats: 1, workers: 0, declined: 1, accepted: 0 });
    expect(seen.workerList.map((w) => w.state)).toEqual(["declined"]);
    // the link is spent: neither accepting nor declining again works
    for (const again of [
      () =>
        acceptWorkerInvitation(db, {
          token,
          signedInUserId: null,
          consent: "yes",
          usi: null,
          phone: null,
          date_of_birth: null,
          password: "Rigging-Kestrel-42",
          now: NOW,
        }),
      () => declineWorkerInvitation(db, { token, now: NOW }),
    ]) {
      const failure = await again().catch((e: unknown) => e);
      expect(failure).toMatchObject({ status: 409, message: INVITATION_USED });
    }
    // the seat is the booking's again: someone else can be named, the same person not
    await expect(addWorkers(db, { user: mine.user, bookingId: booking.id, workers: [{ full_name: "Lee Ngo", email }], link, now: NOW })).rejects.toMatchObject({
      message: WORKER_DECLINED_BEFORE,
      field: "workers.0",
    });
    await addWorkers(db, {
      user: mine.user,
      bookingId: booking.id,
      workers: [{ full_name: "Max Ode", email: `${crypto.randomUUID()}@example.com` }],
      link,
      now: NOW,
    });
    expect(await getBooking(db, mine.user, booking.id, NOW)).toMatchObject({ workers: 1, declined: 1 });
    const worker = await db.selectFrom("booking_workers").select(["user_id", "declined_at"]).where("id", "=", workerId).executeTakeFirstOrThrow();
    expect(worker.declined_at).toBe(NOW.toISOString());
    expect(await listOwnBookings(db, worker.user_id)).toEqual([]);
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_id"])
      .where("action", "=", "booking.worker_declined")
      .where("subject_id", "=", booking.id)
      .execute();
    expect(audit).toEqual([{ actor_id: worker.user_id, subject_id: booking.id }]);
  });

  it("naming another organisation's employer, or a trainer, gets one wording that names neither, and stores nothing", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10);
    const mine = await employerWithUser("Zeta Lifting");
    const theirs = await employerWithUser("Eta Cranes");
    const booking = await createBooking(db, { user: mine.user, class_id: cls.id, seats: 3, workers: [], link, now: NOW });
    const emailOf = async (id: string) => (await db.selectFrom("users").select("email").where("id", "=", id).executeTakeFirstOrThrow()).email;
    const answers: unknown[] = [];
    for (const email of [await emailOf(theirs.user.id), await emailOf(trainer)]) {
      const failure = await addWorkers(db, { user: mine.user, bookingId: booking.id, workers: [{ full_name: "Named Person", email }], link, now: NOW }).catch(
        (e: unknown) => e,
      );
      expect(failure).toBeInstanceOf(DomainError);
      answers.push({ status: (failure as DomainError).status, message: (failure as DomainError).message });
    }
    expect(answers[0]).toEqual({ status: 422, message: WORKER_EMAIL_REFUSED });
    expect(answers[1]).toEqual(answers[0]);
    expect(WORKER_EMAIL_REFUSED).not.toMatch(/employer/i);
    expect(await db.selectFrom("booking_workers").select("id").where("booking_id", "=", booking.id).execute()).toEqual([]);
  });

  it("a worker's results are hidden until they consent, and again after they withdraw", async () => {
    const course = await makeCourse(db);
    const cls = await classOf(course.id, 10);
    const { user } = await employerWithUser("Zeta Cranes");
    const email = `${crypto.randomUUID()}@example.com`;
    const booking = await createBooking(db, { user, class_id: cls.id, seats: 1, workers: [{ full_name: "Kim Worker", email }], link, now: NOW });
    const workerId = booking.worker_ids[0]!;
    const accepted = await acceptWorkerInvitation(db, {
      token: await tokenOf(workerId),
      signedInUserId: null,
      consent: "no",
      usi: null,
      phone: null,
      date_of_birth: null,
      full_name: "Kim Worker",
      password: "a long enough password",
      now: NOW,
    });
    // the worker completes and is issued a statement of attainment
    await db
      .updateTable("enrollments")
      .set({ status: "completed", progress_percentage: 100, completion_date: NOW.toISOString() })
      .where("id", "=", accepted.enrollmentId)
      .execute();
    const certificateId = crypto.randomUUID();
    await db
      .insertInto("certificates")
      .values({
        id: certificateId,
        certificate_number: `SOA-${certificateId.slice(0, 8)}`,
        student_id: accepted.userId,
        course_id: course.id,
        enrollment_id: accepted.enrollmentId,
        tier_achieved: "tier_1",
        issue_date: "2026-11-21",
        issued_by: trainer,
        created_at: NOW.toISOString(),
        verification_code: certificateId.replace(/-/g, "").slice(0, 16).toUpperCase(),
      })
      .execute();

    let seen = await getWorker(db, user, workerId, NOW);
    expect(seen.state).toBe("completed");
    expect(seen.consent).toBe("no");
    expect(seen.results).toBeNull();
    expect(await getCertificateForViewer(db, certificateId, user)).toBeNull();

    await setOwnConsent(db, { userId: accepted.userId, workerId, consent: "yes", now: NOW });
    seen = await getWorker(db, user, workerId, NOW);
    expect(seen.results!.statements.map((s) => s.id)).toEqual([certificateId]);
    expect((await getCertificateForViewer(db, certificateId, user))!.id).toBe(certificateId);

    await setOwnConsent(db, { userId: accepted.userId, workerId, consent: "no", now: NOW });
    seen = await getWorker(db, user, workerId, NOW);
    expect(seen.results).toBeNull();
    expect(await getCertificateForViewer(db, certificateId, user)).toBeNull();
    // nobody else changes the worker's answer
    await expect(setOwnConsent(db, { userId: user.id, workerId, consent: "yes", now: NOW })).rejects.toMatchObject({ status: 404 });
  });
});
