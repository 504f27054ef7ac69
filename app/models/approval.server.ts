import { writeTransaction, type DB } from "#db/connection";
import type { UserRow } from "#db/schema";
import { revokeAllAccess } from "./user.server";
import { notFound } from "~/utils/errors";
import { actorOf, recordAudit, type ActorRef } from "./audit.server";
import { recordEvent } from "./event.server";

/**
 * Trainer and administrator self-registrations wait here until an administrator approves
 * or rejects them; until then they cannot sign in.
 */
export type PendingAccount = Pick<UserRow, "id" | "full_name" | "email" | "role" | "created_at">;

export async function listPendingAccounts(db: DB, limit = 50): Promise<PendingAccount[]> {
  return (
    db
      .selectFrom("users")
      .select(["id", "full_name", "email", "role", "created_at"])
      .where("approval_status", "=", "pending")
      // NULLS FIRST spelled out: SQLite's default for ASC, where PostgreSQL's is NULLS LAST.
      .orderBy("created_at", (o) => o.asc().nullsFirst())
      .orderBy("id")
      .limit(limit)
      .execute()
  );
}

async function decide(db: DB, id: string, decision: "approved" | "rejected", actorRef: ActorRef, now: Date): Promise<PendingAccount> {
  const at = now.toISOString();
  const actor = actorOf(actorRef);
  const actorId = actor.id;
  return writeTransaction(db, async (trx) => {
    const account = await trx
      .selectFrom("users")
      .select(["id", "full_name", "email", "role", "created_at"])
      .where("id", "=", id)
      .where("approval_status", "=", "pending")
      .executeTakeFirst();
    if (!account) throw notFound("Pending account");
    await trx.updateTable("users").set({ approval_status: decision, updated_at: at }).where("id", "=", id).execute();
    if (decision === "rejected") await revokeAllAccess(trx, id);
    await recordAudit(trx, {
      action: decision === "approved" ? "staff.approved" : "staff.rejected",
      actor,
      subject: { type: "user", id },
      detail: account.role,
      now: at,
    });
    await recordEvent(trx, {
      actorId,
      subjectUserId: id,
      type: decision === "approved" ? "account.approved" : "account.rejected",
      entityType: "user",
      entityId: id,
      message:
        decision === "approved"
          ? `${account.full_name}'s ${account.role} account was approved`
          : `${account.full_name}'s ${account.role} account request was rejected`,
      now: at,
    });
    return account;
  });
}

/** Lets a pending trainer or administrator sign in. Anything not pending is a 404. */
export function approveAccount(db: DB, id: string, actorId: ActorRef, now = new Date()): Promise<PendingAccount> {
  return decide(db, id, "approved", actorId, now);
}

/** Refuses a pending registration; the account can never sign in. */
export function rejectAccount(db: DB, id: string, actorId: ActorRef, now = new Date()): Promise<PendingAccount> {
  return decide(db, id, "rejected", actorId, now);
}
