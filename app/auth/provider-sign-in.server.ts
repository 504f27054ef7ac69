import { type DB } from "#db/connection";
import { recordAuditAlone } from "~/models/audit.server";
import { getUserRowByEmail, recordLogin, type PublicUser, getUserById } from "~/models/user.server";
import { DomainError } from "~/utils/errors";
import { logLine } from "~/utils/log.server";
import { reportsSecondFactor, type ProviderIdentity } from "./single-sign-on.server";
import { hasTwoStep } from "./two-step.server";

/**
 * Who may sign in with the identity provider (docs/decisions/038-single-sign-on.md): an active,
 * approved trainer or administrator whose email the provider marks verified. Nobody else, and
 * no account is ever made by it. Every answer, signed in or refused, goes into the audit trail
 * by user id (an unknown email is not stored, as at the password sign-in).
 */

export const SSO_ROLES = ["admin", "trainer"] as const;

export const SSO_FAILED = (provider: string) => `Sign-in with ${provider} did not complete. Please try again.`;
export const SSO_UNVERIFIED = (provider: string) =>
  `${provider} has not verified your email address, so it cannot sign you in here. Verify it there, or sign in with your password.`;
export const SSO_NO_ACCOUNT = (provider: string) => `There is no staff account here for the email ${provider} gave. Ask the training office to add you.`;
export const SSO_NOT_STAFF = (provider: string) => `Sign-in with ${provider} is for trainers and administrators. Please sign in with your email and password.`;
export const SSO_INACTIVE = "Your account is inactive. Please contact the training office.";
export const SSO_NOT_APPROVED = "Your account is not approved yet. Please contact the training office.";

/** A refusal the sign-in page shows; already audited. */
export class ProviderSignInRefused extends DomainError {
  constructor(message: string) {
    super(403, message);
  }
}

/** Records a provider sign-in that did not complete (a refused answer, a lost start), by user id when known. */
export function recordProviderFailure(db: DB, input: { client: string; detail: string; userId?: string | null }): Promise<void> {
  logLine({ event: "sso-sign-in-refused", client: input.client, user: input.userId ?? null, reason: input.detail });
  return recordAuditAlone(db, {
    action: "sign_in.failed",
    actor: { id: null, client: input.client },
    subject: input.userId ? { type: "user", id: input.userId } : undefined,
    detail: `single sign-on: ${input.detail}`,
  });
}

export type ProviderSignInOutcome =
  /** signed in: the provider's second factor (or an account without one of the portal's) completes it */
  | { kind: "signed_in"; user: PublicUser; secondFactor: "provider" | null }
  /** the portal's own second step follows (the provider reported none) */
  | { kind: "second_step"; userId: string };

/**
 * The portal's side of a provider sign-in whose answer the library accepted: finds the staff
 * account by the verified email and either signs it in (audited) or says the second step follows.
 * Refusals throw ProviderSignInRefused, audited.
 */
export async function signInWithProvider(db: DB, input: { identity: ProviderIdentity; provider: string; client: string }): Promise<ProviderSignInOutcome> {
  const { identity, provider, client } = input;
  const refuse = async (message: string, detail: string, userId: string | null = null): Promise<never> => {
    await recordProviderFailure(db, { client, detail, userId });
    throw new ProviderSignInRefused(message);
  };
  if (!identity.email) return refuse(SSO_FAILED(provider), "no email given");
  const row = await getUserRowByEmail(db, identity.email);
  if (!identity.emailVerified) return refuse(SSO_UNVERIFIED(provider), "email not verified", row?.id ?? null);
  if (!row) return refuse(SSO_NO_ACCOUNT(provider), "unknown email");
  if (!(SSO_ROLES as readonly string[]).includes(row.role)) return refuse(SSO_NOT_STAFF(provider), `not staff (${row.role})`, row.id);
  if (row.approval_status !== "approved") return refuse(SSO_NOT_APPROVED, `account ${row.approval_status}`, row.id);
  if (row.is_active !== 1) return refuse(SSO_INACTIVE, "account inactive", row.id);
  const methods = identity.amr.join(" ") || "none reported";
  if (reportsSecondFactor(identity.amr)) {
    return {
      kind: "signed_in",
      user: await finishProviderSignIn(db, row.id, client, `single sign-on with the provider's second factor (${methods})`),
      secondFactor: "provider",
    };
  }
  if (await hasTwoStep(db, row.id)) return { kind: "second_step", userId: row.id };
  return { kind: "signed_in", user: await finishProviderSignIn(db, row.id, client, `single sign-on (${methods})`), secondFactor: null };
}

async function finishProviderSignIn(db: DB, userId: string, client: string, detail: string): Promise<PublicUser> {
  await recordLogin(db, userId);
  await recordAuditAlone(db, { action: "sign_in.succeeded", actor: { id: userId, client }, subject: { type: "user", id: userId }, detail });
  logLine({ event: "sso-sign-in", client, user: userId });
  return (await getUserById(db, userId))!;
}
