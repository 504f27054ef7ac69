import { writeTransaction, type DB } from "#db/connection";
import { DomainError, notFound } from "~/utils/errors";
import { recordAudit } from "./audit.server";
import { recordEvent } from "./event.server";
import { raiseAssessorStopped } from "./hrw/hrw-currency.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { getUserById, revokeAllAccess, type PublicUser } from "./user.server";

export const NOT_YOURSELF = "You cannot deactivate your own account";
export const LAST_ADMIN = "The last active administrator cannot be deactivated";

/**
 * Switches a trainer's or administrator's account off or on. Never one's own account, and never
 * the last active administrator (someone must be able to switch accounts back on). Deactivating
 * ends every session and API token of the account in the same transaction, so its very next
 * request is signed out.
 */
export async function setStaffActive(
  db: DB,
  input: { id: string; active: boolean; actorId: string; client?: string | null },
  now = new Date(),
): Promise<PublicUser> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const staff = await trx
      .selectFrom("users")
      .select(["id", "full_name", "role", "is_active"])
      .where("id", "=", input.id)
      .where("role", "in", ["trainer", "admin"])
      .executeTakeFirst();
    if (!staff) throw notFound("Staff account");
    if ((staff.is_active === 1) === input.active) return (await getUserById(trx, staff.id))!;
    if (!input.active && staff.id === input.actorId) throw new DomainError(409, NOT_YOURSELF);
    if (!input.active && staff.role === "admin") {
      const others = await trx
        .selectFrom("users")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("role", "=", "admin")
        .where("is_active", "=", 1)
        .where("approval_status", "=", "approved")
        .where("id", "!=", staff.id)
        .executeTakeFirstOrThrow();
      if (Number(others.n) === 0) throw new DomainError(409, LAST_ADMIN);
    }
    await trx
      .updateTable("users")
      .set({ is_active: input.active ? 1 : 0, updated_at: at })
      .where("id", "=", staff.id)
      .execute();
    if (!input.active) await revokeAllAccess(trx, staff.id);
    if (!input.active && staff.role === "trainer") {
      const today = organisationToday(now);
      const held = await trx.selectFrom("hrw_accreditations").select("regulator").where("trainer_id", "=", staff.id).where("expires_on", ">=", today).execute();
      await raiseAssessorStopped(trx, {
        trainerId: staff.id,
        states: held.map((h) => h.regulator),
        what: "Assessor stopped assessing (account deactivated)",
        today,
        actor: { id: input.actorId, client: input.client },
        at,
      });
    }
    await recordAudit(trx, {
      action: input.active ? "staff.reactivated" : "staff.deactivated",
      actor: { id: input.actorId, client: input.client },
      subject: { type: "user", id: staff.id },
      fields: ["is_active"],
      now: at,
    });
    await recordEvent(trx, {
      actorId: input.actorId,
      subjectUserId: staff.id,
      type: input.active ? "staff.reactivated" : "staff.deactivated",
      entityType: "user",
      entityId: staff.id,
      message: input.active ? `${staff.full_name}'s account was reactivated` : `${staff.full_name}'s account was deactivated`,
      now: at,
    });
    return (await getUserById(trx, staff.id))!;
  });
}

/** Trainers and administrators who may sign in or have been switched off (not pending or rejected requests). */
export async function listStaff(
  db: DB,
): Promise<Array<Pick<PublicUser, "id" | "full_name" | "email" | "role" | "is_active" | "last_login"> & { two_step: boolean }>> {
  const rows = await db
    .selectFrom("users")
    .leftJoin("two_step", "two_step.user_id", "users.id")
    .select(["users.id", "users.full_name", "users.email", "users.role", "users.is_active", "users.last_login", "two_step.confirmed_at"])
    .where("users.role", "in", ["trainer", "admin"])
    .where("users.approval_status", "=", "approved")
    .orderBy("users.role")
    .orderBy("users.full_name")
    .execute();
  return rows.map(({ confirmed_at, ...r }) => ({ ...r, is_active: r.is_active === 1, two_step: confirmed_at !== null }));
}
