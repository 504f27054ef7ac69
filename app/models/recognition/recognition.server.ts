import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { Role } from "#db/schema";
import type { Equivalence, RecognitionKind, RecognitionOutcome, RecognitionStatus } from "#db/schema-recognition";
import type { SpooledFile } from "~/files/intake.server";
import type { FileStore } from "~/files/store.server";
import {
  HOW_ACHIEVED,
  RECOGNITION_KIND_LABELS,
  RECOGNITION_MESSAGES,
  RECOGNITION_STATUS_LABELS,
  recognitionTitle,
  type RecognitionApplyInput,
  type RecognitionAssignInput,
  type RecognitionAuthenticateInput,
  type RecognitionDecideInput,
  type RecognitionListQuery,
} from "~/schemas/recognition";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { organisationToday } from "~/utils/organisation-calendar";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { afterKey, keysetRows } from "../batches.server";
import { offerFreeSeats } from "../class-seats.server";
import { changeEnrollments } from "../enrollment-change.server";
import { addEvidence, findEvidenceAssessment, listEvidence, type EvidenceFile } from "../evidence.server";
import { issueCreditNote, issueInvoice, learnerAsBuyer } from "../finance/invoice.server";
import { queueMail } from "../outbox.server";
import { assertFreshAssessor, decisionMailKey, recordRecognitionDecision } from "./recognition-decisions.server";
import { checklistMarkedBy } from "../standards/checklist.server";
import { assertCredentialed, credentialProblem, listActiveTrainers } from "../standards/trainer-credential.server";
import { organisation } from "~/env.server";

/**
 * Credit transfer and recognition of prior learning (CONTRACT 24), one application per
 * enrolment (a unit-only enrolment is one unit). Who reads what: a learner their own
 * applications, a trainer those they assess, admins all; anyone else is told it does not exist.
 *
 * - Licensing rules win: a unit carrying a high-risk work licence class is refused on
 *   application with the reason, and can never be granted.
 * - A credit transfer is granted (60) by an admin once the other RTO's document's authentication
 *   is recorded; the unit leaves the timetable (its class seat is freed) and its fee (a credit
 *   note against the enrolment's own invoice for what was paid for the unit).
 * - An RPL is decided granted (51) or not granted (52) by its assessor, who must be credentialed
 *   for the unit (section 20's matrix) when assigned and when deciding. The course's RPL fee is
 *   invoiced on application. A grant also frees the class seat.
 * - A grant completes the enrolment on the decision's day; each decision is audited and mailed
 *   to the learner, and is appealable through the appeals (assessment kind 'recognition').
 */

export interface RecognitionViewer {
  id: string;
  role: Role;
}

export interface Recognition {
  id: string;
  kind: RecognitionKind;
  status: RecognitionStatus;
  title: string;
  enrollment_id: string;
  student: { id: string; full_name: string };
  course: { id: string; name: string; unit_code: string; licence_class: string | null };
  statement: string;
  applied_on: string;
  authentication: { issuing_rto_code: string; document_number: string; checked_how: string; checked_on: string; checked_by: string | null } | null;
  equivalence: { kind: Equivalence; held_unit_code: string | null; mapping: string | null } | null;
  assessor: { id: string; full_name: string } | null;
  outcome_code: RecognitionOutcome | null;
  decided_on: string | null;
  decided_by: string | null;
  reasons: string | null;
  fee_invoice_id: string | null;
  credit_note_id: string | null;
}

function baseQuery(db: DB) {
  return db
    .selectFrom("recognition_applications as r")
    .innerJoin("users as student", "student.id", "r.student_id")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .leftJoin("users as assessor", "assessor.id", "r.assessor_id")
    .leftJoin("users as checker", "checker.id", "r.checked_by")
    .leftJoin("users as decider", "decider.id", "r.decided_by")
    .select([
      "r.id",
      "r.kind",
      "r.status",
      "r.enrollment_id",
      "r.statement",
      "r.applied_on",
      "r.applied_at",
      "r.issuing_rto_code",
      "r.document_number",
      "r.checked_how",
      "r.checked_on",
      "checker.full_name as checker_name",
      "r.equivalence",
      "r.held_unit_code",
      "r.mapping",
      "r.assessor_id",
      "assessor.full_name as assessor_name",
      "r.outcome_code",
      "r.decided_on",
      "decider.full_name as decider_name",
      "r.reasons",
      "r.fee_invoice_id",
      "r.credit_note_id",
      "student.id as student_id",
      "student.full_name as student_name",
      "c.id as course_id",
      "c.name as course_name",
      "c.unit_code",
      "c.licence_class",
    ]);
}

type BaseRow = Awaited<ReturnType<ReturnType<typeof baseQuery>["executeTakeFirstOrThrow"]>>;

function toRecognition(r: BaseRow): Recognition {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    title: recognitionTitle(r.kind, r.unit_code),
    enrollment_id: r.enrollment_id,
    student: { id: r.student_id, full_name: r.student_name },
    course: { id: r.course_id, name: r.course_name, unit_code: r.unit_code, licence_class: r.licence_class },
    statement: r.statement,
    applied_on: r.applied_on,
    authentication:
      r.issuing_rto_code && r.document_number && r.checked_how && r.checked_on
        ? {
            issuing_rto_code: r.issuing_rto_code,
            document_number: r.document_number,
            checked_how: r.checked_how,
            checked_on: r.checked_on,
            checked_by: r.checker_name ?? null,
          }
        : null,
    equivalence: r.equivalence ? { kind: r.equivalence, held_unit_code: r.held_unit_code, mapping: r.mapping } : null,
    assessor: r.assessor_id ? { id: r.assessor_id, full_name: r.assessor_name ?? "" } : null,
    outcome_code: r.outcome_code,
    decided_on: r.decided_on,
    decided_by: r.decider_name ?? null,
    reasons: r.reasons,
    fee_invoice_id: r.fee_invoice_id,
    credit_note_id: r.credit_note_id,
  };
}

/** Whether the viewer may read the application: its learner, its assessor, an admin. */
export function maySeeRecognition(viewer: RecognitionViewer, r: Pick<Recognition, "student" | "assessor">): boolean {
  if (viewer.role === "admin") return true;
  if (viewer.role === "student") return r.student.id === viewer.id;
  if (viewer.role === "trainer") return r.assessor?.id === viewer.id;
  return false;
}

/** The application if the viewer may see it; otherwise "not found", as for an unknown one. */
export async function getRecognition(db: DB, viewer: RecognitionViewer, id: string): Promise<Recognition> {
  const row = await baseQuery(db).where("r.id", "=", id).executeTakeFirst();
  const r = row ? toRecognition(row) : null;
  if (!r || !maySeeRecognition(viewer, r)) throw notFound("Application");
  return r;
}

/** The register's filters on the viewer's own view; null for a role that has none. */
function registerQuery(db: DB, viewer: RecognitionViewer, q: Partial<RecognitionListQuery>) {
  let query = baseQuery(db);
  if (viewer.role === "student") query = query.where("r.student_id", "=", viewer.id);
  else if (viewer.role === "trainer") query = query.where("r.assessor_id", "=", viewer.id);
  else if (viewer.role !== "admin") return null;
  if (q.kind) query = query.where("r.kind", "=", q.kind);
  if (q.status) query = query.where("r.status", "=", q.status);
  if (q.q) {
    const like = `%${q.q.toLowerCase()}%`;
    query = query.where((eb) => eb.or([eb(eb.fn("lower", ["student.full_name"]), "like", like), eb(eb.fn("lower", ["c.unit_code"]), "like", like)]));
  }
  return query;
}

/** The most applications the register page shows. */
export const RECOGNITION_LIST_LIMIT = 2000;

/** The register: each role's own view (the learner's own, a trainer's to assess, admins all), newest first. */
export async function listRecognitions(db: DB, viewer: RecognitionViewer, q: Partial<RecognitionListQuery> = {}): Promise<Recognition[]> {
  const query = registerQuery(db, viewer, q);
  if (!query) return [];
  const rows = await query.orderBy("r.applied_at", "desc").orderBy("r.id").limit(RECOGNITION_LIST_LIMIT).execute();
  return rows.map(toRecognition);
}

/** The same view whole for its CSV, newest first, a batch at a time by keyset (the page shows the first RECOGNITION_LIST_LIMIT). */
export async function* recognitionRegisterRows(
  db: DB,
  viewer: RecognitionViewer,
  q: Partial<RecognitionListQuery> = {},
): AsyncGenerator<Recognition, void, undefined> {
  const query = registerQuery(db, viewer, q);
  if (!query) return;
  const rows = keysetRows((after: { applied_at: string; id: string } | null, limit) =>
    (after
      ? query.where(
          afterKey([
            ["r.applied_at", "desc", after.applied_at],
            ["r.id", "asc", after.id],
          ]),
        )
      : query
    )
      .orderBy("r.applied_at", "desc")
      .orderBy("r.id")
      .limit(limit)
      .execute(),
  );
  for await (const row of rows) yield toRecognition(row);
}

/** The evidence files of an application the viewer may see. */
export async function recognitionEvidence(db: DB, viewer: RecognitionViewer, id: string): Promise<EvidenceFile[]> {
  await getRecognition(db, viewer, id);
  return listEvidence(db, { kind: "recognition", id });
}

/**
 * Applies for recognition of one enrolment's unit: the learner for their own current enrolment,
 * or an admin on their behalf. A licence unit is refused at once with the reason (kept, audited,
 * mailed); otherwise the application waits for staff, and an RPL is invoiced the course's fee.
 */
export async function applyForRecognition(
  db: DB,
  viewer: RecognitionViewer,
  input: RecognitionApplyInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<Recognition> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  const today = organisationToday(now);
  const id = crypto.randomUUID();
  await writeTransaction(db, async (trx) => {
    const enrollment = await trx
      .selectFrom("enrollments as e")
      .innerJoin("courses as c", "c.id", "e.course_id")
      .select(["e.id", "e.student_id", "e.status", "c.id as course_id", "c.unit_code", "c.name", "c.licence_class", "c.rpl_fee_cents"])
      .where("e.id", "=", input.enrollment_id)
      .executeTakeFirst();
    if (!enrollment || (viewer.role === "student" && enrollment.student_id !== viewer.id) || (viewer.role !== "student" && viewer.role !== "admin"))
      throw notFound("Enrolment");
    if (enrollment.status !== "enrolled" && enrollment.status !== "in_progress") throw conflict(RECOGNITION_MESSAGES.enrollmentClosed, "enrollment_id");
    const earlier = await trx
      .selectFrom("recognition_applications")
      .select(["status"])
      .where("enrollment_id", "=", enrollment.id)
      .where("status", "in", ["applied", "granted"])
      .executeTakeFirst();
    if (earlier) throw conflict(earlier.status === "granted" ? RECOGNITION_MESSAGES.alreadyRecognised : RECOGNITION_MESSAGES.alreadyOpen, "enrollment_id");
    const refusal = enrollment.licence_class ? RECOGNITION_MESSAGES.licenceUnit(enrollment.licence_class) : null;
    await trx
      .insertInto("recognition_applications")
      .values({
        id,
        enrollment_id: enrollment.id,
        student_id: enrollment.student_id,
        course_id: enrollment.course_id,
        kind: input.kind,
        status: refusal ? "refused" : "applied",
        statement: input.statement,
        applied_by: actor.id,
        applied_at: at,
        applied_on: today,
        ...(refusal ? { reasons: refusal, decided_on: today, decided_at: at } : {}),
      })
      .execute();
    await recordAudit(trx, {
      action: "recognition.applied",
      actor,
      subject: { type: "recognition", id, userId: enrollment.student_id },
      detail: `${RECOGNITION_KIND_LABELS[input.kind]}: ${enrollment.unit_code}`,
      now: at,
    });
    if (refusal) {
      await recordAudit(trx, {
        action: "recognition.decided",
        actor,
        subject: { type: "recognition", id, userId: enrollment.student_id },
        detail: `${enrollment.unit_code}: refused (licence unit)`,
        now: at,
      });
      await recordRecognitionDecision(trx, {
        applicationId: id,
        status: "refused",
        outcome: null,
        reasons: refusal,
        assessorId: null,
        decidedBy: null,
        decidedOn: today,
        decidedAt: at,
      });
      await mailDecision(trx, {
        id,
        n: 1,
        studentId: enrollment.student_id,
        kind: input.kind,
        unitCode: enrollment.unit_code,
        decision: "refused",
        reasons: refusal,
        now,
      });
      return;
    }
    if (input.kind === "rpl" && enrollment.rpl_fee_cents > 0) {
      const invoice = await issueInvoice(trx, {
        buyer: await learnerAsBuyer(trx, enrollment.student_id),
        lines: [
          {
            course_id: enrollment.course_id,
            description: `RPL assessment fee: ${enrollment.unit_code} ${enrollment.name}`,
            quantity: 1,
            unit_price_cents: enrollment.rpl_fee_cents,
          },
        ],
        source: { kind: "recognition", id },
        issued_by: actor.id,
        now,
      });
      await trx.updateTable("recognition_applications").set({ fee_invoice_id: invoice.id }).where("id", "=", id).execute();
    }
  });
  return getRecognition(db, viewer, id);
}

async function lockedApplication(trx: WriteTransaction, id: string) {
  const row = await baseQuery(trx).where("r.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Application");
  return toRecognition(row);
}

/** An admin records how a credit transfer's document was authenticated, and the equivalence. */
export async function authenticateCreditTransfer(
  db: DB,
  viewer: RecognitionViewer,
  id: string,
  input: RecognitionAuthenticateInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(by);
  if (viewer.role !== "admin") throw notFound("Application");
  // a credit transfer recognises another RTO's document: this RTO's own results are its records, not a credit
  if (input.issuing_rto_code === organisation().code) throw invalid(RECOGNITION_MESSAGES.ownRtoCode, { issuing_rto_code: RECOGNITION_MESSAGES.ownRtoCode });
  await writeTransaction(db, async (trx) => {
    const r = await lockedApplication(trx, id);
    if (r.kind !== "credit_transfer") throw conflict(RECOGNITION_MESSAGES.wrongKind);
    if (r.status !== "applied") throw conflict(RECOGNITION_MESSAGES.notApplied);
    await trx
      .updateTable("recognition_applications")
      .set({
        issuing_rto_code: input.issuing_rto_code,
        document_number: input.document_number,
        checked_how: input.checked_how,
        checked_on: input.checked_on,
        checked_by: actor.id,
        equivalence: input.equivalence,
        held_unit_code: input.equivalence === "same" ? r.course.unit_code : input.held_unit_code,
        mapping: input.mapping,
      })
      .where("id", "=", id)
      .execute();
    await recordAudit(trx, {
      action: "recognition.authenticated",
      actor,
      subject: { type: "recognition", id, userId: r.student.id },
      detail: `RTO ${input.issuing_rto_code}, document ${input.document_number}, ${input.equivalence}`,
      now: now.toISOString(),
    });
  });
}

/** An admin assigns an RPL's assessor: refused unless credentialed for the unit today (section 20's matrix). */
export async function assignRecognitionAssessor(
  db: DB,
  viewer: RecognitionViewer,
  id: string,
  input: RecognitionAssignInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(by);
  if (viewer.role !== "admin") throw notFound("Application");
  await writeTransaction(db, async (trx) => {
    const r = await lockedApplication(trx, id);
    if (r.kind !== "rpl") throw conflict(RECOGNITION_MESSAGES.wrongKind);
    if (r.status !== "applied") throw conflict(RECOGNITION_MESSAGES.notApplied);
    // anyone else (a learner, an administrator, a deactivated trainer) is simply not a choice, and is not named
    if (!(await listActiveTrainers(trx)).some((t) => t.id === input.assessor_id))
      throw invalid(RECOGNITION_MESSAGES.chooseTrainer, { assessor_id: RECOGNITION_MESSAGES.chooseTrainer });
    await assertCredentialed(trx, input.assessor_id, r.course.unit_code, [organisationToday(now)], "assessor_id");
    await assertFreshAssessor(trx, r, input.assessor_id, now);
    await trx.updateTable("recognition_applications").set({ assessor_id: input.assessor_id }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "recognition.assessor_assigned",
      actor,
      subject: { type: "recognition", id, userId: r.student.id },
      detail: input.assessor_id,
      now: now.toISOString(),
    });
  });
}

/**
 * Decides an application. Credit transfer: an admin grants (60, once authenticated) or refuses.
 * RPL: its assessor (credentialed on the day) grants (51) or does not grant (52); an admin may
 * refuse one (a wrong application), never judge it. A licence unit is never granted.
 */
export async function decideRecognition(
  db: DB,
  viewer: RecognitionViewer,
  id: string,
  input: RecognitionDecideInput,
  by: SignedInActorRef,
  now = new Date(),
): Promise<Recognition> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  const today = organisationToday(now);
  await writeTransaction(db, async (trx) => {
    const r = await lockedApplication(trx, id);
    if (!maySeeRecognition(viewer, r) || viewer.role === "student") throw notFound("Application");
    if (r.status !== "applied") throw conflict(RECOGNITION_MESSAGES.notApplied);
    if (r.course.licence_class && input.decision !== "refused") throw conflict(RECOGNITION_MESSAGES.licenceUnit(r.course.licence_class), "decision");
    let outcome: RecognitionOutcome | null = null;
    if (r.kind === "credit_transfer") {
      if (viewer.role !== "admin") throw notFound("Application");
      if (input.decision === "not_granted") throw invalid(RECOGNITION_MESSAGES.wrongKind, { decision: RECOGNITION_MESSAGES.wrongKind });
      if (input.decision === "granted") {
        if (!r.authentication) throw conflict(RECOGNITION_MESSAGES.noAuthentication, "decision");
        outcome = "60";
      }
    } else if (input.decision !== "refused") {
      if (!r.assessor) throw conflict(RECOGNITION_MESSAGES.noAssessor, "decision");
      if (r.assessor.id !== actor.id) throw conflict(RECOGNITION_MESSAGES.notAssessor, "decision");
      await assertCredentialed(trx, actor.id, r.course.unit_code, [today], "decision");
      if (input.decision === "granted") await assertChecklistMarked(trx, r, actor.id);
      outcome = input.decision === "granted" ? "51" : "52";
    } else if (viewer.role !== "admin") {
      throw conflict(RECOGNITION_MESSAGES.onlyAdminRefuses, "decision");
    }
    const updated = await trx
      .updateTable("recognition_applications")
      .set({ status: input.decision, outcome_code: outcome, decided_on: today, decided_at: at, decided_by: actor.id, reasons: input.reasons })
      .where("id", "=", id)
      .where("status", "=", "applied")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw conflict(RECOGNITION_MESSAGES.notApplied);
    if (input.decision === "granted") await recogniseUnit(trx, r, outcome!, actor, now);
    // kept in the history too, which an upheld appeal's reopening leaves intact
    const n = await recordRecognitionDecision(trx, {
      applicationId: id,
      status: input.decision,
      outcome,
      reasons: input.reasons,
      assessorId: r.assessor?.id ?? null,
      decidedBy: actor.id,
      decidedOn: today,
      decidedAt: at,
    });
    await recordAudit(trx, {
      action: "recognition.decided",
      actor,
      subject: { type: "recognition", id, userId: r.student.id },
      detail: `${r.course.unit_code}: ${RECOGNITION_STATUS_LABELS[input.decision].toLowerCase()}${outcome ? ` (${outcome})` : ""}`,
      now: at,
    });
    await mailDecision(trx, {
      id,
      n,
      studentId: r.student.id,
      kind: r.kind,
      unitCode: r.course.unit_code,
      decision: input.decision,
      reasons: input.reasons,
      now,
    });
  });
  return getRecognition(db, { id: actor.id, role: viewer.role }, id);
}

/**
 * An RPL is granted on the assessor's judgement against the unit's reviewed observation
 * checklist: every item marked on this application by the assessor deciding it.
 */
async function assertChecklistMarked(trx: WriteTransaction, r: Recognition, assessorId: string): Promise<void> {
  const { reviewed, marked } = await checklistMarkedBy(trx, { assessment: { kind: "recognition", id: r.id }, courseId: r.course.id, markedBy: assessorId });
  if (!reviewed) throw conflict(RECOGNITION_MESSAGES.noChecklist, "decision");
  if (!marked) throw conflict(RECOGNITION_MESSAGES.checklistUnmarked, "decision");
}

/**
 * A granted unit is neither taught nor (for a credit transfer) charged: the enrolment completes on
 * the decision's day, its class seat is freed (offered on to the waitlist), and a credit
 * transfer credits what the learner paid for the unit on the enrolment's own invoice. An
 * employer's booking invoice is the employer's to credit (the finance pages' credit note).
 */
async function recogniseUnit(
  trx: WriteTransaction,
  r: Recognition,
  outcome: RecognitionOutcome,
  actor: { id: string; client?: string | null },
  now: Date,
): Promise<void> {
  const enrollment = await trx.selectFrom("enrollments").select(["class_id", "status"]).where("id", "=", r.enrollment_id).executeTakeFirstOrThrow();
  if (enrollment.status !== "enrolled" && enrollment.status !== "in_progress") throw conflict(RECOGNITION_MESSAGES.enrollmentClosed);
  const at = now.toISOString();
  await changeEnrollments(trx, {
    set: { status: "completed", progress_percentage: 100, completion_date: at, class_id: null, updated_at: at },
    where: (u) => u.where("id", "=", r.enrollment_id),
    now: at,
  });
  if (enrollment.class_id) await offerFreeSeats(trx, enrollment.class_id, now, actor);
  if (outcome !== "60") return;
  const invoice = await trx
    .selectFrom("invoices as i")
    .innerJoin("invoice_lines as l", "l.invoice_id", "i.id")
    .select(["i.id", "i.paid_cents", "i.credited_cents", "l.amount_cents"])
    .where("i.source_kind", "=", "enrollment")
    .where("i.source_id", "=", r.enrollment_id)
    .where("l.course_id", "=", r.course.id)
    .executeTakeFirst();
  if (!invoice) return;
  const amount = Math.min(Number(invoice.amount_cents), Number(invoice.paid_cents) - Number(invoice.credited_cents));
  if (amount < 1) return;
  const note = await issueCreditNote(trx, {
    invoiceId: invoice.id,
    amountCents: amount,
    reason: `Credit transfer granted for ${r.course.unit_code}: the unit is not taught or charged`,
    actor,
    now,
  });
  await trx.updateTable("recognition_applications").set({ credit_note_id: note.id }).where("id", "=", r.id).execute();
}

async function mailDecision(
  trx: WriteTransaction,
  d: { id: string; n: number; studentId: string; kind: RecognitionKind; unitCode: string; decision: RecognitionStatus; reasons: string; now: Date },
): Promise<void> {
  await queueMail(trx, {
    key: decisionMailKey(d.id, d.n),
    template: "recognition-decided",
    recipientId: d.studentId,
    data: { what: recognitionTitle(d.kind, d.unitCode), decision: RECOGNITION_STATUS_LABELS[d.decision], reasons: d.reasons, path: "/appeals" },
    now: d.now,
  });
}

/**
 * Adds evidence to an application through the evidence store (section 17's checks: type from
 * the bytes, size, location data removed, stored once by hash): its learner while it waits, its
 * assessor, or an admin.
 */
export async function addRecognitionEvidence(
  db: DB,
  store: FileStore,
  viewer: RecognitionViewer,
  input: { id: string; actor: SignedInActorRef; files: SpooledFile[]; dir: string; tooMany?: boolean },
): Promise<EvidenceFile[]> {
  const r = await getRecognition(db, viewer, input.id);
  const assessment = await findEvidenceAssessment(db, { kind: "recognition", id: r.id });
  if (!assessment) throw notFound("Application");
  const mayUpload = viewer.role === "admin" || (r.status === "applied" && (viewer.role === "student" || r.assessor?.id === viewer.id));
  if (!mayUpload) throw new DomainError(409, RECOGNITION_MESSAGES.notApplied, { files: RECOGNITION_MESSAGES.notApplied }, "files");
  return addEvidence(db, store, { assessment, actor: input.actor, files: input.files, dir: input.dir, tooMany: input.tooMany, mayUpload });
}

/**
 * Applies and attaches the files sent with the application (the apply form's one submission).
 * The application stands even when a file is refused: the answer names the refusal, and the
 * learner adds the file again on the application's page.
 */
export async function applyWithFiles(
  db: DB,
  store: FileStore,
  viewer: RecognitionViewer,
  input: RecognitionApplyInput,
  by: SignedInActorRef,
  upload: { files: SpooledFile[]; dir: string; tooMany?: boolean },
): Promise<{ recognition: Recognition; fileProblem: string | null }> {
  const recognition = await applyForRecognition(db, viewer, input, by);
  if (upload.files.length === 0 || recognition.status !== "applied") return { recognition, fileProblem: null };
  try {
    await addRecognitionEvidence(db, store, viewer, { id: recognition.id, actor: by, files: upload.files, dir: upload.dir, tooMany: upload.tooMany });
    return { recognition, fileProblem: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { recognition, fileProblem: error.message };
  }
}

/** What a learner's granted units show on their record of results: how each was achieved. */
export async function recognisedUnitsOf(db: DB, studentId: string): Promise<{ enrollment_id: string; unit_code: string; how: string; decided_on: string }[]> {
  const rows = await db
    .selectFrom("recognition_applications as r")
    .innerJoin("courses as c", "c.id", "r.course_id")
    .select(["r.enrollment_id", "c.unit_code", "r.outcome_code", "r.decided_on"])
    .where("r.student_id", "=", studentId)
    .where("r.status", "=", "granted")
    .orderBy("r.decided_on")
    .execute();
  return rows.map((r) => ({
    enrollment_id: r.enrollment_id,
    unit_code: r.unit_code,
    how: HOW_ACHIEVED[r.outcome_code as "51" | "60"],
    decided_on: r.decided_on!,
  }));
}

/** Whether an enrolment's unit was only credited from another RTO's document: no statement of attainment is issued for it. */
export async function creditedOnly(db: DB, enrollmentId: string): Promise<boolean> {
  const row = await db
    .selectFrom("recognition_applications")
    .select("id")
    .where("enrollment_id", "=", enrollmentId)
    .where("outcome_code", "=", "60")
    .executeTakeFirst();
  return Boolean(row);
}

/**
 * The learner's enrolments that may apply for recognition: current (enrolled or in progress) and
 * without an application waiting or granted. A licence unit is listed too: applying for it is
 * refused with the reason, which is the portal's answer the learner should read. Each carries the
 * course's RPL fee (cents), which the form shows where the learner chooses RPL.
 */
export async function recognitionChoices(
  db: DB,
  studentId: string,
): Promise<{ enrollment_id: string; unit_code: string; course_name: string; licence_class: string | null; rpl_fee_cents: number }[]> {
  return db
    .selectFrom("enrollments as e")
    .innerJoin("courses as c", "c.id", "e.course_id")
    .select(["e.id as enrollment_id", "c.unit_code", "c.name as course_name", "c.licence_class", "c.rpl_fee_cents"])
    .where("e.student_id", "=", studentId)
    .where("e.status", "in", ["enrolled", "in_progress"])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("recognition_applications as r")
            .select("r.id")
            .whereRef("r.enrollment_id", "=", "e.id")
            .where("r.status", "in", ["applied", "granted"]),
        ),
      ),
    )
    .orderBy("c.unit_code")
    .orderBy("e.id")
    .execute();
}

/** Trainers section 20's matrix credentials for the unit today: whom an admin may assign an RPL to. */
export async function recognitionAssessorChoices(db: DB, unitCode: string, now = new Date()): Promise<{ id: string; full_name: string }[]> {
  const today = organisationToday(now);
  const trainers = await listActiveTrainers(db);
  const problems = await Promise.all(trainers.map((t) => credentialProblem(db, t.id, unitCode, [today])));
  return trainers.filter((_, i) => problems[i] === null);
}

/** The register's CSV columns. */
export const RECOGNITION_CSV_COLUMNS = [
  "applied_on",
  "kind",
  "status",
  "outcome_code",
  "learner",
  "unit_code",
  "issuing_rto_code",
  "document_number",
  "checked_on",
  "checked_by",
  "equivalence",
  "held_unit_code",
  "assessor",
  "decided_on",
  "decided_by",
  "reasons",
] as const;

export function recognitionCsvRow(r: Recognition): Record<(typeof RECOGNITION_CSV_COLUMNS)[number], string> {
  return {
    applied_on: r.applied_on,
    kind: RECOGNITION_KIND_LABELS[r.kind],
    status: RECOGNITION_STATUS_LABELS[r.status],
    outcome_code: r.outcome_code ?? "",
    learner: r.student.full_name,
    unit_code: r.course.unit_code,
    issuing_rto_code: r.authentication?.issuing_rto_code ?? "",
    document_number: r.authentication?.document_number ?? "",
    checked_on: r.authentication?.checked_on ?? "",
    checked_by: r.authentication?.checked_by ?? "",
    equivalence: r.equivalence?.kind ?? "",
    held_unit_code: r.equivalence?.held_unit_code ?? "",
    assessor: r.assessor?.full_name ?? "",
    decided_on: r.decided_on ?? "",
    decided_by: r.decided_by ?? "",
    reasons: r.reasons ?? "",
  };
}
