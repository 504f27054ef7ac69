import {
  auditKeyId,
  CHAINED_COLUMNS,
  chainHash,
  checkpointSignature,
  checkpointSignatureMatches,
  GENESIS_HASH,
  GENESIS_SIGNATURE,
  type SignedCheckpoint,
} from "#db/audit-chain";
import { writeTransaction, type DB } from "#db/connection";
import type { Selectable } from "kysely";
import type { AuditCheckpointsTable } from "#db/schema";
import { env } from "~/env.server";

/**
 * Checking the audit trail (docs/decisions/017-audit-integrity.md). Three readers, one walk:
 * - `verifyAuditChain` (npm run audit:verify) walks the whole trail and every signed checkpoint;
 * - `checkpointAuditTrail` (the runner's "audit-checkpoint" job) walks only the entries after
 *   the last checkpoint and signs a new one with AUDIT_KEY;
 * - `auditChainSummary` (/admin/audit, GET /api/admin/audit) checks the last checkpoint and
 *   walks at most PAGE_VERIFY_LIMIT entries after it, so a page costs the same at any size.
 */

/** How often the runner's job signs a checkpoint (when entries were appended since the last one). */
export const CHECKPOINT_EVERY_SECONDS = 5 * 60;

/** The last checkpoint a check found sound. */
export interface CheckpointSeen {
  /** the checkpoint's number */
  id: number;
  /** the last entry it covers */
  through: number;
  made_at: string;
}

type Problem =
  /** an entry's content or hash is not what it was written with */
  | "changed"
  /** an entry consistent in itself, but not the one the next entry (or the head) was linked to */
  | "rewritten"
  /** entries `entry` to `missingTo` were removed */
  | "missing"
  /** entries `entry` to `addedTo` were written without moving the chain's head */
  | "added"
  /** the chain's head itself was removed */
  | "headless"
  /** the trail's hash at the checkpoint's entry is not the one the checkpoint signed */
  | "checkpoint-hash"
  /** the checkpoint's signature does not match its content */
  | "checkpoint-signature"
  /** checkpoints before it were removed, or it does not follow the one before it */
  | "checkpoint-order"
  /** it names an entry past the end of the trail */
  | "checkpoint-beyond"
  /** the newest checkpoint was signed with another AUDIT_KEY than the one given */
  | "other-key"
  /** checkpoints exist but no AUDIT_KEY was given to check them with */
  | "no-key";

/** What a check of the trail found: intact through its last entry, or the first thing that does not match. */
export type AuditChainCheck =
  | {
      intact: true;
      /** the last entry checked */
      through: number;
      /** entries this check walked */
      entries: number;
      /** the newest checkpoint, sound; null when none was made yet */
      checkpoint: CheckpointSeen | null;
      /** how many checkpoints were checked (the whole trail's walk), or null (the page's) */
      checkpoints: number | null;
      /** entries after `through` this check left to the next checkpoint (the page's bound) */
      pendingTo: number | null;
    }
  | {
      intact: false;
      /** the first entry that does not match (for a checkpoint: the entry it names) */
      entry: number;
      /** the last entry before it that does */
      through: number;
      problem: Problem;
      missingTo?: number;
      addedTo?: number;
      /** the entry whose link showed a rewritten or missing one, or the chain's head */
      foundAt?: number | "head";
      /** the checkpoint that does not match */
      checkpoint?: number;
      /** when that checkpoint was made */
      checkpointMadeAt?: string;
      /** key ids, for "other-key" */
      keys?: { signed: string; given: string };
    };

type Mismatch = Extract<AuditChainCheck, { intact: false }>;

/** How many entries one query of a walk reads (a few hundred kilobytes). */
const VERIFY_BATCH = 5000;
/** The most entries a page request walks after the last checkpoint (tens of milliseconds). */
export const PAGE_VERIFY_LIMIT = 5000;
/** The most entries one run of the checkpoint job walks, so a worker catching up on a large trail yields in seconds. */
export const JOB_VERIFY_LIMIT = 500_000;

/** The last entry a walk has verified: its number and hash, and the number of the one before it. */
interface Link {
  id: number;
  hash: string;
  beforeId: number;
}

const START: Link = { id: 0, hash: GENESIS_HASH, beforeId: 0 };

interface HeadState {
  /** the chain's head (the entry appended last), null when the head row was removed */
  headId: number | null;
  headHash: string | null;
  /** the highest entry number in the table */
  maxId: number;
  gaplessAfter: number;
  /** where a walk stops: the head, so entries appended while it runs wait for the next one */
  walkTo: number;
}

async function readHead(db: DB): Promise<HeadState> {
  const head = await db
    .selectNoFrom((eb) => [
      eb.selectFrom("audit_head").select("last_id").as("last_id"),
      eb.selectFrom("audit_head").select("last_hash").as("last_hash"),
      eb.selectFrom("audit_head").select("gapless_after").as("gapless_after"),
      eb
        .selectFrom("audit_log")
        .select((m) => m.fn.max("id").as("id"))
        .as("max_id"),
    ])
    .executeTakeFirstOrThrow();
  const maxId = head.max_id === null ? 0 : Number(head.max_id);
  const headId = head.last_id === null ? null : Number(head.last_id);
  return {
    headId,
    headHash: head.last_hash ?? null,
    maxId,
    gaplessAfter: head.gapless_after === null ? Infinity : Number(head.gapless_after),
    walkTo: headId ?? maxId,
  };
}

/** A checkpoint as a select returns it: a table interface may also hold what an insert or update takes, Selectable keeps what a read gives. */
type CheckpointRow = Selectable<AuditCheckpointsTable>;

const newestCheckpoint = (db: DB) => db.selectFrom("audit_checkpoints").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();

const seen = (cp: CheckpointRow): CheckpointSeen => ({ id: cp.id, through: cp.through_id, made_at: cp.made_at });

/**
 * Walks the entries after `from` up to `to`, `batch` a query (keyset on the primary key, the next
 * query already running while this batch is hashed), and checks each entry against its own
 * content and against the one before it. Ids run 1, 2, 3…; a gap is a removal, except one left
 * before the chain existed, up to `gaplessAfter`, that the next entry still links across.
 * `onBatch` runs before a batch is checked (the last id it holds); `onLink` after each entry
 * verified, and may report a mismatch of its own (the full walk's checkpoints).
 */
async function walkChain(
  db: DB,
  from: Link,
  to: number,
  gaplessAfter: number,
  batch: number,
  hooks: { onBatch?: (lastId: number) => Promise<void>; onLink?: (link: Link) => Mismatch | null } = {},
): Promise<{ last: Link; entries: number } | Mismatch> {
  const fetch = (after: number) =>
    db
      .selectFrom("audit_log")
      .select([...CHAINED_COLUMNS, "hash"])
      .where("id", ">", after)
      .where("id", "<=", to)
      .orderBy("id")
      .limit(batch)
      .execute();
  let { id: prevId, hash: prevHash, beforeId: beforePrevId } = from;
  let entries = 0;
  let pending = from.id < to ? fetch(from.id) : Promise.resolve([]);
  for (;;) {
    const rows = await pending;
    // a full batch that ended at `to` read the walk's last entry: asking again would answer
    // nothing, and cost the audit page a statement more on a trail longer than its walk
    const full = rows.length === batch && rows[rows.length - 1]!.id < to;
    pending = full ? fetch(rows[rows.length - 1]!.id) : Promise.resolve([]);
    // a walk that stops early leaves the query it started: its outcome no longer matters
    pending.catch(() => {});
    if (rows.length > 0 && hooks.onBatch) await hooks.onBatch(rows[rows.length - 1]!.id);
    for (const row of rows) {
      const linked = row.prev_hash === prevHash;
      if (row.id > prevId + 1 && (!linked || row.id > gaplessAfter)) {
        return { intact: false, entry: prevId + 1, through: prevId, problem: "missing", missingTo: row.id - 1, foundAt: row.id };
      }
      const consistent = row.hash === chainHash(row);
      if (!consistent || (!linked && prevId === 0)) return { intact: false, entry: row.id, through: prevId, problem: "changed", foundAt: row.id };
      if (!linked) return { intact: false, entry: prevId, through: beforePrevId, problem: "rewritten", foundAt: row.id };
      beforePrevId = prevId;
      prevId = row.id;
      prevHash = row.hash;
      entries++;
      if (hooks.onLink) {
        const wrong = hooks.onLink({ id: prevId, hash: prevHash, beforeId: beforePrevId });
        if (wrong) return wrong;
      }
    }
    if (!full) return { last: { id: prevId, hash: prevHash, beforeId: beforePrevId }, entries };
  }
}

/** The end of a walk that reached the chain's head: a trail that ends before its head lost its newest entries. */
function headMismatch(last: Link, head: HeadState): Mismatch | null {
  if (head.headId === null) return { intact: false, entry: last.id + 1, through: last.id, problem: "headless", foundAt: "head" };
  if (last.id < head.headId) return { intact: false, entry: last.id + 1, through: last.id, problem: "missing", missingTo: head.headId, foundAt: "head" };
  if (last.hash !== head.headHash) return { intact: false, entry: last.id, through: last.beforeId, problem: "rewritten", foundAt: "head" };
  if (head.maxId > head.headId) return { intact: false, entry: head.headId + 1, through: head.headId, problem: "added", addedTo: head.maxId, foundAt: "head" };
  return null;
}

/** A checkpoint's own soundness: signed with this key, by its signature, after `before` (null: it is the first). */
function checkpointMismatch(cp: CheckpointRow, key: string, before: { id: number; signature: string } | null, at: Link): Mismatch | null {
  const base = { intact: false as const, entry: cp.through_id, through: at.beforeId, checkpoint: cp.id, checkpointMadeAt: cp.made_at };
  const expectedId = (before?.id ?? 0) + 1;
  if (cp.id !== expectedId || cp.prev_signature !== (before?.signature ?? GENESIS_SIGNATURE)) return { ...base, problem: "checkpoint-order" };
  if (!checkpointSignatureMatches(key, cp, cp.signature)) return { ...base, problem: "checkpoint-signature" };
  return null;
}

/** The newest checkpoint was signed with another key: nothing it signed can be checked with this one. */
function otherKey(cp: CheckpointRow, key: string): Mismatch | null {
  const given = auditKeyId(key);
  if (cp.key_id === given) return null;
  return {
    intact: false,
    entry: cp.through_id,
    through: 0,
    problem: "other-key",
    checkpoint: cp.id,
    checkpointMadeAt: cp.made_at,
    keys: { signed: cp.key_id, given },
  };
}

/**
 * Walks the whole trail (npm run audit:verify): every entry against its content and the one
 * before it, the last against the chain's head, and every signed checkpoint against its
 * signature, the one before it and the entry it names. A rewrite that hashed every entry again
 * no longer has the hash a checkpoint signed; a checkpoint changed to match no longer matches
 * its signature. `key` null: AUDIT_KEY is unknown here, and any checkpoint is reported unchecked.
 * Memory stays flat: entries and checkpoints are read a batch at a time.
 */
export async function verifyAuditChain(db: DB, options: { key?: string | null; batch?: number } = {}): Promise<AuditChainCheck> {
  const key = options.key === undefined ? env().AUDIT_KEY : options.key;
  const batch = options.batch ?? VERIFY_BATCH;
  // the newest checkpoint before the head: every checkpoint up to it names an entry up to the head
  const newest = await newestCheckpoint(db);
  const head = await readHead(db);
  if (newest && key) {
    const wrongKey = otherKey(newest, key);
    if (wrongKey) return wrongKey;
  }
  const lastCheckpointId = key ? (newest?.id ?? 0) : 0;
  const queue: CheckpointRow[] = [];
  let loadedTo = 0;
  let before: { id: number; signature: string } | null = null;
  let sound: CheckpointRow | null = null;
  let count = 0;
  const fill = async (lastId: number) => {
    // checkpoints in number order, until one names an entry past this batch
    while (loadedTo < lastCheckpointId && (queue.length === 0 || queue[queue.length - 1]!.through_id <= lastId)) {
      const rows = await db
        .selectFrom("audit_checkpoints")
        .selectAll()
        .where("id", ">", loadedTo)
        .where("id", "<=", lastCheckpointId)
        .orderBy("id")
        .limit(batch)
        .execute();
      if (rows.length === 0) break;
      queue.push(...rows);
      loadedTo = rows[rows.length - 1]!.id;
    }
  };
  const onLink = (at: Link): Mismatch | null => {
    while (queue.length > 0 && queue[0]!.through_id <= at.id) {
      const cp = queue.shift()!;
      const wrong = checkpointMismatch(cp, key!, before, at);
      if (wrong) return wrong;
      // a checkpoint naming an entry the walk passed without stopping at it (never signed so)
      if (cp.through_id !== at.id || cp.through_hash !== at.hash) {
        return { intact: false, entry: cp.through_id, through: at.beforeId, problem: "checkpoint-hash", checkpoint: cp.id, checkpointMadeAt: cp.made_at };
      }
      before = { id: cp.id, signature: cp.signature };
      sound = cp;
      count++;
    }
    return null;
  };
  const walked = await walkChain(db, START, head.walkTo, head.gaplessAfter, batch, lastCheckpointId > 0 ? { onBatch: fill, onLink } : {});
  if ("intact" in walked) return walked;
  const atHead = headMismatch(walked.last, head);
  if (atHead) return atHead;
  await fill(Infinity);
  const beyond = queue[0];
  if (beyond)
    return {
      intact: false,
      entry: beyond.through_id,
      through: walked.last.id,
      problem: "checkpoint-beyond",
      checkpoint: beyond.id,
      checkpointMadeAt: beyond.made_at,
    };
  if (newest && !key) return { intact: false, entry: newest.through_id, through: walked.last.id, problem: "no-key", checkpoint: newest.id };
  const last = sound as CheckpointRow | null;
  return { intact: true, through: walked.last.id, entries: walked.entries, checkpoint: last ? seen(last) : null, checkpoints: count, pendingTo: null };
}

/**
 * Checks the newest checkpoint (its key, its signature, the entry it names) and returns the
 * point a walk may start from, or what does not match. No checkpoint: the start of the trail.
 */
async function fromNewestCheckpoint(db: DB, newest: CheckpointRow | undefined, key: string): Promise<Link | Mismatch> {
  if (!newest) return START;
  const wrongKey = otherKey(newest, key);
  if (wrongKey) return wrongKey;
  const at: Link = { id: newest.through_id, hash: newest.through_hash, beforeId: Math.max(0, newest.through_id - 1) };
  if (!checkpointSignatureMatches(key, newest, newest.signature)) {
    return {
      intact: false,
      entry: newest.through_id,
      through: at.beforeId,
      problem: "checkpoint-signature",
      checkpoint: newest.id,
      checkpointMadeAt: newest.made_at,
    };
  }
  const row = await db
    .selectFrom("audit_log")
    .select([...CHAINED_COLUMNS, "hash"])
    .where("id", "=", newest.through_id)
    .executeTakeFirst();
  if (!row || row.hash !== newest.through_hash) {
    return {
      intact: false,
      entry: newest.through_id,
      through: at.beforeId,
      problem: "checkpoint-hash",
      checkpoint: newest.id,
      checkpointMadeAt: newest.made_at,
    };
  }
  if (row.hash !== chainHash(row)) return { intact: false, entry: row.id, through: at.beforeId, problem: "changed", foundAt: row.id };
  return at;
}

/**
 * The page's check (/admin/audit, GET /api/admin/audit): the newest checkpoint, and at most
 * `limit` entries after it, never the whole trail, so it answers in the same time at any size.
 * What the checkpoint covers the background job verified when it signed it; npm run
 * audit:verify walks it all again.
 */
export async function checkSinceCheckpoint(db: DB, options: { key?: string; limit?: number } = {}): Promise<AuditChainCheck> {
  const key = options.key ?? env().AUDIT_KEY;
  const limit = options.limit ?? PAGE_VERIFY_LIMIT;
  const newest = await newestCheckpoint(db);
  const head = await readHead(db);
  const from = await fromNewestCheckpoint(db, newest, key);
  if ("intact" in from) return from;
  const to = Math.min(head.walkTo, from.id + limit);
  const walked = await walkChain(db, from, to, head.gaplessAfter, Math.min(VERIFY_BATCH, limit));
  if ("intact" in walked) return walked;
  const checkpoint = newest ? seen(newest) : null;
  if (to < head.walkTo) return { intact: true, through: walked.last.id, entries: walked.entries, checkpoint, checkpoints: null, pendingTo: head.walkTo };
  const atHead = headMismatch(walked.last, head);
  if (atHead) return atHead;
  return { intact: true, through: walked.last.id, entries: walked.entries, checkpoint, checkpoints: null, pendingTo: null };
}

/** What one run of the checkpoint job did. */
export interface CheckpointRun {
  /** the entries it verified: after the last checkpoint, up to `through` */
  from: number;
  through: number;
  verified: number;
  /** the checkpoint it signed, or null (nothing new, or another worker signed it first) */
  checkpoint: number | null;
}

/**
 * The runner's "audit-checkpoint" job: verifies the entries appended since the last checkpoint
 * (at most `limit` a run) and signs a checkpoint through the last of them with AUDIT_KEY. Only
 * the new entries are read; the checkpoint before them vouches for the rest. Throws, writing
 * nothing, when the last checkpoint or a new entry does not match, or when the last checkpoint
 * was signed with another key (a server with another AUDIT_KEY): the runner logs it and the
 * audit page shows it. Every worker runs it; they take turns at the write, and a worker that
 * finds a newer checkpoint there leaves it.
 */
export async function checkpointAuditTrail(db: DB, options: { key?: string; now?: Date; limit?: number } = {}): Promise<CheckpointRun> {
  const key = options.key ?? env().AUDIT_KEY;
  const newest = await newestCheckpoint(db);
  const head = await readHead(db);
  const from = await fromNewestCheckpoint(db, newest, key);
  if ("intact" in from) throw new Error(auditChainLine(from));
  const to = Math.min(head.walkTo, from.id + (options.limit ?? JOB_VERIFY_LIMIT));
  const run: CheckpointRun = { from: from.id + 1, through: from.id, verified: 0, checkpoint: null };
  if (to <= from.id) return run;
  const walked = await walkChain(db, from, to, head.gaplessAfter, VERIFY_BATCH);
  if ("intact" in walked) throw new Error(auditChainLine(walked));
  if (to === head.walkTo) {
    const atHead = headMismatch(walked.last, head);
    if (atHead) throw new Error(auditChainLine(atHead));
  }
  run.through = walked.last.id;
  run.verified = walked.entries;
  if (walked.last.id === from.id) return run;
  const made_at = (options.now ?? new Date()).toISOString();
  run.checkpoint = await writeTransaction(db, async (trx) => {
    const latest = await trx.selectFrom("audit_checkpoints").select(["id", "signature"]).orderBy("id", "desc").limit(1).executeTakeFirst();
    if ((latest?.id ?? 0) !== (newest?.id ?? 0)) return null;
    const checkpoint: SignedCheckpoint = {
      id: (latest?.id ?? 0) + 1,
      through_id: walked.last.id,
      through_hash: walked.last.hash,
      made_at,
      key_id: auditKeyId(key),
      prev_signature: latest?.signature ?? GENESIS_SIGNATURE,
    };
    await trx
      .insertInto("audit_checkpoints")
      .values({ ...checkpoint, signature: checkpointSignature(key, checkpoint) })
      .execute();
    return checkpoint.id;
  });
  return run;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The line `npm run audit:verify` prints and /admin/audit shows at its top. */
export function auditChainLine(check: AuditChainCheck): string {
  if (check.intact) {
    if (check.through === 0 && check.checkpoint === null) return "Audit trail: no entries yet";
    const chain = `Audit trail: chain intact through entry ${check.through}`;
    const pending = check.pendingTo === null ? "" : `; entries ${check.through + 1} to ${check.pendingTo} wait for the next checkpoint`;
    if (check.checkpoint === null) return `${chain}; no signed checkpoint yet${pending}`;
    if (check.checkpoints !== null) {
      return `${chain}; ${plural(check.checkpoints, "signed checkpoint matches", "signed checkpoints match")}, the last (checkpoint ${check.checkpoint.id}) through entry ${check.checkpoint.through}`;
    }
    return `${chain}; signed checkpoint ${check.checkpoint.id} covers entries 1 to ${check.checkpoint.through}${pending}`;
  }
  const first = `Audit trail: entry ${check.entry} does not match`;
  const checkpoint = `Audit trail: checkpoint ${check.checkpoint} does not match`;
  switch (check.problem) {
    case "changed":
      return `${first}: it was changed after it was written`;
    case "rewritten":
      return check.foundAt === "head"
        ? `${first}: it was replaced after it was written; the chain's head holds a different hash for it`
        : `${first}: it was replaced after entry ${check.foundAt} was written, which holds a different hash for it`;
    case "missing":
      return check.missingTo === check.entry ? `${first}: it was removed` : `${first}: entries ${check.entry} to ${check.missingTo} were removed`;
    case "added":
      return check.addedTo === check.entry
        ? `${first}: it was added without moving the chain's head`
        : `${first}: entries ${check.entry} to ${check.addedTo} were added without moving the chain's head`;
    case "headless":
      return `Audit trail: the chain's head was removed, so removed newest entries would not show; the chain is intact through entry ${check.through}`;
    case "checkpoint-hash":
      return `${checkpoint}: entry ${check.entry} no longer has the hash the checkpoint signed, so the trail up to it was rewritten and hashed again`;
    case "checkpoint-signature":
      return `${checkpoint}: its signature does not match its content, so it was changed or made without AUDIT_KEY`;
    case "checkpoint-order":
      return `${checkpoint}: it does not follow the checkpoint before it, so checkpoints were removed or replaced`;
    case "checkpoint-beyond":
      return `${checkpoint}: it names entry ${check.entry}, past the end of the trail, so entries were removed`;
    case "other-key":
      return `Audit trail: checkpoint ${check.checkpoint} was signed with a different AUDIT_KEY (key id ${check.keys!.signed}) than the one given here (key id ${check.keys!.given}), so no checkpoint can be checked: give the AUDIT_KEY the portal's servers sign with (if it is that key, the checkpoint was altered)`;
    case "no-key":
      return `Audit trail: chain intact through entry ${check.through}, but its signed checkpoints were not checked: AUDIT_KEY is not set and data/audit-key does not exist here; give the key the portal's servers sign with`;
  }
}

/** Whether a check could not be made for want of the right key (a setting to fix, not a finding about the trail). */
export function isKeyProblem(check: AuditChainCheck): boolean {
  return !check.intact && (check.problem === "other-key" || check.problem === "no-key");
}

/** The chain's state as /admin/audit and GET /api/admin/audit give it. */
export interface AuditChainSummary {
  intact: boolean;
  /** the last entry up to which the chain matches */
  through: number;
  /** the first entry that does not match, or null */
  first_mismatch: number | null;
  message: string;
  /** the newest signed checkpoint, when it matches: the entries up to `through` were verified when it was made */
  checkpoint: { number: number; through: number; made_at: string } | null;
  /** the checkpoint that does not match (its signature, its order, or the hash of the entry it names), or null */
  mismatched_checkpoint: number | null;
  /** entries after `through` this answer did not check (more than it checks at once since the last checkpoint), or null */
  pending: { from: number; to: number } | null;
}

/** The page's check (checkSinceCheckpoint) as a page or an /api answer says it. */
export async function auditChainSummary(db: DB): Promise<AuditChainSummary> {
  const check = await checkSinceCheckpoint(db);
  return {
    intact: check.intact,
    through: check.through,
    first_mismatch: check.intact ? null : check.entry,
    message: auditChainLine(check),
    checkpoint: check.intact && check.checkpoint ? { number: check.checkpoint.id, through: check.checkpoint.through, made_at: check.checkpoint.made_at } : null,
    mismatched_checkpoint: check.intact ? null : (check.checkpoint ?? null),
    pending: check.intact && check.pendingTo !== null ? { from: check.through + 1, to: check.pendingTo } : null,
  };
}
