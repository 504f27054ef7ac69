import crypto from "node:crypto";
import type { InvitationKind } from "#db/schema-employers";
import type { DB, WriteTransaction } from "#db/connection";
import { randomToken, sha256 } from "~/security/password.server";
import { INVITATION_DAYS, INVITATION_EXPIRED, INVITATION_UNKNOWN, INVITATION_USED } from "~/schemas/employer-text";
import { DomainError } from "~/utils/errors";

/**
 * The links mailed to an employer's user (to choose a password) and to each worker named on a
 * booking (to accept it). A token is 192 random bits, stored only as its hash; it lasts
 * INVITATION_DAYS and works once. The link, like a password reset's, is made from the request
 * by the caller (a model reads no Request).
 */

export type MakeLink = (token: string) => string | null;

/** Stores a new invitation and returns its token (the caller mails the link, in the same transaction). */
export async function createInvitation(
  trx: WriteTransaction,
  input: { kind: InvitationKind; userId: string; workerId?: string | null; now: Date },
): Promise<{ id: string; token: string; expiresAt: string }> {
  const token = randomToken(24);
  const id = crypto.randomUUID();
  const expiresAt = new Date(input.now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  await trx
    .insertInto("invitations")
    .values({
      id,
      token_hash: sha256(token),
      kind: input.kind,
      user_id: input.userId,
      worker_id: input.workerId ?? null,
      expires_at: expiresAt,
      used_at: null,
      created_at: input.now.toISOString(),
    })
    .execute();
  return { id, token, expiresAt };
}

export interface OpenInvitation {
  id: string;
  kind: InvitationKind;
  userId: string;
  workerId: string | null;
  expiresAt: string;
  /** whether the account already has a password of its own (a worker who signs in instead) */
  hasPassword: boolean;
}

/** An account made for an invitation has no usable password until the invitation is accepted. */
export const NO_PASSWORD_YET = "invited";

/** The invitation behind a token, or a 404/410 with the words to show; `kind` must match. */
export async function openInvitation(db: DB, token: string, kind: InvitationKind, now = new Date()): Promise<OpenInvitation> {
  if (typeof token !== "string" || token.length < 16 || token.length > 200) throw new DomainError(404, INVITATION_UNKNOWN);
  const row = await db
    .selectFrom("invitations as i")
    .innerJoin("users as u", "u.id", "i.user_id")
    .select(["i.id", "i.kind", "i.user_id", "i.worker_id", "i.expires_at", "i.used_at", "u.password_hash"])
    .where("i.token_hash", "=", sha256(token))
    .executeTakeFirst();
  if (!row || row.kind !== kind) throw new DomainError(404, INVITATION_UNKNOWN);
  if (row.used_at) throw new DomainError(409, INVITATION_USED);
  if (row.expires_at <= now.toISOString()) throw new DomainError(409, INVITATION_EXPIRED);
  return {
    id: row.id,
    kind: row.kind,
    userId: row.user_id,
    workerId: row.worker_id,
    expiresAt: row.expires_at,
    hasPassword: row.password_hash !== NO_PASSWORD_YET,
  };
}

/** Spends an invitation inside the transaction that acts on it; false when another request spent it first. */
export async function spendInvitation(trx: WriteTransaction, id: string, now: Date): Promise<boolean> {
  const result = await trx.updateTable("invitations").set({ used_at: now.toISOString() }).where("id", "=", id).where("used_at", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
