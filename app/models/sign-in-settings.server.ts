import { writeTransaction, type DB } from "#db/connection";
import { conflict } from "~/utils/errors";
import { recordAudit, signedInActor, type SignedInActorRef } from "./audit.server";

/**
 * How staff may sign in, as administrators choose (docs/decisions/038-single-sign-on.md):
 * whether staff must use the organisation's identity provider, so their portal passwords stop
 * working (the break-glass administrator's excepted).
 */
export interface SignInSettings {
  require_sso_for_staff: boolean;
  updated_at: string | null;
}

export const SSO_NOT_CONFIGURED = "Single sign-on is not configured: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET first";

export async function signInSettings(db: DB): Promise<SignInSettings> {
  const row = await db.selectFrom("sign_in_settings").select(["value", "updated_at"]).where("key", "=", "require_sso_for_staff").executeTakeFirst();
  return { require_sso_for_staff: row?.value === "true", updated_at: row?.updated_at ?? null };
}

/**
 * Turns the requirement on or off (administrators; the Staff page and the /api); audited when it
 * changes. `provider` is the configured provider's name: without one it cannot be turned on (409),
 * so nobody is locked out by a requirement no button can meet.
 */
export async function setRequireSsoForStaff(
  db: DB,
  input: { required: boolean; provider: string | null; actor: SignedInActorRef; now?: Date },
): Promise<SignInSettings> {
  if (input.required && !input.provider) throw conflict(SSO_NOT_CONFIGURED);
  const actor = signedInActor(input.actor);
  const at = (input.now ?? new Date()).toISOString();
  const value = String(input.required);
  await writeTransaction(db, async (trx) => {
    if ((await signInSettings(trx)).require_sso_for_staff === input.required) return;
    await trx
      .insertInto("sign_in_settings")
      .values({ key: "require_sso_for_staff", value, updated_by: actor.id, updated_at: at })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_by: actor.id, updated_at: at }))
      .execute();
    await recordAudit(trx, {
      action: "sign_in.settings_changed",
      actor,
      subject: { type: "sign_in_settings", id: null },
      fields: ["require_sso_for_staff"],
      detail: input.required ? "staff must sign in with the identity provider" : "staff may sign in with a password",
      now: at,
    });
  });
  return signInSettings(db);
}
