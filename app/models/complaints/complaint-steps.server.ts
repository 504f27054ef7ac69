import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { ResolveInput } from "~/schemas/complaint";
import { COMPLAINT_MESSAGES, OUTCOME_LABELS, describeChange, isReopened } from "~/schemas/complaint-text";
import { conflict, DomainError, invalid, notFound } from "~/utils/errors";
import { changeResultOnAppeal } from "../assessment.server";
import { recordAudit, signedInActor, type SignedInActorRef } from "../audit.server";
import { changePartResultOnAppeal } from "../hrw/hrw-assessment.server";
import { queueMail } from "../outbox.server";
import { reopenRecognitionOnAppeal } from "../recognition/recognition-decisions.server";
import type { ComplaintReader } from "../personal-data.server";
import { baseQuery, deciderChoices, scoped } from "./complaint.server";

/**
 * The steps of a register item: acknowledged, assigned to a decider (an appeal: never the
 * assessor whose decision it is), resolved; each with who and when, each audited, a changed
 * result applied to the assessment through its own model.
 */

/** The item a step changes, as the reader may read it (not found otherwise), inside the step's transaction. */
async function lockedItem(trx: WriteTransaction, id: string, reader: ComplaintReader) {
  const row = await scoped(baseQuery(trx), reader).where("c.id", "=", id).executeTakeFirst();
  if (!row) throw notFound("Complaint or appeal");
  return row;
}

/** Marks an item acknowledged (staff), recording who and when. */
export async function acknowledgeComplaint(db: DB, id: string, by: SignedInActorRef, reader: ComplaintReader, now = new Date()): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, reader);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    if (row.status !== "received") throw conflict(COMPLAINT_MESSAGES.alreadyAcknowledged);
    const changed = await trx
      .updateTable("complaints")
      .set({ status: "acknowledged", acknowledged_at: at, acknowledged_by: actor.id })
      .where("id", "=", id)
      .where("status", "=", "received")
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict(COMPLAINT_MESSAGES.alreadyAcknowledged);
    await recordAudit(trx, {
      action: "complaint.acknowledged",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: row.reference,
      now: at,
    });
  });
}

/** Assigns an appeal to a staff member to decide (administrators): never its assessor. */
export async function assignDecider(db: DB, id: string, deciderId: string, by: SignedInActorRef, now = new Date()): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, { id: actor.id, role: "admin" });
    if (row.kind !== "appeal") throw conflict(COMPLAINT_MESSAGES.notAnAppeal);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    if (deciderId === row.assessor_id) throw new DomainError(409, COMPLAINT_MESSAGES.deciderIsAssessor, { decider_id: COMPLAINT_MESSAGES.deciderIsAssessor });
    const choices = await deciderChoices(trx, row.assessor_id);
    const decider = choices.find((c) => c.id === deciderId);
    if (!decider) throw invalid("Choose an active trainer or administrator", { decider_id: "Choose an active trainer or administrator" });
    await trx.updateTable("complaints").set({ decider_id: deciderId }).where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "appeal.assigned",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: `${row.reference} to ${deciderId}`,
      now: at,
    });
  });
}

/**
 * Resolves a complaint or decides an appeal: the outcome and reasons, recorded with who and
 * when, and mailed to the person who lodged it (when there is an address). An appeal is decided
 * by anyone but its assessor (409), by the staff member assigned to it or an admin; an upheld
 * (or partly upheld) appeal may change the result, applied to the assessment by its own model.
 * Resolving an item never acknowledged acknowledges it at the same moment.
 */
export async function resolveComplaint(
  db: DB,
  id: string,
  input: ResolveInput,
  by: SignedInActorRef,
  reader: ComplaintReader,
  now = new Date(),
): Promise<void> {
  const actor = signedInActor(by);
  const at = now.toISOString();
  await writeTransaction(db, async (trx) => {
    const row = await lockedItem(trx, id, reader);
    if (row.status === "resolved") throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    const changesResult = input.new_status !== undefined || input.hrw_part !== undefined;
    let changed: string | null = null;
    if (row.kind === "appeal") {
      if (row.assessor_id === actor.id) throw conflict(COMPLAINT_MESSAGES.deciderIsAssessor);
      if (reader.role !== "admin" && row.decider_id !== actor.id) throw conflict(COMPLAINT_MESSAGES.notAssigned);
      if (changesResult && input.outcome === "dismissed")
        throw invalid(COMPLAINT_MESSAGES.changedResultNeedsUpheld, { outcome: COMPLAINT_MESSAGES.changedResultNeedsUpheld });
      if (changesResult) {
        const change = { reference: row.reference, actor, now };
        if (row.assessment_kind === "unit" && input.new_status) {
          await changeResultOnAppeal(trx, { assessmentId: row.assessment_id!, status: input.new_status, ...change });
          changed = JSON.stringify({ status: input.new_status });
        } else if (row.assessment_kind === "hrw" && input.hrw_part && input.hrw_result) {
          await changePartResultOnAppeal(trx, { assessmentId: row.assessment_id!, part: input.hrw_part, result: input.hrw_result, ...change });
          changed = JSON.stringify({ part: input.hrw_part, result: input.hrw_result });
        } else {
          const message = row.assessment_kind === "unit" ? "Choose the unit's new result" : "Choose the part and its new result";
          throw invalid(message, { [row.assessment_kind === "unit" ? "new_status" : "hrw_part"]: message });
        }
      }
      // an upheld appeal of a credit transfer or RPL decision reopens the application for a new one
      if (row.assessment_kind === "recognition" && input.outcome !== "dismissed" && !changesResult) {
        const reopened = await reopenRecognitionOnAppeal(trx, { applicationId: row.assessment_id!, appeal: { id, reference: row.reference }, actor, now });
        if (reopened) changed = JSON.stringify({ reopened: true });
      }
    } else if (changesResult) {
      throw invalid(COMPLAINT_MESSAGES.notAnAppeal, { new_status: COMPLAINT_MESSAGES.notAnAppeal });
    }
    const update = await trx
      .updateTable("complaints")
      .set({
        status: "resolved",
        resolved_at: at,
        resolved_by: actor.id,
        outcome: input.outcome,
        reasons: input.reasons,
        changed_result: changed,
        ...(row.acknowledged_at ? {} : { acknowledged_at: at, acknowledged_by: actor.id }),
      })
      .where("id", "=", id)
      .where("status", "<>", "resolved")
      .executeTakeFirst();
    if (Number(update.numUpdatedRows) !== 1) throw conflict(COMPLAINT_MESSAGES.alreadyResolved);
    const recipient = row.lodged_by ?? (row.email ? { email: row.email, name: row.name } : null);
    if (recipient) {
      await queueMail(trx, {
        key: `complaint-resolved:${id}`,
        template: "complaint-resolved",
        recipientId: recipient,
        data: {
          kind: row.kind,
          reference: row.reference,
          outcome: input.outcome,
          reasons: input.reasons,
          changedResult: changed ? describeChange(changed) : null,
          reopened: changed ? isReopened(changed) : false,
          path: "/complaints/policy",
        },
        now,
      });
    }
    await recordAudit(trx, {
      action: row.kind === "appeal" ? "appeal.decided" : "complaint.resolved",
      actor,
      subject: { type: "complaint", id, userId: row.lodged_by },
      detail: `${row.reference}: ${OUTCOME_LABELS[input.outcome]}${changed ? `, result changed to ${describeChange(changed)}` : ""}`,
      now: at,
    });
  });
}
