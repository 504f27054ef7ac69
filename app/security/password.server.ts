import crypto from "node:crypto";
import { promisify } from "node:util";
import { env } from "~/env.server";
import { DomainError } from "~/utils/errors";

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * The scrypt cost new hashes get: the floor's work (N·r·p of 2^17·8·1) spread as 2^15·8·3, which
 * takes 32 MiB instead of 128 MiB. A worker's memory is budgeted at 300 MB (decision 044): two
 * sign-ins at 128 MiB each took a worker at the national volume from 176 MB to 438 MB. Hashes
 * made at the older cost still verify (the cost is stored in each) and are made again at this
 * one when their owner next signs in (needsRehash). Tests may ask for a cheap cost.
 */
const STRONG = { N: 2 ** 15, r: 8, p: 3 };
const FAST = { N: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 64;

/** The memory one scrypt computation takes: 128·N·r bytes. */
const scryptMemory = (N: number, r: number) => 128 * N * r;

/**
 * At most MAX_CONCURRENT_HASHES hashes run at once, within HASH_MEMORY_BUDGET (two at today's
 * cost; one made at the older cost runs alone), each on a libuv thread for a good part of a second, so the thread pool stays
 * free for file and DNS work and a worker's memory stays bounded. At most MAX_WAITING_HASHES
 * wait; beyond that a sign-in or registration is told to come back shortly (503 with
 * Retry-After) instead of queueing without end.
 */
export const HASH_MEMORY_BUDGET = 2 * scryptMemory(STRONG.N, STRONG.r);
export const MAX_CONCURRENT_HASHES = HASH_MEMORY_BUDGET / scryptMemory(STRONG.N, STRONG.r);
export const MAX_WAITING_HASHES = 32;
export const HASHING_RETRY_AFTER_SECONDS = 5;
export const SERVER_BUSY = "The server is busy. Please try again in a few seconds.";

let activeMemory = 0;
let active = 0;
const waiting: Array<{ memory: number; start: () => void }> = [];

/** Starts the waiting hashes, first come first served, while the budget has room for the next. */
function startWaiting() {
  while (waiting.length > 0) {
    const next = waiting[0]!;
    // never more than MAX_CONCURRENT_HASHES threads; one bigger than the whole budget runs alone
    if (active >= MAX_CONCURRENT_HASHES || (active > 0 && activeMemory + next.memory > HASH_MEMORY_BUDGET)) return;
    waiting.shift();
    next.start();
  }
}

function bounded<T>(memory: number, work: () => Promise<T>): Promise<T> {
  if (active + waiting.length >= MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES) {
    return Promise.reject(new DomainError(503, SERVER_BUSY, {}, undefined, HASHING_RETRY_AFTER_SECONDS));
  }
  return new Promise<T>((resolve, reject) => {
    waiting.push({
      memory,
      start: () => {
        active++;
        activeMemory += memory;
        work()
          .then(resolve, reject)
          .finally(() => {
            active--;
            activeMemory -= memory;
            startWaiting();
          });
      },
    });
    startWaiting();
  });
}

/** How many hashes run and wait now, and the memory the running ones take (for tests and the log). */
export function hashingLoad(): { active: number; waiting: number; memory: number } {
  return { active, waiting: waiting.length, memory: activeMemory };
}

function cost() {
  return env().FAST_PASSWORD_HASH ? FAST : STRONG;
}

/** scrypt$N$r$p$salt$hash, base64url; runs on libuv's thread pool, off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = cost();
  const salt = crypto.randomBytes(16);
  const key = await bounded(scryptMemory(N, r), () => scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: 2 * scryptMemory(N, r) }));
  return ["scrypt", N, r, p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const N = Number(n);
  if (!Number.isSafeInteger(N) || !Number.isSafeInteger(Number(r)) || !Number.isSafeInteger(Number(p)) || N < 2 || Number(r) < 1 || Number(p) < 1) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await bounded(scryptMemory(N, Number(r)), () =>
    scrypt(password.normalize("NFKC"), Buffer.from(salt, "base64url"), expected.length, {
      N,
      r: Number(r),
      p: Number(p),
      maxmem: 2 * scryptMemory(N, Number(r)),
    }),
  );
  return crypto.timingSafeEqual(key, expected);
}

/** Whether a stored hash was made at another cost than new hashes get: sign-in makes it again. */
export function needsRehash(stored: string): boolean {
  const [scheme, n, r, p] = stored.split("$");
  const { N, r: R, p: P } = cost();
  return scheme === "scrypt" && (Number(n) !== N || Number(r) !== R || Number(p) !== P);
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
