import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { RecognitionSessionKind } from "#db/schema-recognition";
import { RPL_STEP_MESSAGES, SESSION_KIND_LABELS, type SessionBookInput, type SessionCancelInput, type SessionRescheduleInput } from "~/schemas/recognition-rpl";
import { organisationInstant } from "~/utils/class-time";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { locationLabel } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { queueMail } from "../outbox.server";
import { assertRplStep } from "./recognition-referee.server";
import { getRecognition, type Recognition, type RecognitionViewer } from "./recognition.server";
import { assertCredentialed } from "../standards/trainer-credential.server";

/**
 * An RPL's competency conversation or practical challenge (issue 56): the application's assessor
 * (or an administrator, for them) books it at a delivery location. Refused: a time already
 * passed, one running past midnight, an assessor the credential matrix does not hold current for
 * the unit on the day, and a time the assessor is already booked (another RPL session, or a
 * session of a class they teach). The learner is mailed each booking, move and cancellation; the
 * session shows on the application's pages, the learner's dashboard and both calendar feeds.
 */

export interface RecognitionSession {
  id: string;
  application_id: string;
  kind: RecognitionSessionKind;
  title: string;
  assessor: { id: string; full_name: string };
  session_date: string;
  starts_at: string;
  ends_at: string;
  location: { id: string; name: string };
  notes: string | null;
  booked_at: string;
  cancelled_at: string | null;
  cancel_reason: string | null;
}

function sessionQuery(db: DB) {
  return db
    .selectFrom("recognition_sessions as s")
    .innerJoin("users as a", "a.id", "s.assessor_id")
    .innerJoin("delivery_locations as l", "l.id", "s.location_id")
    .select([
      "s.id",
      "s.application_id",
      "s.kind",
      "s.assessor_id",
      "a.full_name as assessor_name",
      "s.session_date",
      "s.starts_at",
      "s.ends_at",
      "s.location_id",
      "l.name as location_name",
      "l.suburb as location_suburb",
      "s.notes",
      "s.booked_at",
      "s.cancelled_at",
      "s.cancel_reason",
    ]);
}

type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionQuery>["executeTakeFirstOrThrow"]>>;

const toSession = (s: SessionRow): RecognitionSession => ({
  id: s.id,
  application_id: s.application_id,
  kind: s.kind,
  title: SESSION_KIND_LABELS[s.kind],
  assessor: { id: s.assessor_id, full_name: s.assessor_name },
  session_date: s.session_date,
  starts_at: s.starts_at,
  ends_at: s.ends_at,
  location: { id: s.location_id, name: locationLabel(s.location_name, s.location_suburb) },
  notes: s.notes,
  booked_at: s.booked_at,
  cancelled_at: s.cancelled_at,
  cancel_reason: s.cancel_reason,
});

/** The application's sessions, cancelled ones included, by time: whoever may read the application. */
export async function listRecognitionSessions(db: DB, viewer: RecognitionViewer, applicationId: string): Promise<RecognitionSession[]> {
  const r = await getRecognition(db, viewer, applicationId);
  const rows = await sessionQuery(db).where("s.application_id", "=", r.id).orderBy("s.session_date").orderBy("s.starts_at").orderBy("s.id").execute();
  return rows.map(toSession);
}

/** HH:MM plus minutes, or null past midnight. */
function endOf(startsAt: string, minutes: number): string | null {
  const [h, m] = startsAt.split(":").map(Number) as [number, number];
  const end = h * 60 + m + minutes;
  if (end > 24 * 60) return null;
  return end === 24 * 60 ? "24:00" : `${String(Math.floor(end / 60)).padStart(2, "0")}:${String(end % 60).padStart(2, "0")}`;
}

/** What the assessor is already booked for that overlaps, in words, or null. */
async function assessorClash(
  trx: WriteTransaction,
  assessorId: string,
  date: string,
  startsAt: string,
  endsAt: string,
  exceptId: string | null,
): Promise<string | null> {
  let rpl = trx
    .selectFrom("recognition_sessions")
    .select(["kind", "starts_at", "ends_at"])
    .where("assessor_id", "=", assessorId)
    .where("session_date", "=", date)
    .where("cancelled_at", "is", null)
    .where("starts_at", "<", endsAt)
    .where("ends_at", ">", startsAt);
  if (exceptId) rpl = rpl.where("id", "<>", exceptId);
  const other = await rpl.executeTakeFirst();
  if (other) return `${SESSION_KIND_LABELS[other.kind].toLowerCase()} ${other.starts_at}–${other.ends_at}`;
  const taught = await trx
    .selectFrom("class_sessions as s")
    .innerJoin("classes as c", "c.id", "s.class_id")
    .innerJoin("courses", "courses.id", "c.course_id")
    .select(["courses.unit_code", "s.starts_at", "s.ends_at"])
    .where("c.trainer_id", "=", assessorId)
    .where("c.cancelled_at", "is", null)
    .where("s.session_date", "=", date)
    .where("s.starts_at", "<", endsAt)
    .where("s.ends_at", ">", startsAt)
    .executeTakeFirst();
  return taught ? `the ${taught.unit_code} class ${taught.starts_at}–${taught.ends_at}` : null;
}

/**
 * The checks a time must pass, in the caller's transaction: in the future, ending by midnight, at
 * a known location, the assessor credentialed on the day and free then. Returns its end.
 */
async function checkedTime(
  trx: WriteTransaction,
  r: Recognition,
  input: Pick<SessionBookInput, "session_date" | "starts_at" | "duration_minutes" | "location_id">,
  exceptId: string | null,
  now: Date,
): Promise<string> {
  const endsAt = endOf(input.starts_at, input.duration_minutes);
  if (!endsAt) throw invalid(RPL_STEP_MESSAGES.sessionPastMidnight, { duration_minutes: RPL_STEP_MESSAGES.sessionPastMidnight });
  if (organisationInstant(input.session_date, input.starts_at).getTime() <= now.getTime())
    throw invalid(RPL_STEP_MESSAGES.sessionPast, { session_date: RPL_STEP_MESSAGES.sessionPast });
  const location = await trx.selectFrom("delivery_locations").select("id").where("id", "=", input.location_id).executeTakeFirst();
  if (!location) throw invalid(RPL_STEP_MESSAGES.locationUnknown, { location_id: RPL_STEP_MESSAGES.locationUnknown });
  if (!r.assessor) throw conflict(RPL_STEP_MESSAGES.noAssessor);
  await assertCredentialed(trx, r.assessor.id, r.course.unit_code, [input.session_date], "session_date");
  const clash = await assessorClash(trx, r.assessor.id, input.session_date, input.starts_at, endsAt, exceptId);
  if (clash) throw new DomainError(409, RPL_STEP_MESSAGES.doubleBooked(clash), { starts_at: RPL_STEP_MESSAGES.doubleBooked(clash) }, "starts_at");
  return endsAt;
}

async function mailLearner(
  trx: WriteTransaction,
  r: Recognition,
  sessionId: string,
  change: "booked" | "rescheduled" | "cancelled",
  now: Date,
  reason: string | null = null,
): Promise<void> {
  const s = toSession(await sessionQuery(trx).where("s.id", "=", sessionId).executeTakeFirstOrThrow());
  await queueMail(trx, {
    key: `recognition-session:${sessionId}:${change}:${now.toISOString()}`,
    template: "recognition-session",
    recipientId: r.student.id,
    data: {
      change,
      what: s.title,
      unit: r.course.unit_code,
      date: s.session_date,
      startsAt: s.starts_at,
      endsAt: s.ends_at,
      location: s.location.name,
      notes: s.notes,
      reason,
      path: `/student/recognition/${r.id}`,
    },
    now,
  });
}

/** Books a session for an RPL still being decided; its assessor is the application's. */
export async function bookRecognitionSession(
  db: DB,
  viewer: RecognitionViewer,
  applicationId: string,
  input: SessionBookInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<RecognitionSession> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  const id = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    const r = await getRecognition(trx, viewer, applicationId);
    assertRplStep(viewer, r);
    const endsAt = await checkedTime(trx, r, input, null, now);
    await trx
      .insertInto("recognition_sessions")
      .values({
        id,
        application_id: r.id,
        kind: input.kind,
        assessor_id: r.assessor!.id,
        session_date: input.session_date,
        starts_at: input.starts_at,
        ends_at: endsAt,
        location_id: input.location_id,
        notes: input.notes,
        booked_by: actor.id,
        booked_at: at,
        updated_at: at,
      })
      .execute();
    await recordAudit(trx, {
      action: "recognition.session_booked",
      actor,
      subject: { type: "recognition", id: r.id, userId: r.student.id },
      detail: `${input.kind} ${input.session_date} ${input.starts_at}–${endsAt}`,
      now: at,
    });
    await mailLearner(trx, r, id, "booked", now);
  });
  return toSession(await sessionQuery(db).where("s.id", "=", id).executeTakeFirstOrThrow());
}

async function openSession(trx: WriteTransaction, applicationId: string, sessionId: string) {
  const s = await trx
    .selectFrom("recognition_sessions")
    .select(["id", "cancelled_at"])
    .where("id", "=", sessionId)
    .where("application_id", "=", applicationId)
    .executeTakeFirst();
  if (!s) throw notFound("Session");
  if (s.cancelled_at) throw conflict(RPL_STEP_MESSAGES.sessionCancelled);
}

/** Moves a booked session (time, length, place, notes), with the same checks as booking. */
export async function rescheduleRecognitionSession(
  db: DB,
  viewer: RecognitionViewer,
  applicationId: string,
  input: SessionRescheduleInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<RecognitionSession> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const r = await getRecognition(trx, viewer, applicationId);
    assertRplStep(viewer, r);
    await openSession(trx, r.id, input.session_id);
    const endsAt = await checkedTime(trx, r, input, input.session_id, now);
    await trx
      .updateTable("recognition_sessions")
      .set({
        session_date: input.session_date,
        starts_at: input.starts_at,
        ends_at: endsAt,
        location_id: input.location_id,
        notes: input.notes,
        updated_at: at,
      })
      .where("id", "=", input.session_id)
      .execute();
    await recordAudit(trx, {
      action: "recognition.session_rescheduled",
      actor,
      subject: { type: "recognition", id: r.id, userId: r.student.id },
      detail: `${input.session_id}: ${input.session_date} ${input.starts_at}–${endsAt}`,
      now: at,
    });
    await mailLearner(trx, r, input.session_id, "rescheduled", now);
  });
  return toSession(await sessionQuery(db).where("s.id", "=", input.session_id).executeTakeFirstOrThrow());
}

/** Cancels a booked session with the reason; the row stays, marked, and the learner is told. */
export async function cancelRecognitionSession(
  db: DB,
  viewer: RecognitionViewer,
  applicationId: string,
  input: SessionCancelInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const r = await getRecognition(trx, viewer, applicationId);
    if (viewer.role !== "admin" && !(viewer.role === "trainer" && r.assessor?.id === viewer.id)) throw notFound("Application");
    await openSession(trx, r.id, input.session_id);
    await trx
      .updateTable("recognition_sessions")
      .set({ cancelled_at: at, cancelled_by: actor.id, cancel_reason: input.cancel_reason, updated_at: at })
      .where("id", "=", input.session_id)
      .execute();
    await recordAudit(trx, {
      action: "recognition.session_cancelled",
      actor,
      subject: { type: "recognition", id: r.id, userId: r.student.id },
      detail: input.session_id,
      now: at,
    });
    await mailLearner(trx, r, input.session_id, "cancelled", now, input.cancel_reason);
  });
}

/** The learner's coming RPL sessions (not cancelled, from today), for their dashboard. */
export async function upcomingRecognitionSessions(db: DB, studentId: string, now = new Date()): Promise<(RecognitionSession & { unit_code: string })[]> {
  const rows = await sessionQuery(db)
    .innerJoin("recognition_applications as r", "r.id", "s.application_id")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .select("c.unit_code")
    .where("r.student_id", "=", studentId)
    .where("s.cancelled_at", "is", null)
    .where("s.session_date", ">=", organisationToday(now))
    .orderBy("s.session_date")
    .orderBy("s.starts_at")
    .limit(10)
    .execute();
  return rows
    .map((row) => ({ ...toSession(row), unit_code: row.unit_code }))
    .filter((s) => organisationInstant(s.session_date, s.ends_at === "24:00" ? "23:59" : s.ends_at) > now);
}

/**
 * The RPL sessions a calendar feed carries (calendar.server.ts): a learner's own, a trainer's as
 * assessor; not cancelled. Capped like the class sessions.
 */
export async function recognitionFeedSessions(db: DB, owner: { id: string; role: string }) {
  return db
    .selectFrom("recognition_sessions as s")
    .innerJoin("recognition_applications as r", "r.id", "s.application_id")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .innerJoin("users as a", "a.id", "s.assessor_id")
    .innerJoin("delivery_locations as l", "l.id", "s.location_id")
    .select(["s.id", "s.kind", "s.session_date", "s.starts_at", "s.ends_at", "c.unit_code", "l.name as location", "a.full_name as assessor_name"])
    .where("s.cancelled_at", "is", null)
    .where(owner.role === "student" ? "r.student_id" : "s.assessor_id", "=", owner.id)
    .orderBy("s.session_date")
    .orderBy("s.starts_at")
    .limit(500)
    .execute();
}
