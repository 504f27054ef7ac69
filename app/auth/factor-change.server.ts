import { type DB, type WriteTransaction } from "#db/connection";
import type { Role } from "#db/schema";
import { recordAudit, recordAuditAlone } from "~/models/audit.server";
import { queueMail } from "~/models/outbox.server";
import type { FactorChange } from "~/schemas/mail-text";
import { changePassword, revokeOtherAccess, WRONG_CURRENT_PASSWORD } from "~/models/user.server";
import type { OwnerProof } from "~/schemas/auth";
import { DomainError, isDomainError, tooMany } from "~/utils/errors";
import { verifyPassword } from "~/security/password.server";
import { recordSignInSuccess, takeSignInAttempt, TOO_MANY_ATTEMPTS } from "./sign-in.server";
import { beginTwoStep, checkSecondStep, confirmTwoStep, hasTwoStep, resetTwoStep, WRONG_CODE } from "./two-step.server";

/**
 * Changes to how an account signs in (turning two-step sign-in off, setting it up again,
 * changing the password) ask for the owner, not just a session: a session cookie can be
 * stolen, the password and the authenticator are the owner's. Each asks for the current
 * password and, where two-step sign-in is on, a current code or a recovery code; a wrong one
 * changes nothing and counts against the same limits as at sign-in. A change ends every other
 * session and every API token of the account (this browser keeps its session) in the same
 * transaction, and the owner is mailed.
 */

export const CURRENT_PASSWORD_REQUIRED = "Enter your current password";
export const CURRENT_CODE_REQUIRED = "Enter a code from your authenticator app, or a recovery code";

/** Who asks for a change: the signed-in user, their client, and the stored key of this browser's session. */
export interface Asker {
  user: { id: string; email: string; full_name: string; role: Role };
  client: string;
  session: string | null;
}

/**
 * Checks that the owner is at the keyboard. The password counts as a sign-in attempt (the
 * account's and the client's wrong-password limits), the code as a second step (the account's
 * wrong-code limit; a code is accepted once). Errors name their field.
 */
async function proveOwner(db: DB, asker: Asker, proof: Partial<OwnerProof>, now: Date, options: { code: boolean } = { code: true }): Promise<void> {
  if (!proof.current_password) throw new DomainError(422, CURRENT_PASSWORD_REQUIRED, {}, "current_password");
  const who = { email: asker.user.email, client: asker.client };
  const attempt = await takeSignInAttempt(db, who);
  if (!attempt.ok) throw tooMany(TOO_MANY_ATTEMPTS, attempt.retryAfterSeconds);
  const row = await db.selectFrom("users").select("password_hash").where("id", "=", asker.user.id).executeTakeFirstOrThrow();
  if (!(await verifyPassword(proof.current_password, row.password_hash))) {
    await recordAuditAlone(db, {
      action: "sign_in.failed",
      actor: { id: asker.user.id, client: asker.client },
      subject: { type: "user", id: asker.user.id },
      detail: "wrong current password for a sign-in change",
      now,
    });
    throw new DomainError(422, WRONG_CURRENT_PASSWORD, {}, "current_password");
  }
  await recordSignInSuccess(db, who, attempt.taken);
  if (!options.code || !(await hasTwoStep(db, asker.user.id))) return;
  if (!proof.current_code) throw new DomainError(422, CURRENT_CODE_REQUIRED, {}, "current_code");
  try {
    await checkSecondStep(db, { userId: asker.user.id, code: proof.current_code, now });
  } catch (error) {
    if (isDomainError(error) && error.status === 401) {
      await recordAuditAlone(db, {
        action: "sign_in.failed",
        actor: { id: asker.user.id, client: asker.client },
        subject: { type: "user", id: asker.user.id },
        detail: "wrong second-step code for a sign-in change",
        now,
      });
      throw new DomainError(422, WRONG_CODE, {}, "current_code");
    }
    throw error;
  }
}

/**
 * Inside the change's transaction: every other session and every API token of the account
 * ends, the trail says so, and the owner's notice is queued (the outbox sends it), so the mail
 * exists exactly when the change does.
 */
function endOtherAccess(asker: Asker, change: FactorChange, now: Date) {
  return async (trx: WriteTransaction) => {
    const ended = await revokeOtherAccess(trx, asker.user.id, asker.session);
    await recordAudit(trx, {
      action: "sessions.ended",
      actor: { id: asker.user.id, client: asker.client },
      subject: { type: "user", id: asker.user.id },
      detail: `${ended.sessions} other session(s) and ${ended.tokens} API token(s) ended`,
      now,
    });
    const at = now.toISOString();
    await queueMail(trx, {
      key: `factor-changed:${asker.user.id}:${change}:${at}`,
      template: "factor-changed",
      recipientId: asker.user.id,
      data: { change, at },
      now,
    });
  };
}

/** Turns the asker's own two-step sign-in off (refused for an administrator outside the demo). */
export async function turnOffTwoStep(db: DB, asker: Asker, proof: OwnerProof, now = new Date()): Promise<void> {
  await proveOwner(db, asker, proof, now);
  const actor = { id: asker.user.id, client: asker.client, role: asker.user.role };
  await resetTwoStep(db, { userId: asker.user.id, actor, now, inside: endOtherAccess(asker, "two-step turned off", now) });
}

/**
 * Starts setting up an authenticator. While none is in use nothing changes yet (the
 * confirmation asks for the password); with one in use, setting up a new one needs the owner.
 */
export async function startTwoStepSetUp(db: DB, asker: Asker, proof: Partial<OwnerProof>, now = new Date()): Promise<void> {
  const again = await hasTwoStep(db, asker.user.id);
  if (again) await proveOwner(db, asker, proof, now);
  await beginTwoStep(db, asker.user.id, { again, now });
}

/**
 * Confirms a new authenticator with its code and the current password (the code from the
 * authenticator being replaced was asked for when its replacement was begun). Returns the new
 * recovery codes.
 */
export async function finishTwoStepSetUp(db: DB, asker: Asker, input: { code: string; current_password: string }, now = new Date()): Promise<string[]> {
  const again = await hasTwoStep(db, asker.user.id);
  // the current code was asked for when the new authenticator was begun
  await proveOwner(db, asker, { current_password: input.current_password }, now, { code: false });
  const codes = await confirmTwoStep(db, {
    userId: asker.user.id,
    code: input.code,
    actor: { id: asker.user.id, client: asker.client },
    now,
    inside: endOtherAccess(asker, again ? "two-step set up again" : "two-step set up", now),
  });
  return codes;
}

/** Changes the asker's password. */
export async function changeOwnPassword(db: DB, asker: Asker, input: OwnerProof & { password: string }, now = new Date()): Promise<void> {
  await proveOwner(db, asker, input, now);
  await changePassword(db, { userId: asker.user.id, next: input.password, client: asker.client, now, inside: endOtherAccess(asker, "password changed", now) });
}
