import { writeTransaction, type DB } from "#db/connection";
import type { Role } from "#db/schema";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { recordAudit } from "./audit.server";
import { recordEvent } from "./event.server";
import { isUsiExemption } from "~/rules/usi";

/**
 * The USI as a record: one per person, and a verification that staff record (who, when). The
 * USI Registry's web service needs credentials this portal does not hold, so verifying is a
 * staff member's recorded statement that they checked the USI with the Registry;
 * recordUsiVerification is the one place that records it, so an automated check can replace it.
 */

export const USI_TAKEN = "This USI is already recorded for another person";
export const USI_NOT_VERIFIED = "USI not verified";
export const USI_MISSING = "No USI recorded for this student";
export const USI_EXEMPTION_NEEDS_ADMIN = "Only an administrator can record a USI exemption";
export const USI_ALREADY_VERIFIED = "This USI is already verified";

export { USI_STATUSES, usiCleared, type UsiStatus } from "~/rules/usi";
import type { UsiStatus } from "~/rules/usi";

/**
 * Where a person's USI stands, as staff who may not read the USI itself see it: a recorded
 * exemption counts as verified (an administrator recorded it), an unrecorded one does not.
 */
export function usiStatus(user: { usi: string | null; usi_verified_at: string | null }): UsiStatus {
  if (!user.usi) return "missing";
  if (!user.usi_verified_at) return "not_verified";
  return isUsiExemption(user.usi) ? "exempt" : "verified";
}

/**
 * Refuses a USI already held by someone else, for the training office (which may know who
 * holds it); exemption codes are shared by design.
 */
export async function assertUsiFree(db: DB, usi: string | null | undefined, exceptUserId: string | null): Promise<void> {
  if (usi && (await heldByAnother(db, usi, exceptUserId))) throw new DomainError(409, USI_TAKEN, { usi: USI_TAKEN });
}

/** Whether someone other than `exceptUserId` holds this USI (exemption codes are shared by design). */
async function heldByAnother(db: DB, usi: string, exceptUserId: string | null): Promise<boolean> {
  if (isUsiExemption(usi)) return false;
  let query = db.selectFrom("users").select("id").where("usi", "=", usi);
  if (exceptUserId) query = query.where("id", "!=", exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The columns to write for a USI a person gives themselves (registering, their own profile).
 * A USI someone else holds is not refused, since the refusal would tell a stranger who studies
 * here: it is kept aside as `usi_claimed` for the training office, which sees it on the
 * learner's profile and the readiness list, and the person's own USI is left as it was. Call
 * inside the writing transaction.
 */
export async function ownUsiColumns(
  db: DB,
  current: { id: string; usi: string | null } | null,
  next: string | null | undefined,
): Promise<{ usi?: string | null; usi_verified_at?: null; usi_verified_by?: null; usi_claimed?: string | null }> {
  if (next === undefined) return {};
  if (next && (await heldByAnother(db, next, current?.id ?? null))) return { usi_claimed: next };
  return { ...usiChange(current ?? { usi: null }, next), usi_claimed: null };
}

/**
 * The columns to write when a user's USI may change: nothing when it is left out or the same,
 * else the new USI with its verification cleared (a verification is of one USI). Call inside
 * the writing transaction, after assertUsiFree.
 */
export function usiChange(
  current: { usi: string | null },
  next: string | null | undefined,
): { usi?: string | null; usi_verified_at?: null; usi_verified_by?: null } {
  if (next === undefined || next === current.usi) return {};
  return { usi: next, usi_verified_at: null, usi_verified_by: null };
}

/**
 * Whether an administrator's write to a student record also records the USI as verified: when
 * they tick that they checked it with the Registry, or when the USI they record is an
 * exemption code. An exemption has nothing the Registry could confirm; the administrator who
 * records it is the check. A learner's own entry of an exemption never comes through here.
 */
export function officeVerifiesUsi(input: { usi?: string | null; usi_verified?: boolean }): boolean {
  return input.usi_verified === true || (typeof input.usi === "string" && isUsiExemption(input.usi));
}

/**
 * Records that `actor` verified the student's current USI against the USI Registry. An
 * exemption code counts as verified only when an administrator records it. Verifying an
 * already-verified USI changes nothing (409). Call inside a write transaction, or alone.
 */
export async function recordUsiVerification(
  db: DB,
  input: { studentId: string; actor: { id: string; role: Role; client?: string | null }; now?: Date },
): Promise<{ usi: string; usi_verified_at: string }> {
  // the check, the mark and its audit entry in one transaction: the entry exists exactly when the mark does
  return writeTransaction(db, async (trx) => {
    const at = (input.now ?? new Date()).toISOString();
    const student = await trx
      .selectFrom("users")
      .select(["id", "full_name", "usi", "usi_verified_at"])
      .where("id", "=", input.studentId)
      .where("role", "=", "student")
      .executeTakeFirst();
    if (!student) throw notFound("Student");
    if (!student.usi) throw new DomainError(422, USI_MISSING, { usi: USI_MISSING });
    if (student.usi_verified_at) throw conflict(USI_ALREADY_VERIFIED);
    if (isUsiExemption(student.usi) && input.actor.role !== "admin") throw new DomainError(403, USI_EXEMPTION_NEEDS_ADMIN);
    // Conditional on the USI read, so a USI changed meanwhile is never marked verified.
    const result = await trx
      .updateTable("users")
      .set({ usi_verified_at: at, usi_verified_by: input.actor.id })
      .where("id", "=", student.id)
      .where("usi", "=", student.usi)
      .where("usi_verified_at", "is", null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw conflict("The USI was changed meanwhile; please reload and try again.");
    await recordAudit(trx, { action: "usi.verified", actor: input.actor, subject: { type: "user", id: student.id }, now: at });
    await recordEvent(trx, {
      actorId: input.actor.id,
      subjectUserId: student.id,
      type: "usi.verified",
      entityType: "user",
      entityId: student.id,
      message: isUsiExemption(student.usi) ? "Your USI exemption was recorded" : "Your USI was verified with the USI Registry",
      now: at,
    });
    return { usi: student.usi, usi_verified_at: at };
  });
}
