import crypto from "node:crypto";

/**
 * The audit trail's hash chain: what each audit_log row's `hash` is a hash of. The writer
 * (recordAudit), the verifier (verifyAuditChain, `npm run audit:verify`) and the migration that
 * hashed the rows written before the chain existed all call chainHash, so all three read a row
 * the same way. docs/decisions/017-audit-integrity.md says what the chain does and does not show.
 *
 * Never change the encoding below: every stored hash was made with it. A different encoding
 * needs a new FORMAT tag and a verifier that reads both.
 */

/** Names the encoding inside every hashed text, so a later one can never collide with it. */
const FORMAT = "audit_log/1";

/** The `prev_hash` of the first entry: no entry comes before it. */
export const GENESIS_HASH = "0".repeat(64);

/** Every column of an audit_log row that the hash covers: all of them except `hash` itself. */
export interface ChainedAuditRow {
  id: number;
  at: string;
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  subject_type: string | null;
  subject_id: string | null;
  subject_user_id: string | null;
  client: string | null;
  fields: string | null;
  detail: string | null;
  prev_hash: string;
}

/** The columns a chain walk reads, in the order they are hashed. */
export const CHAINED_COLUMNS = [
  "id",
  "at",
  "action",
  "actor_id",
  "actor_email",
  "subject_type",
  "subject_id",
  "subject_user_id",
  "client",
  "fields",
  "detail",
  "prev_hash",
] as const satisfies readonly (keyof ChainedAuditRow)[];

/**
 * The canonical content of a row: a JSON array of the format tag, the previous entry's hash and
 * every column in CHAINED_COLUMNS order (the id as a number, the rest as strings or null). JSON
 * quotes and escapes each string, so no two different rows share a text (no separator inside a
 * value can shift a boundary, and null differs from "null" and from "").
 */
export function canonicalAuditContent(row: ChainedAuditRow): string {
  return JSON.stringify([
    FORMAT,
    row.prev_hash,
    row.id,
    row.at,
    row.action,
    row.actor_id,
    row.actor_email,
    row.subject_type,
    row.subject_id,
    row.subject_user_id,
    row.client,
    row.fields,
    row.detail,
  ]);
}

/**
 * One-shot hashing (Node 20.12 and later) is about twice as fast for texts this short as a Hash
 * object, and the verifier hashes every entry of the trail.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === "function" ? (text) => crypto.hash("sha256", text, "hex") : (text) => crypto.createHash("sha256").update(text, "utf8").digest("hex");

/** The row's hash: SHA-256 of its canonical content as UTF-8, in lower-case hex. */
export function chainHash(row: ChainedAuditRow): string {
  return sha256Hex(canonicalAuditContent(row));
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A text as the database will give it back. Both drivers store UTF-8, where half of a surrogate
 * pair (a string cut in the middle of an emoji) cannot be written and becomes U+FFFD; hashing
 * the text as stored keeps the writer's hash equal to the verifier's.
 */
export function storedText(value: string): string;
export function storedText(value: string | null): string | null;
export function storedText(value: string | null): string | null {
  return value === null ? null : value.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * Checkpoints: a background job verifies the entries appended since the last checkpoint and
 * records the last one's number and hash, signed with HMAC-SHA256 under AUDIT_KEY, a key kept
 * outside the database. Someone who rewrites the trail and hashes every entry again cannot sign
 * a checkpoint for the new hashes, so the old checkpoint no longer matches the trail, and a
 * checkpoint changed to match no longer matches its signature. Each checkpoint's signed content
 * holds the signature of the one before it, so one removed from the middle shows too.
 * Like the entries' encoding, this one must never change without a new tag.
 */
const CHECKPOINT_FORMAT = "audit_checkpoint/1";

/** The `prev_signature` of the first checkpoint: none comes before it. */
export const GENESIS_SIGNATURE = "0".repeat(64);

/** Every column of an audit_checkpoints row that its signature covers: all but `signature`. */
export interface SignedCheckpoint {
  id: number;
  /** the last entry it covers */
  through_id: number;
  /** that entry's hash */
  through_hash: string;
  made_at: string;
  /** which key signed it (auditKeyId), so a wrong key is told apart from a forged checkpoint */
  key_id: string;
  prev_signature: string;
}

const keyBytes = (hexKey: string) => Buffer.from(hexKey, "hex");

/**
 * A name for a key that gives nothing of it away (an HMAC of a fixed text under it), stored with
 * each checkpoint: a reader holding another key can say so instead of calling every checkpoint
 * forged.
 */
export function auditKeyId(hexKey: string): string {
  return crypto.createHmac("sha256", keyBytes(hexKey)).update("audit_checkpoint key id").digest("hex").slice(0, 16);
}

/** The checkpoint's signature: HMAC-SHA256 of its canonical content under the key, in hex. */
export function checkpointSignature(hexKey: string, checkpoint: SignedCheckpoint): string {
  const content = JSON.stringify([
    CHECKPOINT_FORMAT,
    checkpoint.id,
    checkpoint.through_id,
    checkpoint.through_hash,
    checkpoint.made_at,
    checkpoint.key_id,
    checkpoint.prev_signature,
  ]);
  return crypto.createHmac("sha256", keyBytes(hexKey)).update(content, "utf8").digest("hex");
}

/** Whether `signature` is the checkpoint's under the key (compared in constant time). */
export function checkpointSignatureMatches(hexKey: string, checkpoint: SignedCheckpoint, signature: string): boolean {
  const expected = Buffer.from(checkpointSignature(hexKey, checkpoint), "hex");
  const given = Buffer.from(/^[0-9a-f]{64}$/.test(signature) ? signature : "", "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
