import { chainHash, GENESIS_HASH, storedText, type ChainedAuditRow } from "#db/audit-chain";
import { atCommit, turnLook, writeLater, writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { AuditLogRow } from "#db/schema";
import { addDays, organisationDayStart } from "~/utils/organisation-calendar";
import type { AuditAction } from "~/rules/audit-actions";
import { AUDIT_PAGE_SIZE } from "~/rules/audit-actions";
import { BATCH_ROWS, countUpTo, keysetRows, type CappedCount } from "./batches.server";

/**
 * The audit trail (docs/decisions/010-staff-sign-in-and-audit.md). The model function that makes a change writes its
 * entry, inside the same transaction, so an entry exists exactly when the change does; routes
 * only pass along who asked and from which client. Entries name fields, never their values,
 * and never hold a password, token or code. The table refuses UPDATE and DELETE itself
 * (migration 2026-11-26T0500); nothing here offers either.
 */

/** Who caused an entry: a signed-in user (or none, for an anonymous sign-in attempt) and the client. */
export interface AuditActor {
  id: string | null;
  client?: string | null;
}

/** Model functions take their actor as an id (tests, scripts) or with the client (routes). */
export type ActorRef = string | null | AuditActor;

export function actorOf(ref: ActorRef): AuditActor {
  return ref === null || typeof ref === "string" ? { id: ref } : ref;
}

/** A change only a signed-in user makes (a trainer's or an administrator's): never anonymous. */
export type SignedInActorRef = string | { id: string; client?: string | null };

export function signedInActor(ref: SignedInActorRef): { id: string; client?: string | null } {
  return typeof ref === "string" ? { id: ref } : ref;
}

export interface AuditEntry {
  action: AuditAction;
  actor: AuditActor;
  subject?: { type: string; id: string | null; userId?: string | null };
  /** names of the fields that changed */
  fields?: readonly string[];
  /** a short note that holds nothing secret (a reason, a certificate number, a year) */
  detail?: string | null;
  now?: Date | string;
}

/**
 * Writes one entry, as the next link of the chain (db/audit-chain.ts): the entry carries the hash
 * of the one before it and of its own content. The one before it is the chain's head
 * (audit_head), not the highest entry left in the table: after a removed tail the new entry
 * takes the number after the head and links to the removed entry's hash, so the gap stays.
 * audit_log's insert trigger moves the head in the same statement (and its insert guard refuses
 * any other number or link; migration 2026-11-27T1600 says when an entry follows the last row). Runs
 * inside the caller's write transaction (the type only writeTransaction hands out), so the entry
 * exists exactly when the change does; an entry that records no change (a view, a refused
 * sign-in) opens its own with writeTransaction. Appends take turns because writes do: a write
 * transaction either holds the database's one write lock (DialectSql.beginWrite: an advisory lock
 * on PostgreSQL, SQLite's single writer) or, when scoped, takes the writes' turn before it appends
 * (takeWritesTurn in db/connection.ts), so two servers never both link to the same entry.
 *
 * The transaction's entries are linked and written together just before it commits (atCommit):
 * one read of the head (or the head the turn already read) and one insert however many a change
 * records. The actor's email is the one their account holds when the change commits.
 */
export async function recordAudit(trx: WriteTransaction, entry: AuditEntry): Promise<void> {
  const at = entry.now === undefined ? new Date().toISOString() : typeof entry.now === "string" ? entry.now : entry.now.toISOString();
  const pending = atCommit(trx, AUDIT_ENTRIES, writeAuditEntries);
  if (pending) pending.push({ entry, at });
  else await writeAuditEntries(trx, [{ entry, at }]);
}

const AUDIT_ENTRIES = Symbol("audit entries");

/** Rows per insert: 13 columns each, within either database's limit of bound values. */
const AUDIT_INSERT_ROWS = 500;

async function writeAuditEntries(trx: WriteTransaction, entries: Array<{ entry: AuditEntry; at: string }>): Promise<void> {
  const actorIds = [...new Set(entries.map((e) => e.entry.actor.id).filter((id): id is string => Boolean(id)))];
  // the emails the write read as it took its turn (PostgreSQL); the chain's head too, unless an
  // actor is left to read: then one statement reads the head, the last entry and that email
  const look = turnLook(trx);
  const emails = new Map<string, string | null>();
  if (look) for (const id of actorIds) if (id in look.emails) emails.set(id, look.emails[id]!);
  const unknown = actorIds.filter((id) => !emails.has(id));
  const last = () => trx.selectFrom("audit_log").orderBy("id", "desc").limit(1);
  const found =
    look && unknown.length === 0
      ? { head_id: look.head_id, head_hash: look.head_hash, last_id: look.last_entry_id, last_hash: look.last_entry_hash, email: null }
      : await trx
          .selectNoFrom((eb) => [
            eb.selectFrom("audit_head").select("last_id").as("head_id"),
            eb.selectFrom("audit_head").select("last_hash").as("head_hash"),
            last().select("id").as("last_id"),
            last().select("hash").as("last_hash"),
            eb
              .selectFrom("users")
              .select("email")
              .where("id", "=", unknown[0] ?? "")
              .as("email"),
          ])
          .executeTakeFirstOrThrow();
  if (unknown.length) emails.set(unknown[0]!, found.email);
  if (unknown.length > 1) {
    for (const u of await trx.selectFrom("users").select(["id", "email"]).where("id", "in", unknown.slice(1)).execute()) emails.set(u.id, u.email);
  }
  // entries past the head exist only if audit_log's triggers were off; follow the last of them
  const past = (found.last_id ?? 0) > (found.head_id ?? 0);
  let head = { id: (past ? found.last_id : found.head_id) ?? 0, hash: (past ? found.last_hash : found.head_hash) ?? GENESIS_HASH };
  const text = (value: string | null | undefined, max?: number) => (value == null ? null : storedText(max === undefined ? value : value.slice(0, max)));
  const rows = entries.map(({ entry, at }) => {
    const actorId = entry.actor.id;
    const row: ChainedAuditRow = {
      id: head.id + 1,
      at: storedText(at),
      action: storedText(entry.action),
      actor_id: text(actorId),
      actor_email: actorId ? text(emails.get(actorId)) : null,
      subject_type: text(entry.subject?.type),
      subject_id: text(entry.subject?.id),
      subject_user_id: text(entry.subject?.userId ?? (entry.subject?.type === "user" ? entry.subject.id : null)),
      client: text(entry.actor.client, 100),
      fields: entry.fields?.length ? storedText([...entry.fields].sort().join(",")) : null,
      detail: text(entry.detail, 300),
      prev_hash: head.hash,
    };
    const hash = chainHash(row);
    head = { id: row.id, hash };
    return { ...row, hash };
  });
  for (let i = 0; i < rows.length; i += AUDIT_INSERT_ROWS) {
    await writeLater(trx, trx.insertInto("audit_log").values(rows.slice(i, i + AUDIT_INSERT_ROWS)));
  }
}

/** Bookkeeping columns a change writes that are not the person's data. */
const NOT_FIELDS = new Set(["updated_at", "usi_verified_at", "usi_verified_by"]);

/**
 * The entries for a change to a student's record, by themselves or the office: "student.edited"
 * naming the fields whose stored value changed (never the values), and "usi.changed" when the
 * USI did. Nothing when nothing changed. Call inside the writing transaction.
 */
export async function recordStudentEdit(
  db: WriteTransaction,
  input: { current: Record<string, unknown>; written: Record<string, unknown>; actor: AuditActor; now: string },
): Promise<void> {
  const fields = Object.keys(input.written).filter((k) => !NOT_FIELDS.has(k) && (input.current[k] ?? null) !== (input.written[k] ?? null));
  if (fields.length === 0) return;
  const subject = { type: "user", id: String(input.current.id) };
  await recordAudit(db, { action: "student.edited", actor: input.actor, subject, fields, now: input.now });
  if (fields.includes("usi")) await recordAudit(db, { action: "usi.changed", actor: input.actor, subject, now: input.now });
}

/**
 * An entry that records no change (a view, an export, a refused sign-in) in a write of its own.
 * It checks nothing, so it is a scoped write with no scope (writeTransaction): it waits for no
 * other write but to take its turn to append, and none waits for it longer.
 */
export function recordAuditAlone(db: DB, entry: AuditEntry): Promise<void> {
  return writeTransaction(db, (trx) => recordAudit(trx, entry), { scopes: [] });
}

/** An AVETMISS report left the portal: the whole zip, or one NAT file (`file`). */
export function recordAvetmissExport(db: DB, input: { actor: AuditActor; year: number; file?: string }): Promise<void> {
  return recordAuditAlone(db, {
    action: "avetmiss.exported",
    actor: input.actor,
    subject: { type: "avetmiss", id: String(input.year) },
    detail: input.file ? `${input.file} for ${input.year}` : `all files for ${input.year}`,
  });
}

export interface AuditFilters {
  /** a user id or email: entries they caused or that concern them */
  person?: string | null;
  action?: AuditAction | null;
  /** the id of what the entry is about (a certificate, a course, a user) */
  subject?: string | null;
  /** YYYY-MM-DD, inclusive, days on the organisation's calendar */
  from?: string | null;
  to?: string | null;
  page?: number;
}

export type AuditListEntry = Pick<
  AuditLogRow,
  "id" | "at" | "action" | "actor_id" | "actor_email" | "subject_type" | "subject_id" | "subject_user_id" | "client" | "fields" | "detail"
> & { subject_user_email: string | null };

const LIST_COLUMNS = [
  "audit_log.id",
  "audit_log.at",
  "audit_log.action",
  "audit_log.actor_id",
  "audit_log.actor_email",
  "audit_log.subject_type",
  "audit_log.subject_id",
  "audit_log.subject_user_id",
  "audit_log.client",
  "audit_log.fields",
  "audit_log.detail",
  "subject_user.email as subject_user_email",
] as const;

function filtered(db: DB, filters: AuditFilters) {
  let query = db.selectFrom("audit_log").leftJoin("users as subject_user", "subject_user.id", "audit_log.subject_user_id");
  if (filters.person) {
    // an id, or an email as the person had it then (actor) or has it now (the person concerned)
    const person = filters.person;
    const email = person.toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb("audit_log.actor_id", "=", person),
        eb("audit_log.subject_user_id", "=", person),
        eb("audit_log.actor_email", "=", email),
        eb("subject_user.email", "=", email),
      ]),
    );
  }
  if (filters.action) query = query.where("audit_log.action", "=", filters.action);
  if (filters.subject) query = query.where("audit_log.subject_id", "=", filters.subject);
  // a day is the organisation's: from its local midnight to the next one (entries are kept in UTC)
  if (filters.from) query = query.where("audit_log.at", ">=", organisationDayStart(filters.from));
  if (filters.to) query = query.where("audit_log.at", "<", organisationDayStart(addDays(filters.to, 1)));
  return query;
}

/** How far the audit list counts the entries its filters match (countUpTo). */
export const AUDIT_COUNT_LIMIT = 10_000;

/** One page of entries, newest first, and how many match (up to AUDIT_COUNT_LIMIT). */
export async function listAudit(
  db: DB,
  filters: AuditFilters,
  pageSize = AUDIT_PAGE_SIZE,
): Promise<{ entries: AuditListEntry[]; page: number; pages: number } & CappedCount> {
  const page = Math.max(1, filters.page ?? 1);
  const [rows, count] = await Promise.all([
    filtered(db, filters)
      .select(LIST_COLUMNS)
      .orderBy("audit_log.id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    countUpTo(db, filtered(db, filters).select("audit_log.id"), AUDIT_COUNT_LIMIT),
  ]);
  return { entries: rows, ...count, page, pages: Math.max(1, Math.ceil(count.total / pageSize)) };
}

/** Every matching entry, oldest first, for the CSV download (streamed a page at a time). */
export function auditRows(db: DB, filters: AuditFilters, batch = BATCH_ROWS): AsyncGenerator<AuditListEntry, void, undefined> {
  return keysetRows(
    (after, limit) =>
      filtered(db, filters)
        .select(LIST_COLUMNS)
        .where("audit_log.id", ">", after?.id ?? 0)
        .orderBy("audit_log.id", "asc")
        .limit(limit)
        .execute(),
    batch,
  );
}

/** An entry as the page, the CSV and the /api show it: the field names as a list. */
export function auditEntryView(entry: AuditListEntry) {
  return { ...entry, action: entry.action as AuditAction, fields: entry.fields ? entry.fields.split(",") : [] };
}

/** The audit CSV's columns, in order. */
export const AUDIT_CSV_COLUMNS = [
  "at",
  "action",
  "actor_email",
  "actor_id",
  "client",
  "subject_type",
  "subject_id",
  "subject_user_email",
  "fields",
  "detail",
] as const;
