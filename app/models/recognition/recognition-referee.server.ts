import crypto from "node:crypto";
import { writeTransaction, type DB } from "#db/connection";
import { RATE_LIMITS, requireRateLimit } from "~/security/rate-limits.server";
import { REFEREE_LINK_DAYS, RPL_STEP_MESSAGES, type RefereeReportInput, type RefereeRequestInput } from "~/schemas/recognition-rpl";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { listChecklists } from "../standards/checklist.server";
import { queueMail } from "../outbox.server";
import { getRecognition, type Recognition, type RecognitionViewer } from "./recognition.server";

/**
 * An RPL's third-party report (issue 56): the assessor or an administrator asks a referee (an
 * employer, a supervisor) by mail; the link opens a form that works signed out, once, for
 * REFEREE_LINK_DAYS. The link's token is kept only as its hash. The report is evidence on the
 * application: its assessor and administrators read it; the learner sees that it was asked for
 * and whether it arrived, never what the referee wrote (a referee writes candidly to the RTO,
 * as a reference is written; the learner's access to their records goes through the office).
 */

const hashToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** The report page's path: the token is its only credential. */
export const refereeReportPath = (token: string) => `/referee-report/${token}`;

export type RefereeRequestState = "waiting" | "received" | "expired";

export interface RefereeReport {
  name: string;
  role: string;
  organisation: string;
  phone: string;
  known_how: string;
  work_witnessed: string;
  worked_from: string;
  worked_to: string;
}

export interface RefereeRequest {
  id: string;
  application_id: string;
  referee_name: string;
  /** staff only: the learner is shown who was asked, not their address */
  referee_email: string | null;
  relationship: string | null;
  requested_at: string;
  expires_at: string;
  submitted_at: string | null;
  state: RefereeRequestState;
  /** what the referee wrote, for the assessor and administrators; null for the learner and while it waits */
  report: RefereeReport | null;
}

const isStaff = (viewer: RecognitionViewer) => viewer.role === "admin" || viewer.role === "trainer";

/** Only the application's assessor or an administrator asks for a report or books a session, and only on an RPL still being decided. */
export function assertRplStep(viewer: RecognitionViewer, r: Recognition): void {
  if (viewer.role !== "admin" && !(viewer.role === "trainer" && r.assessor?.id === viewer.id)) throw notFound("Application");
  if (r.kind !== "rpl") throw conflict(RPL_STEP_MESSAGES.notRpl);
  if (r.status !== "applied") throw conflict(RPL_STEP_MESSAGES.notOpen);
}

/**
 * Asks a referee for a report: the request and its mail (to the address typed, greeting nobody
 * by name) in one transaction. Returns the request and the token (shown to nobody: it is in the
 * mail only; tests read it here).
 */
export async function requestRefereeReport(
  db: DB,
  viewer: RecognitionViewer,
  applicationId: string,
  input: RefereeRequestInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<{ request: RefereeRequest; token: string }> {
  const actor = signedInActor(by);
  const r = await getRecognition(db, viewer, applicationId);
  assertRplStep(viewer, r);
  const id = crypto.randomUUID();
  const token = crypto.randomBytes(32).toString("base64url");
  const at = now.toISOString();
  const expiresAt = new Date(now.getTime() + REFEREE_LINK_DAYS * 86_400_000).toISOString();
  await writeTransaction(db, async (trx) => {
    // decided in the meantime: nothing is asked
    const still = await trx.selectFrom("recognition_applications").select("status").where("id", "=", r.id).executeTakeFirstOrThrow();
    if (still.status !== "applied") throw conflict(RPL_STEP_MESSAGES.notOpen);
    await trx
      .insertInto("recognition_referee_requests")
      .values({
        id,
        application_id: r.id,
        referee_name: input.referee_name,
        referee_email: input.referee_email,
        relationship: input.relationship,
        token_hash: hashToken(token),
        requested_by: actor.id,
        requested_at: at,
        expires_at: expiresAt,
      })
      .execute();
    await queueMail(trx, {
      key: `recognition-referee-request:${id}`,
      template: "recognition-referee-request",
      recipientId: { email: input.referee_email, name: input.referee_name },
      data: { learner: r.student.full_name, unit: `${r.course.unit_code} ${r.course.name}`, link: refereeReportPath(token), expiresAt },
      now,
    });
    await recordAudit(trx, {
      action: "recognition.referee_requested",
      actor,
      subject: { type: "recognition", id: r.id, userId: r.student.id },
      detail: `referee request ${id}`,
      now: at,
    });
  });
  const [request] = (await listRefereeRequests(db, viewer, r.id)).filter((q) => q.id === id);
  return { request: request!, token };
}

/** The application's referee requests, oldest first, as the viewer may read them (the learner: who and whether, not what). */
export async function listRefereeRequests(db: DB, viewer: RecognitionViewer, applicationId: string, now = new Date()): Promise<RefereeRequest[]> {
  const r = await getRecognition(db, viewer, applicationId);
  const rows = await db
    .selectFrom("recognition_referee_requests")
    .selectAll()
    .where("application_id", "=", r.id)
    .orderBy("requested_at")
    .orderBy("id")
    .execute();
  const staff = isStaff(viewer);
  return rows.map((row) => ({
    id: row.id,
    application_id: row.application_id,
    referee_name: row.referee_name,
    referee_email: staff ? row.referee_email : null,
    relationship: row.relationship,
    requested_at: row.requested_at,
    expires_at: row.expires_at,
    submitted_at: row.submitted_at,
    state: row.submitted_at ? "received" : new Date(row.expires_at).getTime() <= now.getTime() ? "expired" : "waiting",
    report:
      staff && row.submitted_at
        ? {
            name: row.reporter_name ?? "",
            role: row.reporter_role ?? "",
            organisation: row.reporter_organisation ?? "",
            phone: row.reporter_phone ?? "",
            known_how: row.known_how ?? "",
            work_witnessed: row.work_witnessed ?? "",
            worked_from: row.worked_from ?? "",
            worked_to: row.worked_to ?? "",
          }
        : null,
  }));
}

export type RefereeLinkState = "open" | "used" | "expired" | "closed";

/**
 * What a referee's link opens: whom and what it is about, the referee's name as staff typed it,
 * and the unit's reviewed checklist items (what the assessor looks for), or why it no longer
 * works. Null for an unknown link.
 */
export async function refereeReportForToken(
  db: DB,
  token: string,
  now = new Date(),
): Promise<{ state: RefereeLinkState; learner: string; unit: string; referee_name: string; looks_for: string[] } | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const row = await db
    .selectFrom("recognition_referee_requests as q")
    .innerJoin("recognition_applications as r", "r.id", "q.application_id")
    .innerJoin("users as s", "s.id", "r.student_id")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .select([
      "q.referee_name",
      "q.expires_at",
      "q.submitted_at",
      "r.status",
      "s.full_name as learner",
      "c.id as course_id",
      "c.unit_code",
      "c.name as course_name",
    ])
    .where("q.token_hash", "=", hashToken(token))
    .executeTakeFirst();
  if (!row) return null;
  const state: RefereeLinkState = row.submitted_at
    ? "used"
    : new Date(row.expires_at).getTime() <= now.getTime()
      ? "expired"
      : row.status !== "applied"
        ? "closed"
        : "open";
  const looksFor = state === "open" ? (await listChecklists(db, row.course_id)).filter((c) => c.reviewed_at).flatMap((c) => c.items.map((i) => i.text)) : [];
  return { state, learner: row.learner, unit: `${row.unit_code} ${row.course_name}`, referee_name: row.referee_name, looks_for: looksFor };
}

const LINK_REFUSALS: Record<Exclude<RefereeLinkState, "open">, { status: 409 | 410; message: string }> = {
  used: { status: 409, message: RPL_STEP_MESSAGES.refereeUsed },
  expired: { status: 410, message: RPL_STEP_MESSAGES.refereeExpired },
  closed: { status: 410, message: RPL_STEP_MESSAGES.refereeClosed },
};

/**
 * Records a referee's report, once: the request is marked submitted with what they wrote in one
 * statement guarded by "not yet submitted", so a second submission (a double click, a forwarded
 * link) is a 409 with nothing changed. An unknown link is a 404, an expired one or one whose
 * application was decided a 410. A signed-out client (`client`) sends at most
 * RATE_LIMITS.refereeReportClient reports an hour.
 */
export async function submitRefereeReport(db: DB, token: string, input: RefereeReportInput, options: { now?: Date; client?: string } = {}): Promise<void> {
  const now = options.now ?? new Date();
  const found = await refereeReportForToken(db, token, now);
  if (!found) throw new DomainError(404, RPL_STEP_MESSAGES.refereeUnknown);
  if (found.state !== "open") throw new DomainError(LINK_REFUSALS[found.state].status, LINK_REFUSALS[found.state].message);
  if (options.client !== undefined)
    await requireRateLimit(db, [RATE_LIMITS.refereeReportClient], { client: options.client }, RPL_STEP_MESSAGES.tooManyReports, now);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const request = await trx
      .selectFrom("recognition_referee_requests as q")
      .innerJoin("recognition_applications as r", "r.id", "q.application_id")
      .select(["q.id", "q.application_id", "r.student_id", "r.status"])
      .where("q.token_hash", "=", hashToken(token))
      .executeTakeFirstOrThrow();
    if (request.status !== "applied") throw new DomainError(410, RPL_STEP_MESSAGES.refereeClosed);
    const marked = await trx
      .updateTable("recognition_referee_requests")
      .set({
        submitted_at: at,
        reporter_name: input.reporter_name,
        reporter_role: input.reporter_role,
        reporter_organisation: input.reporter_organisation,
        reporter_phone: input.reporter_phone,
        known_how: input.known_how,
        work_witnessed: input.work_witnessed,
        worked_from: input.worked_from,
        worked_to: input.worked_to,
      })
      .where("id", "=", request.id)
      .where("submitted_at", "is", null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new DomainError(409, RPL_STEP_MESSAGES.refereeUsed);
    await recordAudit(trx, {
      action: "recognition.referee_reported",
      actor: { id: null, client: options.client ?? null },
      subject: { type: "recognition", id: request.application_id, userId: request.student_id },
      detail: `referee request ${request.id}`,
      now: at,
    });
  });
}
