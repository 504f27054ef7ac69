import crypto from "node:crypto";
import type { DB } from "#db/connection";
import { env } from "~/env.server";

/**
 * Authenticator secrets at rest: AES-256-GCM under TWO_STEP_KEY (the variable, else the file
 * generated under data/; never the database), so a copy of the database alone cannot produce
 * second-step codes. Each value is bound to its account (the user id is the associated data),
 * so a secret copied onto another account's row does not open.
 *
 * Stored as `v1.` and base64url of the 12-byte IV, the 16-byte tag and the ciphertext. A value
 * without the prefix is a secret stored before encryption (base32, as the authenticator holds
 * it): it still works, and `encryptStoredSecrets` (run by scripts/prepare.ts at every start and
 * migration) encrypts it in place.
 */

const PREFIX = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (hex: string) => Buffer.from(hex, "hex");
const context = (userId: string) => Buffer.from(`two_step:${userId}`);

export function sealSecret(secret: string, userId: string, key = env().TWO_STEP_KEY): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", keyOf(key), iv);
  cipher.setAAD(context(userId));
  const body = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

/** Whether a stored value is encrypted (else a secret stored before encryption). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/**
 * The secret a stored value holds. Throws when it was sealed under another key or for another
 * account: the portal cannot tell a code without the right key, and says so.
 */
export function openSecret(stored: string, userId: string, key = env().TWO_STEP_KEY): string {
  if (!isSealed(stored)) return stored;
  const raw = Buffer.from(stored.slice(PREFIX.length), "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", keyOf(key), raw.subarray(0, IV_BYTES));
  decipher.setAAD(context(userId));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new Error("An authenticator secret does not open with TWO_STEP_KEY: the key is not the one it was stored with");
  }
}

/**
 * Encrypts every authenticator secret still stored as text (those stored before encryption).
 * Each row is updated only while it still holds the text read, so several servers starting at
 * once, or a set-up confirmed meanwhile, never lose a secret. Returns how many were encrypted.
 */
export async function encryptStoredSecrets(db: DB, key = env().TWO_STEP_KEY): Promise<number> {
  const rows = await db.selectFrom("two_step").select(["user_id", "secret", "pending_secret"]).execute();
  let done = 0;
  for (const row of rows) {
    for (const column of ["secret", "pending_secret"] as const) {
      const value = row[column];
      if (value === null || isSealed(value)) continue;
      const result = await db
        .updateTable("two_step")
        .set({ [column]: sealSecret(value, row.user_id, key) })
        .where("user_id", "=", row.user_id)
        .where(column, "=", value)
        .executeTakeFirst();
      done += Number(result.numUpdatedRows);
    }
  }
  return done;
}
