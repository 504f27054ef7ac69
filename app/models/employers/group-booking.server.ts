import crypto from "node:crypto";
import { sendWritesAtCommit, takeWritesTurn, writeLater, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { BookingInput, WorkerInput } from "~/schemas/employer";
import {
  INVITATION_USED,
  BOOKING_RELEASED,
  CONSENT_SAVED,
  WORKER_DECLINED_BEFORE,
  INVITATION_OTHER_ACCOUNT,
  RELEASE_DAYS_BEFORE_START,
  TOO_MANY_WORKERS,
  WORKER_EMAIL_REFUSED,
  WORKER_TWICE,
} from "~/schemas/employer-text";
import { classDates, CLASS_NOT_OPEN, onlySeatsLeft } from "~/schemas/class-text";
import { hashPassword } from "~/security/password.server";
import { assertAcceptablePassword } from "~/security/password-policy.server";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { addDays, organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, type AuditActor } from "../audit.server";
import { classFull, offerFreeSeats, seatsLeftExpression } from "../class-seats.server";
import { employerOfUser } from "./employer.server";
import { createEnrollment } from "../enrollment.server";
import { createInvitation, NO_PASSWORD_YET, openInvitation, spendInvitation, type MakeLink } from "../invitation.server";
import { parseAddress } from "../finance/invoice-address";
import { refundPolicyInForce } from "../finance/refund-policy.server";
import { issueInvoice, prepareInvoice, type IssueInvoiceInput } from "../finance/invoice.server";
import { queueMail } from "../outbox.server";
import { insertUser } from "../user.server";
import { ownUsiColumns } from "../usi.server";
import { queueWebhookEvent, readWebhookEndpoints } from "../webhook-events.server";
import { courseScope, employerScope } from "../write-scopes.server";
import { recordSpentToken, refuseSpentToken, storedOnce, type OnceToken } from "../spent-tokens.server";

/**
 * Group bookings (docs/decisions/032-employers-and-group-bookings.md): an employer holds seats
 * in a class for named workers. The seats are taken when the booking is made, in the same write
 * transaction that counts them (the seat rule of class-seats.server.ts counts a booking's seats
 * whole), so K free seats and two employers asking at once give exactly K. Each worker is mailed
 * an invitation to accept their seat, give their enrolment details and USI, and say whether
 * the employer may see their results. Seats no worker has taken are given back on release_on.
 */

export { CONSENT_SAVED };

/** The day a booking's unfilled seats go back: RELEASE_DAYS_BEFORE_START before the class, not sooner than 2 days from today, never after its start. */
export function releaseDay(classStart: string, today: string): string {
  const wanted = addDays(classStart, -RELEASE_DAYS_BEFORE_START);
  const earliest = addDays(today, 2);
  const day = wanted > earliest ? wanted : earliest;
  return day < classStart ? day : classStart;
}

/** The employer's user's booking, or 404 (another employer's booking is not found either). */
async function bookingOf(trx: DB, employerId: string, bookingId: string) {
  const booking = await trx
    .selectFrom("group_bookings as b")
    .innerJoin("classes as c", "c.id", "b.class_id")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .innerJoin("employers as e", "e.id", "b.employer_id")
    .select([
      "b.id",
      "b.seats",
      "b.released_at",
      "b.release_on",
      "b.class_id",
      "c.course_id",
      "c.start_date",
      "c.end_date",
      "co.name as course",
      "e.name as employer",
    ])
    .where("b.id", "=", bookingId)
    .where("b.employer_id", "=", employerId)
    .executeTakeFirst();
  if (!booking) throw notFound("Booking");
  return booking;
}

/**
 * Names workers on a booking, up to the seats it holds: each gets an account when they have
 * none (a learner's, with no usable password until they accept), a row on the booking, and an
 * invitation mailed in this transaction.
 */
async function nameWorkers(
  trx: WriteTransaction,
  booking: Awaited<ReturnType<typeof bookingOf>>,
  workers: WorkerInput[],
  link: MakeLink,
  now: Date,
): Promise<string[]> {
  const at = now.toISOString();
  if (booking.released_at) throw conflict(BOOKING_RELEASED);
  const named = await trx.selectFrom("booking_workers").select(["email", "declined_at"]).where("booking_id", "=", booking.id).execute();
  // a worker who declined holds no seat (the row stays: the employer sees "Declined")
  const holding = named.filter((w) => !w.declined_at).length;
  const declined = new Set(named.filter((w) => w.declined_at).map((w) => w.email));
  const emails = new Set(named.map((w) => w.email));
  if (holding + workers.length > booking.seats) throw new DomainError(422, TOO_MANY_WORKERS(booking.seats), {}, "workers");
  const ids: string[] = [];
  // a refusal names the worker it is about (`workers.N`), so a form shows it at that worker's row
  for (const [index, worker] of workers.entries()) {
    if (emails.has(worker.email)) throw new DomainError(422, declined.has(worker.email) ? WORKER_DECLINED_BEFORE : WORKER_TWICE, {}, `workers.${index}`);
    emails.add(worker.email);
    const existing = await trx.selectFrom("users").select(["id", "role"]).where("email", "=", worker.email).executeTakeFirst();
    // only a learner's account (or none yet) can be booked; which other kind it is stays unsaid
    if (existing && existing.role !== "student") throw new DomainError(422, WORKER_EMAIL_REFUSED, {}, `workers.${index}`);
    const userId =
      existing?.id ??
      (await insertUser(
        trx,
        {
          email: worker.email,
          full_name: worker.full_name,
          password_hash: NO_PASSWORD_YET,
          role: "student",
          phone: null,
          address: null,
          date_of_birth: null,
          emergency_contact: null,
          license_number: null,
          usi: null,
          is_active: 1,
          approval_status: "approved",
        },
        at,
      ));
    const id = crypto.randomUUID();
    await trx
      .insertInto("booking_workers")
      .values({
        id,
        booking_id: booking.id,
        full_name: worker.full_name,
        email: worker.email,
        user_id: userId,
        enrollment_id: null,
        consent: null,
        consent_at: null,
        invited_at: at,
        accepted_at: null,
        declined_at: null,
      })
      .execute();
    const invitation = await createInvitation(trx, { kind: "worker", userId, workerId: id, now });
    const url = link(invitation.token);
    if (url) {
      await queueMail(trx, {
        key: `worker-invitation:${invitation.id}`,
        template: "worker-invitation",
        recipientId: userId,
        data: {
          link: url,
          employer: booking.employer,
          course: booking.course,
          start: booking.start_date,
          end: booking.end_date,
          expiresAt: invitation.expiresAt,
          releaseOn: booking.release_on,
        },
        now,
      });
    }
    ids.push(id);
  }
  return ids;
}

export interface BookingCreated {
  id: string;
  seats: number;
  release_on: string;
  worker_ids: string[];
  /** the refund policy version the booking was made under (null: none in force that day) */
  refund_policy_version: string | null;
}

/**
 * An employer's user books `seats` in a class and names the workers known now. The seat count
 * and the insert are one write transaction: a class with no free seat is a 409 "This class is
 * full", one with fewer than asked a 409 saying how many are left, and nothing is stored.
 */
export async function createBooking(
  db: DB,
  input: BookingInput & {
    user: { id: string; role: string };
    link: MakeLink;
    client?: string | null;
    now?: Date;
    /** the post's one-time token: a second post with it is refused (409), nothing booked or invoiced twice */
    once?: OnceToken;
  },
): Promise<BookingCreated> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const employer = await employerOfUser(db, input.user);
  if (input.workers.length > input.seats) throw new DomainError(422, TOO_MANY_WORKERS(input.seats), {}, "workers");
  // the course whose seats the booking takes, for the write's scope (a class keeps its course)
  const ofClass = await db.selectFrom("classes").select("course_id").where("id", "=", input.class_id).executeTakeFirst();
  const spend = { userId: input.user.id, purpose: "booking" as const, now };
  return storedOnce(db, input.once, input.user.id, () =>
    writeTransaction(
      db,
      async (trx) => {
        // a repeat is told so before the seats it took could call the class full (the employer's scope orders the two)
        await refuseSpentToken(trx, input.once, input.user.id);
        const today = organisationToday(now);
        const cls = await trx
          .selectFrom("classes as c")
          .innerJoin("courses as co", "co.id", "c.course_id")
          .select([
            "c.id",
            "c.course_id",
            "c.start_date",
            "c.end_date",
            "c.cancelled_at",
            "co.name as course",
            "co.price_cents",
            "co.is_active",
            seatsLeftExpression("c", at).as("seats_left"),
          ])
          .where("c.id", "=", input.class_id)
          .executeTakeFirst();
        if (!cls) throw notFound("Class");
        // a course taken out of the catalogue takes no bookings: its workers could never enrol
        if (cls.cancelled_at || cls.start_date < today || !Number(cls.is_active)) throw new DomainError(409, CLASS_NOT_OPEN, {}, "class_id");
        const seatsLeft = Number(cls.seats_left);
        if (seatsLeft <= 0) throw classFull();
        if (seatsLeft < input.seats) throw new DomainError(409, onlySeatsLeft(seatsLeft), {}, "seats");
        const id = crypto.randomUUID();
        const release_on = releaseDay(cls.start_date, today);
        const actor: AuditActor = { id: input.user.id, client: input.client ?? null };
        const booking = {
          id,
          seats: input.seats,
          released_at: null,
          release_on,
          class_id: cls.id,
          course_id: cls.course_id,
          start_date: cls.start_date,
          end_date: cls.end_date,
          course: cls.course,
          employer: employer.name,
        };
        // the booking's tax invoice to the employer, in this transaction: no booking without its invoice
        const description = `${cls.course}, class of ${classDates(cls.start_date, cls.end_date)}: seats`;
        const bill: IssueInvoiceInput = {
          buyer: {
            kind: "employer",
            id: employer.id,
            name: employer.name,
            abn: employer.abn,
            email: employer.contact_email,
            address: parseAddress(employer.address),
          },
          lines: [{ course_id: cls.course_id, description, quantity: input.seats, unit_price_cents: Number(cls.price_cents) }],
          source: { kind: "booking", id },
          issued_by: actor,
          due_by: addDays(cls.start_date, -1),
          now,
        };
        const priced = await prepareInvoice(trx, bill);
        // the refund policy the booking is made under, kept with it as an enrolment keeps its own
        const refundPolicyVersion = await refundPolicyInForce(trx, today);
        await readWebhookEndpoints(trx);
        // the seats were read in the course's scope: from here this write writes, in its turn
        await takeWritesTurn(trx, [actor.id]);
        // nothing below reads what it writes (the next invoice number is its own row; naming workers
        // reads the booking, so it keeps the round trips): the writes go with the commit
        if (input.workers.length === 0) sendWritesAtCommit(trx);
        await recordSpentToken(trx, input.once, spend);
        await writeLater(
          trx,
          trx.insertInto("group_bookings").values({
            id,
            employer_id: employer.id,
            class_id: cls.id,
            seats: input.seats,
            seats_booked: input.seats,
            release_on,
            released_at: null,
            booked_by: input.user.id,
            created_at: at,
            refund_policy_version: refundPolicyVersion,
          }),
        );
        await recordAudit(trx, { action: "booking.created", actor, subject: { type: "booking", id }, detail: `${input.seats} seats`, now: at });
        await queueWebhookEvent(trx, { type: "booking.made", subjectId: id, now: at });
        const invoice = await issueInvoice(trx, bill, priced);
        // the invoice goes to the organisation's contact address, queued with the booking (sent once it commits)
        await queueMail(trx, {
          key: `invoice-issued:${invoice.id}`,
          template: "invoice-issued",
          recipientId: { email: employer.contact_email, name: employer.name },
          data: {
            number: invoice.number,
            description: `${input.seats} × ${description}`,
            totalCents: invoice.total_cents,
            gstCents: invoice.gst_cents,
            dueDate: invoice.due_date,
            path: `/employer/invoices/${invoice.id}/pdf`,
          },
          now,
        });
        const workerIds = input.workers.length ? await nameWorkers(trx, booking, input.workers, input.link, now) : [];
        if (workerIds.length)
          await recordAudit(trx, { action: "booking.workers_added", actor, subject: { type: "booking", id }, detail: `${workerIds.length} workers`, now: at });
        return { id, seats: input.seats, release_on, worker_ids: workerIds, refund_policy_version: refundPolicyVersion };
      },
      ofClass ? { scopes: [courseScope(ofClass.course_id), employerScope(employer.id)] } : {},
    ),
  );
}

/** Names more workers on a booking, up to the seats it holds (none once its seats were released). */
export async function addWorkers(
  db: DB,
  input: { user: { id: string; role: string }; bookingId: string; workers: WorkerInput[]; link: MakeLink; client?: string | null; now?: Date },
): Promise<string[]> {
  const now = input.now ?? new Date();
  const employer = await employerOfUser(db, input.user);
  return writeTransaction(db, async (trx) => {
    const booking = await bookingOf(trx, employer.id, input.bookingId);
    const ids = await nameWorkers(trx, booking, input.workers, input.link, now);
    await recordAudit(trx, {
      action: "booking.workers_added",
      actor: { id: input.user.id, client: input.client ?? null },
      subject: { type: "booking", id: booking.id },
      detail: `${ids.length} workers`,
      now,
    });
    return ids;
  });
}

/**
 * The background job: each booking whose release day has come gives back the seats no worker
 * has taken (its seats become the workers enrolled), and the freed seats go to the class's
 * waitlist. Each booking is its own transaction, marked by released_at, so two workers running
 * it release a booking once. Returns how many bookings were released.
 */
export async function releaseUnfilledSeats(db: DB, now = new Date()): Promise<number> {
  const today = organisationToday(now);
  const due = await db
    .selectFrom("group_bookings")
    .select(["id"])
    .where("released_at", "is", null)
    .where("release_on", "<=", today)
    .orderBy("release_on")
    .limit(100)
    .execute();
  let released = 0;
  for (const { id } of due) {
    released += await writeTransaction(db, async (trx) => {
      const booking = await trx
        .selectFrom("group_bookings")
        .select(["id", "class_id", "seats"])
        .where("id", "=", id)
        .where("released_at", "is", null)
        .executeTakeFirst();
      if (!booking) return 0;
      const filled = await trx
        .selectFrom("booking_workers as w")
        .innerJoin("enrollments as e", "e.id", "w.enrollment_id")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("w.booking_id", "=", id)
        .executeTakeFirstOrThrow();
      const seats = Number(filled.n);
      await trx.updateTable("group_bookings").set({ seats, released_at: now.toISOString() }).where("id", "=", id).execute();
      await recordAudit(trx, {
        action: "booking.seats_released",
        actor: { id: null },
        subject: { type: "booking", id },
        detail: `${booking.seats - seats} seats`,
        now,
      });
      if (booking.seats > seats) await offerFreeSeats(trx, booking.class_id, now);
      return 1;
    });
  }
  return released;
}

export interface WorkerInvitationView {
  worker: { id: string; full_name: string; email: string };
  employer: string;
  course: string;
  start_date: string;
  end_date: string;
  expiresAt: string;
  /** the day the booking's unfilled seats go back (null once they went) */
  releaseOn: string | null;
  /** the account already has a password: its owner signs in to accept */
  hasAccount: boolean;
  userId: string;
}

export async function workerInvitationFor(db: DB, token: string, now = new Date()): Promise<WorkerInvitationView> {
  const invitation = await openInvitation(db, token, "worker", now);
  const row = await db
    .selectFrom("booking_workers as w")
    .innerJoin("group_bookings as b", "b.id", "w.booking_id")
    .innerJoin("employers as e", "e.id", "b.employer_id")
    .innerJoin("classes as c", "c.id", "b.class_id")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .select([
      "w.id",
      "w.full_name",
      "w.email",
      "w.declined_at",
      "b.release_on",
      "b.released_at",
      "e.name as employer",
      "co.name as course",
      "c.start_date",
      "c.end_date",
    ])
    .where("w.id", "=", invitation.workerId ?? "")
    .executeTakeFirst();
  if (!row) throw notFound("Invitation");
  if (row.declined_at) throw new DomainError(409, INVITATION_USED);
  return {
    worker: { id: row.id, full_name: row.full_name, email: row.email },
    employer: row.employer,
    course: row.course,
    start_date: row.start_date,
    end_date: row.end_date,
    expiresAt: invitation.expiresAt,
    releaseOn: row.released_at ? null : row.release_on,
    hasAccount: invitation.hasPassword,
    userId: invitation.userId,
  };
}

export interface WorkerAcceptance {
  token: string;
  /** the signed-in user, who must be the invited account when it has a password */
  signedInUserId: string | null;
  consent: "yes" | "no";
  usi: string | null;
  phone: string | null;
  date_of_birth: string | null;
  /** a worker without an account: their name as they want it and their password */
  full_name?: string;
  password?: string;
  client?: string | null;
  now?: Date;
}

/**
 * A worker accepts their seat: their account gets its password (when new) and the details they
 * gave, they are enrolled in the booking's class in the seat the booking holds (a booking whose
 * unfilled seats were released takes a free seat of the class again, or the class is full),
 * and their answer about sharing results is kept. The invitation is spent in the same transaction.
 */
export async function acceptWorkerInvitation(db: DB, input: WorkerAcceptance): Promise<{ userId: string; enrollmentId: string }> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const invitation = await openInvitation(db, input.token, "worker", now);
  if (invitation.hasPassword && input.signedInUserId !== invitation.userId) throw conflict(INVITATION_OTHER_ACCOUNT);
  let hash: string | null = null;
  if (!invitation.hasPassword) {
    if (!input.password) throw new DomainError(422, "Password is required", { password: "Password is required" }, "password");
    await assertAcceptablePassword(input.password, "student");
    hash = await hashPassword(input.password);
  }
  return writeTransaction(db, async (trx) => {
    if (!(await spendInvitation(trx, invitation.id, now))) await openInvitation(trx, input.token, "worker", now);
    const worker = await trx
      .selectFrom("booking_workers as w")
      .innerJoin("group_bookings as b", "b.id", "w.booking_id")
      .innerJoin("classes as c", "c.id", "b.class_id")
      .select(["w.id", "w.booking_id", "b.class_id", "b.released_at", "c.course_id"])
      .where("w.id", "=", invitation.workerId ?? "")
      .executeTakeFirstOrThrow();
    const user = await trx.selectFrom("users").select(["id", "usi", "phone", "date_of_birth"]).where("id", "=", invitation.userId).executeTakeFirstOrThrow();
    await trx
      .updateTable("users")
      .set({
        ...(hash ? { password_hash: hash } : {}),
        ...(input.full_name ? { full_name: input.full_name } : {}),
        phone: input.phone ?? user.phone,
        date_of_birth: input.date_of_birth ?? user.date_of_birth,
        ...(input.usi ? await ownUsiColumns(trx, user, input.usi) : {}),
        updated_at: at,
      })
      .where("id", "=", user.id)
      .execute();
    if (worker.released_at) {
      // the booking gave its unfilled seats back: this worker needs a free seat of the class again
      const cls = await trx
        .selectFrom("classes as c")
        .select(seatsLeftExpression("c", at).as("left"))
        .where("c.id", "=", worker.class_id)
        .executeTakeFirstOrThrow();
      if (Number(cls.left) <= 0) throw classFull();
      await trx
        .updateTable("group_bookings")
        .set((eb) => ({ seats: eb("seats", "+", 1) }))
        .where("id", "=", worker.booking_id)
        .execute();
    }
    // the employer's booking is invoiced to the employer: the worker's enrolment bills nobody
    const enrollment = await createEnrollment(trx, {
      studentId: user.id,
      courseId: worker.course_id,
      actorId: user.id,
      now,
      groupBooking: { id: worker.booking_id, classId: worker.class_id },
      billing: "none",
    });
    await trx
      .updateTable("booking_workers")
      .set({ enrollment_id: enrollment.id, accepted_at: at, consent: input.consent === "yes" ? 1 : 0, consent_at: at })
      .where("id", "=", worker.id)
      .execute();
    const actor: AuditActor = { id: user.id, client: input.client ?? null };
    await recordAudit(trx, { action: "booking.worker_accepted", actor, subject: { type: "booking", id: worker.booking_id, userId: user.id }, now: at });
    await recordAudit(trx, {
      action: "booking.consent_changed",
      actor,
      subject: { type: "booking", id: worker.booking_id, userId: user.id },
      detail: input.consent === "yes" ? "shares results" : "does not share results",
      now: at,
    });
    return { userId: user.id, enrollmentId: enrollment.id };
  });
}

/**
 * A worker declines their seat from the invitation (the link is the proof it is theirs, as for
 * accepting: no sign-in needed to say no). The invitation is spent, the worker's row stays with
 * `declined_at` (the employer sees "Declined"), and the seat is the booking's again: the employer
 * may name someone else in it until the release day, when it goes back to the class as any
 * unfilled seat does. Returns the employer's name for the worker's confirmation.
 */
export async function declineWorkerInvitation(db: DB, input: { token: string; client?: string | null; now?: Date }): Promise<{ employer: string }> {
  const now = input.now ?? new Date();
  const at = now.toISOString();
  const invitation = await openInvitation(db, input.token, "worker", now);
  return writeTransaction(db, async (trx) => {
    if (!(await spendInvitation(trx, invitation.id, now))) await openInvitation(trx, input.token, "worker", now);
    const worker = await trx
      .selectFrom("booking_workers as w")
      .innerJoin("group_bookings as b", "b.id", "w.booking_id")
      .innerJoin("employers as e", "e.id", "b.employer_id")
      .select(["w.id", "w.booking_id", "w.user_id", "w.accepted_at", "w.declined_at", "e.name as employer"])
      .where("w.id", "=", invitation.workerId ?? "")
      .executeTakeFirstOrThrow();
    if (worker.accepted_at || worker.declined_at) throw conflict(INVITATION_USED);
    await trx.updateTable("booking_workers").set({ declined_at: at }).where("id", "=", worker.id).execute();
    await recordAudit(trx, {
      action: "booking.worker_declined",
      actor: { id: worker.user_id, client: input.client ?? null },
      subject: { type: "booking", id: worker.booking_id, userId: worker.user_id },
      now: at,
    });
    return { employer: worker.employer };
  });
}

export interface OwnBooking {
  worker_id: string;
  employer: string;
  course: string;
  start_date: string;
  end_date: string;
  accepted: boolean;
  consent: boolean | null;
}

/** The bookings a learner is named on, with their answer about sharing results (their own page). */
export async function listOwnBookings(db: DB, userId: string): Promise<OwnBooking[]> {
  const rows = await db
    .selectFrom("booking_workers as w")
    .innerJoin("group_bookings as b", "b.id", "w.booking_id")
    .innerJoin("employers as e", "e.id", "b.employer_id")
    .innerJoin("classes as c", "c.id", "b.class_id")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .select(["w.id", "e.name as employer", "co.name as course", "c.start_date", "c.end_date", "w.accepted_at", "w.consent"])
    .where("w.user_id", "=", userId)
    .where("w.declined_at", "is", null)
    .orderBy("c.start_date", "desc")
    .execute();
  return rows.map((r) => ({
    worker_id: r.id,
    employer: r.employer,
    course: r.course,
    start_date: r.start_date,
    end_date: r.end_date,
    accepted: r.accepted_at !== null,
    consent: r.consent === null ? null : Number(r.consent) === 1,
  }));
}

/** A worker gives or withdraws consent to share their results with the employer; another person's row is a 404. */
export async function setOwnConsent(
  db: DB,
  input: { userId: string; workerId: string; consent: "yes" | "no"; client?: string | null; now?: Date },
): Promise<void> {
  const at = (input.now ?? new Date()).toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom("booking_workers")
      .select(["id", "booking_id", "consent", "accepted_at"])
      .where("id", "=", input.workerId)
      .where("user_id", "=", input.userId)
      .executeTakeFirst();
    if (!row || !row.accepted_at) throw notFound("Booking");
    const value = input.consent === "yes" ? 1 : 0;
    if (row.consent !== null && Number(row.consent) === value) return;
    await trx.updateTable("booking_workers").set({ consent: value, consent_at: at }).where("id", "=", row.id).execute();
    await recordAudit(trx, {
      action: "booking.consent_changed",
      actor: { id: input.userId, client: input.client ?? null },
      subject: { type: "booking", id: row.booking_id, userId: input.userId },
      detail: value ? "shares results" : "does not share results",
      now: at,
    });
  });
}

/** Classes an employer may book: not started, not cancelled, with free seats, soonest first. */
export async function bookableClasses(db: DB, now = new Date()) {
  const rows = await db
    .selectFrom("classes as c")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .select([
      "c.id",
      "co.name as course",
      "c.start_date",
      "c.end_date",
      "co.price_cents",
      "co.gst_treatment",
      seatsLeftExpression("c", now.toISOString()).as("seats_left"),
    ])
    .where("c.cancelled_at", "is", null)
    .where("co.is_active", "=", 1)
    .where("c.start_date", ">=", organisationToday(now))
    .orderBy("c.start_date")
    .limit(200)
    .execute();
  return rows.map((r) => ({ ...r, price_cents: Number(r.price_cents), seats_left: Number(r.seats_left) })).filter((r) => r.seats_left > 0);
}
