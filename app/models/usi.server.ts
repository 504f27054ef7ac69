import type { DB } from "#db/connection";
import type { Role } from "#db/schema";
import { conflict, DomainError, notFound } from "~/utils/errors";
import { recordAudit, type AuditActor } from "./audit.server";
import { recordEvent } from "./event.server";
import { isUsiExemption } from "./usi";

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

/** Where a person's USI stands for issuing a certificate. */
export type UsiStatus = "missing" | "unverified" | "verified";

export function usiStatus(user: { usi: string | null; usi_verified_at: string | null }): UsiStatus {
  if (!user.usi) return "missing";
  return user.usi_verified_at ? "verified" : "unverified";
}

/** Refuses a USI already held by someone else; exemption codes are shared by design. */
export async function assertUsiFree(db: DB, usi: string | null | undefined, exceptUserId: string | null): Promise<void> {
  if (!usi || isUsiExemption(usi)) return;
  let query = db.selectFrom("users").select("id").where("usi", "=", usi);
  if (exceptUserId) query = query.where("id", "!=", exceptUserId);
  if (await query.executeTakeFirst()) throw new DomainError(409, USI_TAKEN, { usi: USI_TAKEN });
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
 * A student's USI for a staff member who needs to read it (a trainer verifying it), recorded
 * in the audit trail as viewed; null for an unknown id or an account that is not a student's.
 */
export async function viewStudentUsi(
  db: DB,
  input: { studentId: string; viewer: AuditActor },
): Promise<{ id: string; full_name: string; email: string; usi: string | null; usi_verified_at: string | null } | null> {
  const student = await db
    .selectFrom("users")
    .select(["id", "full_name", "email", "usi", "usi_verified_at"])
    .where("id", "=", input.studentId)
    .where("role", "=", "student")
    .executeTakeFirst();
  if (!student) return null;
  await recordAudit(db, { action: "usi.viewed", actor: input.viewer, subject: { type: "user", id: student.id } });
  return student;
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
  const at = (input.now ?? new Date()).toISOString();
  const student = await db
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
  const result = await db
    .updateTable("users")
    .set({ usi_verified_at: at, usi_verified_by: input.actor.id })
    .where("id", "=", student.id)
    .where("usi", "=", student.usi)
    .where("usi_verified_at", "is", null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw conflict("The USI was changed meanwhile; please reload and try again.");
  await recordAudit(db, { action: "usi.verified", actor: input.actor, subject: { type: "user", id: student.id }, now: at });
  await recordEvent(db, {
    actorId: input.actor.id,
    subjectUserId: student.id,
    type: "usi.verified",
    entityType: "user",
    entityId: student.id,
    message: isUsiExemption(student.usi) ? "Your USI exemption was recorded" : "Your USI was verified with the USI Registry",
    now: at,
  });
  return { usi: student.usi, usi_verified_at: at };
}
