import { invoiceStatus, type InvoiceStatus } from "~/rules/invoice-rules";
import type { DB } from "#db/connection";
import type { EnrollmentStatus } from "#db/schema";
import type { ConsentState, WorkerState } from "~/schemas/employer-text";
import { notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAuditAlone } from "../audit.server";
import { employerOfUser } from "./employer.server";
import { workersOfEmployerUser } from "./employer-scope.server";
import { licenceApplicationsDueFor } from "../hrw/hrw-assessment.server";
import { owedCents } from "../finance/finance.server";

/**
 * What an employer's user reads: their organisation's bookings and the workers on them. Every
 * query starts from employer-scope.server.ts, so another employer's booking or worker is a 404;
 * results (statements of attainment, NSA dates, licence deadlines) only for workers who share them.
 */

type Viewer = { id: string; role: string };

export interface BookingSummary {
  id: string;
  course: string;
  class_id: string;
  start_date: string;
  end_date: string;
  seats: number;
  seats_booked: number;
  workers: number;
  accepted: number;
  /** workers who declined the seat (not among `workers`) */
  declined: number;
  release_on: string;
  released: boolean;
  created_at: string;
}

function bookingQuery(db: DB, employerId: string) {
  return db
    .selectFrom("group_bookings as b")
    .innerJoin("classes as c", "c.id", "b.class_id")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .select((eb) => [
      "b.id",
      "co.name as course",
      "b.class_id",
      "c.start_date",
      "c.end_date",
      "b.seats",
      "b.seats_booked",
      "b.release_on",
      "b.released_at",
      "b.created_at",
      // a worker who declined holds no seat: the booking may name someone else in it
      eb
        .selectFrom("booking_workers as w")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("w.booking_id", "=", "b.id")
        .where("w.declined_at", "is", null)
        .as("workers"),
      eb
        .selectFrom("booking_workers as w")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("w.booking_id", "=", "b.id")
        .where("w.declined_at", "is not", null)
        .as("declined"),
      eb
        .selectFrom("booking_workers as w")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("w.booking_id", "=", "b.id")
        .where("w.accepted_at", "is not", null)
        .as("accepted"),
    ])
    .where("b.employer_id", "=", employerId);
}

type BookingRow = Awaited<ReturnType<ReturnType<typeof bookingQuery>["executeTakeFirstOrThrow"]>>;
const toSummary = (r: BookingRow): BookingSummary => ({
  id: r.id,
  course: r.course,
  class_id: r.class_id,
  start_date: r.start_date,
  end_date: r.end_date,
  seats: Number(r.seats),
  seats_booked: Number(r.seats_booked),
  workers: Number(r.workers),
  accepted: Number(r.accepted),
  declined: Number(r.declined),
  release_on: r.release_on,
  released: r.released_at !== null,
  created_at: r.created_at,
});

export async function listBookings(db: DB, viewer: Viewer): Promise<BookingSummary[]> {
  const employer = await employerOfUser(db, viewer);
  const rows = await bookingQuery(db, employer.id).orderBy("c.start_date", "desc").orderBy("b.created_at", "desc").execute();
  return rows.map(toSummary);
}

export interface WorkerView {
  id: string;
  booking_id: string;
  full_name: string;
  email: string;
  state: WorkerState;
  consent: ConsentState;
  course: string;
  start_date: string;
  end_date: string;
  enrollment: { status: EnrollmentStatus; progress_percentage: number; completion_date: string | null } | null;
  attendance: { present: number; late: number; absent: number; sessions: number };
  /** null when the worker does not share their results */
  results: {
    statements: { id: string; certificate_number: string; issue_date: string }[];
    nsas: { licence_class: string; nsa_number: string; nsa_date: string }[];
    deadlines: { licence_class: string; deadline: string; apply_where: string }[];
  } | null;
}

function workerQuery(db: DB, viewer: Viewer) {
  return workersOfEmployerUser(db, viewer.id)
    .innerJoin("classes as c", "c.id", "b.class_id")
    .innerJoin("courses as co", "co.id", "c.course_id")
    .leftJoin("enrollments as e", "e.id", "w.enrollment_id")
    .select([
      "w.id",
      "w.booking_id",
      "w.full_name",
      "w.email",
      "w.user_id",
      "w.consent",
      "w.enrollment_id",
      "w.declined_at",
      "co.id as course_id",
      "co.name as course",
      "c.id as class_id",
      "c.start_date",
      "c.end_date",
      "e.status",
      "e.progress_percentage",
      "e.completion_date",
    ]);
}

type WorkerRow = Awaited<ReturnType<ReturnType<typeof workerQuery>["executeTakeFirstOrThrow"]>>;

function consentOf(row: { consent: number | null }): ConsentState {
  return row.consent === null ? "unanswered" : Number(row.consent) === 1 ? "yes" : "no";
}

function stateOf(row: WorkerRow): WorkerState {
  if (row.declined_at) return "declined";
  if (!row.enrollment_id || !row.status) return "invited";
  if (row.status === "completed") return "completed";
  if (row.status === "withdrawn") return "withdrawn";
  return "enrolled";
}

/**
 * Workers as the employer sees them, with their attendance and (for those who share them)
 * results: five queries for the whole list, whatever its length (a query per worker before:
 * a large employer's overview ran thousands; scripts/query-growth.ts guards it).
 */
async function toWorkerViews(db: DB, rows: WorkerRow[], today: string): Promise<WorkerView[]> {
  if (rows.length === 0) return [];
  const classIds = [...new Set(rows.map((r) => r.class_id))];
  const enrollmentIds = rows.flatMap((r) => (r.enrollment_id ? [r.enrollment_id] : []));
  const sharing = rows.filter((r) => consentOf(r) === "yes" && r.enrollment_id && r.user_id);
  const sharingEnrollments = sharing.map((r) => r.enrollment_id!);
  const sharingUsers = [...new Set(sharing.map((r) => r.user_id!))];
  const [sessions, marks, statements, nsas, deadlines] = await Promise.all([
    db
      .selectFrom("class_sessions")
      .select("class_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("class_id", "in", classIds)
      .groupBy("class_id")
      .execute(),
    enrollmentIds.length
      ? db
          .selectFrom("attendance")
          .select(["enrollment_id", "status"])
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("enrollment_id", "in", enrollmentIds)
          .groupBy(["enrollment_id", "status"])
          .execute()
      : [],
    sharingEnrollments.length
      ? db
          .selectFrom("certificates")
          .select(["id", "enrollment_id", "certificate_number", "issue_date"])
          .where("enrollment_id", "in", sharingEnrollments)
          .where("revoked_at", "is", null)
          .where("replaced_at", "is", null)
          .orderBy("issue_date")
          .execute()
      : [],
    sharingUsers.length
      ? db
          .selectFrom("hrw_assessments")
          .select(["candidate_id", "course_id", "licence_class", "nsa_number", "nsa_date"])
          .where("candidate_id", "in", sharingUsers)
          .where("nsa_number", "is not", null)
          .orderBy("nsa_date")
          .execute()
      : [],
    licenceApplicationsDueFor(db, sharingUsers, today),
  ]);
  const sessionCount = new Map(sessions.map((r) => [r.class_id, Number(r.n)]));
  return rows.map((row) => {
    const consent = consentOf(row);
    const attendance = { present: 0, late: 0, absent: 0, sessions: sessionCount.get(row.class_id) ?? 0 };
    for (const m of marks) if (m.enrollment_id === row.enrollment_id) attendance[m.status] = Number(m.n);
    const shares = consent === "yes" && row.enrollment_id && row.user_id;
    const results: WorkerView["results"] = shares
      ? {
          statements: statements
            .filter((c) => c.enrollment_id === row.enrollment_id)
            .map((c) => ({ id: c.id, certificate_number: c.certificate_number, issue_date: c.issue_date })),
          nsas: nsas
            .filter((n) => n.candidate_id === row.user_id && n.course_id === row.course_id)
            .map((n) => ({ licence_class: n.licence_class, nsa_number: n.nsa_number!, nsa_date: n.nsa_date! })),
          deadlines: (deadlines.get(row.user_id!) ?? []).map((d) => ({ licence_class: d.licence_class, deadline: d.deadline, apply_where: d.apply_where })),
        }
      : null;
    return {
      id: row.id,
      booking_id: row.booking_id,
      full_name: row.full_name,
      email: row.email,
      state: stateOf(row),
      consent,
      course: row.course,
      start_date: row.start_date,
      end_date: row.end_date,
      enrollment: row.status
        ? { status: row.status, progress_percentage: Number(row.progress_percentage), completion_date: row.completion_date ?? null }
        : null,
      attendance,
      results,
    };
  });
}

/** One booking of the viewer's organisation with its workers; another's is a 404. */
export async function getBooking(
  db: DB,
  viewer: Viewer,
  bookingId: string,
  now = new Date(),
): Promise<BookingSummary & { workerList: WorkerView[]; invoice: BookingInvoice | null }> {
  const employer = await employerOfUser(db, viewer);
  const row = await bookingQuery(db, employer.id).where("b.id", "=", bookingId).executeTakeFirst();
  if (!row) throw notFound("Booking");
  const today = organisationToday(now);
  const workers = await workerQuery(db, viewer).where("w.booking_id", "=", bookingId).orderBy("w.full_name").execute();
  // the booking's invoice, billed to this organisation (the booking's confirmation shows its price)
  const invoice = await db
    .selectFrom("invoices as i")
    .innerJoin("invoice_lines as l", (j) => j.onRef("l.invoice_id", "=", "i.id").on("l.position", "=", 1))
    .select([
      "i.id",
      "i.number",
      "i.due_date",
      "i.total_cents",
      "i.gst_cents",
      "i.paid_cents",
      "i.credited_cents",
      "l.unit_price_cents",
      "l.quantity",
      owedCents("i").as("owed_cents"),
    ])
    .where("i.source_kind", "=", "booking")
    .where("i.source_id", "=", bookingId)
    .where("i.buyer_kind", "=", "employer")
    .where("i.buyer_id", "=", employer.id)
    .executeTakeFirst();
  return {
    ...toSummary(row),
    workerList: await toWorkerViews(db, workers, today),
    invoice: invoice
      ? {
          id: invoice.id,
          number: invoice.number,
          seat_cents: Number(invoice.unit_price_cents),
          seats: Number(invoice.quantity),
          gst_cents: Number(invoice.gst_cents),
          total_cents: Number(invoice.total_cents),
          owed_cents: Number(invoice.owed_cents),
          status: invoiceStatus(
            { ...invoice, total_cents: Number(invoice.total_cents), paid_cents: Number(invoice.paid_cents), credited_cents: Number(invoice.credited_cents) },
            today,
          ),
        }
      : null,
  };
}

/** A booking's invoice as its confirmation shows it. */
export interface BookingInvoice {
  id: string;
  number: string;
  seat_cents: number;
  seats: number;
  gst_cents: number;
  total_cents: number;
  owed_cents: number;
  status: InvoiceStatus;
}

/** One worker of the viewer's organisation; another employer's worker is a 404. */
export async function getWorker(db: DB, viewer: Viewer, workerId: string, now = new Date()): Promise<WorkerView> {
  const row = await workerQuery(db, viewer).where("w.id", "=", workerId).executeTakeFirst();
  if (!row) throw notFound("Worker");
  return (await toWorkerViews(db, [row], organisationToday(now)))[0]!;
}

/** Every worker of the viewer's organisation, newest class first. */
export async function listWorkers(db: DB, viewer: Viewer, now = new Date()): Promise<WorkerView[]> {
  const rows = await workerQuery(db, viewer).orderBy("c.start_date", "desc").orderBy("w.full_name").execute();
  const today = organisationToday(now);
  return toWorkerViews(db, rows, today);
}

/** Licence application deadlines still ahead, for workers who share their results. */
export function upcomingDeadlines(workers: WorkerView[]) {
  return workers
    .flatMap((w) => (w.results?.deadlines ?? []).map((d) => ({ worker_id: w.id, full_name: w.full_name, ...d })))
    .sort((a, b) => a.deadline.localeCompare(b.deadline));
}

export const WORKER_CSV_COLUMNS = [
  "worker",
  "email",
  "course",
  "class_start",
  "class_end",
  "state",
  "progress",
  "present",
  "late",
  "absent",
  "sessions",
  "shares_results",
  "statements",
  "nsa",
] as const;

/** The workers CSV's rows (results only for workers who share them); the export is audited as a bulk read. */
export async function workerCsvRows(db: DB, viewer: Viewer & { client?: string | null }, now = new Date()): Promise<string[][]> {
  const workers = await listWorkers(db, viewer, now);
  await recordAuditAlone(db, {
    action: "employer.workers_exported",
    actor: { id: viewer.id, client: viewer.client ?? null },
    detail: `${workers.length} workers`,
    now,
  });
  return workers.map((w) => [
    w.full_name,
    w.email,
    w.course,
    w.start_date,
    w.end_date,
    w.state,
    w.enrollment ? String(w.enrollment.progress_percentage) : "",
    String(w.attendance.present),
    String(w.attendance.late),
    String(w.attendance.absent),
    String(w.attendance.sessions),
    w.consent,
    w.results ? w.results.statements.map((s) => `${s.certificate_number} (${s.issue_date})`).join("; ") : "",
    w.results ? w.results.nsas.map((n) => `${n.licence_class} ${n.nsa_number} (${n.nsa_date})`).join("; ") : "",
  ]);
}
