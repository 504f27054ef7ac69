import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { encryptStoredSecrets, isSealed, openSecret, sealSecret } from "./secret-box.server";
import { beginTwoStep, checkSecondStep, confirmTwoStep, currentCode, twoStepSetUp } from "./two-step.server";

/**
 * Authenticator secrets at rest: the database holds them encrypted under a key it does not
 * hold, so a copy of the database alone cannot produce second-step codes. Secrets stored as
 * text before encryption keep working and are encrypted in place.
 */
let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const BASE32 = /^[A-Z2-7]+=*$/;
const OTHER_KEY = "a1".repeat(32);

/** Every code a reader of `stored` could make, taking it for an authenticator secret. */
function codesFrom(stored: string, at: number): string[] {
  const candidates = [stored, stored.replace(/^v1\./, ""), stored.toUpperCase().replace(/[^A-Z2-7]/g, "")];
  return candidates.flatMap((value) => {
    try {
      return [new TOTP({ secret: Secret.fromBase32(value), algorithm: "SHA1", digits: 6, period: 30 }).generate({ timestamp: at })];
    } catch {
      return [];
    }
  });
}

describe("authenticator secrets at rest", () => {
  it("the database copy of a confirmed secret is not the secret, makes no code, and opens only with the key and for its account", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: false });
    await beginTwoStep(db, user.id);
    const { pending } = await twoStepSetUp(db, user);
    const secret = pending!.secret;
    await confirmTwoStep(db, { userId: user.id, code: currentCode(secret), actor: { id: user.id } });
    const { secret: stored } = await db.selectFrom("two_step").select("secret").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(BASE32);
    expect(isSealed(stored)).toBe(true);
    const now = Date.now();
    expect(codesFrom(stored, now)).not.toContain(currentCode(secret, now));
    // only with the key and the account it was stored for
    expect(openSecret(stored, user.id)).toBe(secret);
    expect(() => openSecret(stored, user.id, OTHER_KEY)).toThrow(/does not open with TWO_STEP_KEY/);
    expect(() => openSecret(stored, "another-user")).toThrow(/does not open/);
    // each sealing is fresh: the same secret never reads the same twice
    expect(sealSecret(secret, user.id)).not.toBe(sealSecret(secret, user.id));
  });

  it("a secret stored as text before encryption still signs in, and is encrypted in place (once, whoever runs it)", async () => {
    const user = await makeUser(db, { role: "trainer", two_step: false });
    const secret = new Secret({ size: 20 }).base32;
    const at = new Date().toISOString();
    await db.insertInto("two_step").values({ user_id: user.id, secret, created_at: at, confirmed_at: at, last_step: null }).execute();
    const now = Date.now();
    expect(await checkSecondStep(db, { userId: user.id, code: currentCode(secret, now - 30_000) })).toBe("authenticator");
    const [first, second] = await Promise.all([encryptStoredSecrets(db), encryptStoredSecrets(db)]);
    expect(first + second).toBeGreaterThanOrEqual(1);
    const { secret: stored } = await db.selectFrom("two_step").select("secret").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(isSealed(stored)).toBe(true);
    expect(openSecret(stored, user.id)).toBe(secret);
    expect(await checkSecondStep(db, { userId: user.id, code: currentCode(secret, now) })).toBe("authenticator");
    expect(await encryptStoredSecrets(db)).toBe(0);
  });
});
