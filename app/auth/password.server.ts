import crypto from "node:crypto";
import { promisify } from "node:util";
import pLimit from "p-limit";
import { env } from "~/env.server";
import { DomainError } from "~/utils/errors";

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** OWASP's scrypt floor (N=2^17, r=8, p=1); tests may ask for a cheap cost. */
const STRONG = { N: 2 ** 17, r: 8, p: 1 };
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 64;

/**
 * A strong hash takes 128 MiB and a libuv thread for a good part of a second. At most
 * MAX_CONCURRENT_HASHES run at once (the thread pool stays free for file and DNS work, memory
 * stays bounded) and at most MAX_WAITING_HASHES wait; beyond that a sign-in or registration is
 * told to come back shortly (503 with Retry-After) instead of queueing without end.
 */
export const MAX_CONCURRENT_HASHES = 2;
export const MAX_WAITING_HASHES = 32;
export const HASHING_RETRY_AFTER_SECONDS = 5;
export const SERVER_BUSY = "The server is busy. Please try again in a few seconds.";
const hashing = pLimit(MAX_CONCURRENT_HASHES);

function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (hashing.activeCount + hashing.pendingCount >= MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES) {
    return Promise.reject(new DomainError(503, SERVER_BUSY, {}, undefined, HASHING_RETRY_AFTER_SECONDS));
  }
  return hashing(work);
}

/** How many hashes run and wait now (for tests and the log). */
export function hashingLoad(): { active: number; waiting: number } {
  return { active: hashing.activeCount, waiting: hashing.pendingCount };
}

function cost() {
  return env().FAST_PASSWORD_HASH ? FAST : STRONG;
}

/** scrypt$N$r$p$salt$hash, base64url; runs on libuv's thread pool, off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = cost();
  const salt = crypto.randomBytes(16);
  const key = await bounded(() => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }));
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const N = Number(n);
  const expected = Buffer.from(hash, "base64url");
  const key = await bounded(() =>
    scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
      N,
      r: Number(r),
      p: Number(p),
      maxmem: 256 * N * Number(r),
    }),
  );
  return crypto.timingSafeEqual(key, expected);
}

/** A hash of a random password, verified against when the email is unknown so timing tells nothing. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex")).catch((error: unknown) => {
    decoy = undefined; // a busy server must not leave a failed decoy behind for good
    throw error;
  });
  return decoy;
}

export function sha256(value: string): string {
  return crypto.createHash("sha256").update(value).digest("hex");
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString("base64url");
}
