import crypto from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { writeTransaction, type DB } from "#db/connection";
import type { Role, UserRow } from "#db/schema";
import { hashPassword } from "~/auth/password.server";
import type { RegistrationInput } from "~/schemas/auth";
import type { ProfileInput } from "~/schemas/profile";
import { conflict, notFound } from "~/utils/errors";
import { likePattern } from "./course.server";
import { recordEvent } from "./event.server";

/** A user as every screen and the /api see it: never the password hash. */
export interface PublicUser {
  id: string;
  email: string;
  full_name: string;
  phone: string | null;
  address: string | null;
  date_of_birth: string | null;
  emergency_contact: string | null;
  license_number: string | null;
  is_active: boolean;
  created_at: string | null;
  last_login: string | null;
  role: Role;
}

export const publicUserColumns = [
  "users.id",
  "users.email",
  "users.full_name",
  "users.phone",
  "users.address",
  "users.date_of_birth",
  "users.emergency_contact",
  "users.license_number",
  "users.is_active",
  "users.created_at",
  "users.last_login",
  "users.role",
] as const;

type PublicUserRow = Pick<UserRow, (typeof publicUserColumns)[number] extends `users.${infer C}` ? C & keyof UserRow : never>;

export function toPublicUser(row: PublicUserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    full_name: row.full_name,
    phone: row.phone,
    address: row.address,
    date_of_birth: row.date_of_birth,
    emergency_contact: row.emergency_contact,
    license_number: row.license_number,
    is_active: row.is_active === 1,
    created_at: row.created_at,
    last_login: row.last_login,
    role: row.role,
  };
}

/** FTS5's trigram tokenizer indexes three characters at a time; shorter terms cannot use it. */
const TRIGRAM = 3;

/**
 * True when userTextMatches(term) reads the trigram index. Such a search matches few users, so
 * queries keep their other user conditions off the indexes (see `unindexed`) and SQLite starts
 * from the matches instead of walking every student and testing each.
 */
export function isIndexedUserSearch(term: string): boolean {
  return [...term].length >= TRIGRAM;
}

/**
 * A column for a WHERE condition that must not choose the query plan: SQLite's unary + makes
 * the condition unusable by an index, so a more selective condition (an indexed search) leads.
 */
export function unindexed(column: string, when = true): RawBuilder<unknown> {
  return when ? sql`+${sql.ref(column)}` : sql`${sql.ref(column)}`;
}

/**
 * A WHERE condition: the user (`alias` names the users table in the query) has `term` in
 * their name or e-mail address, case-insensitively. Terms of three characters or more are
 * looked up in the users_search trigram index (migration 2026-11-22T1800), so a search reads
 * only the matching users; shorter terms, which match most people anyway, scan with LIKE.
 */
export function userTextMatches(term: string, alias = "users"): RawBuilder<boolean> {
  if (isIndexedUserSearch(term)) {
    // A quoted FTS5 phrase is taken literally; a double quote inside it is written twice.
    const phrase = `"${term.replaceAll('"', '""')}"`;
    return sql<boolean>`${sql.ref(`${alias}.rowid`)} in (select rowid from users_search where users_search match ${phrase})`;
  }
  const pattern = likePattern(term);
  // ESCAPE makes the backslashes likePattern puts before % and _ mean "this character".
  return sql<boolean>`(lower(${sql.ref(`${alias}.full_name`)}) like ${pattern} escape '\\' or lower(${sql.ref(`${alias}.email`)}) like ${pattern} escape '\\')`;
}

export async function getUserById(db: DB, id: string): Promise<PublicUser | null> {
  const row = await db.selectFrom("users").select(publicUserColumns).where("id", "=", id).executeTakeFirst();
  return row ? toPublicUser(row) : null;
}

/** The full row, hash included: for the sign-in check only. */
export function getUserRowByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

export const EMAIL_TAKEN = "An account with this email already exists";

/**
 * Creates an account. Students are active at once; trainers and administrators wait for an
 * administrator's approval. A taken email is a 409.
 */
export async function registerUser(
  db: DB,
  input: RegistrationInput,
  options: { actorId?: string | null; now?: Date } = {},
): Promise<{ user: PublicUser; pending: boolean }> {
  const now = (options.now ?? new Date()).toISOString();
  const pending = input.role !== "student";
  const password_hash = await hashPassword(input.password);
  const id = crypto.randomUUID();
  return writeTransaction(db, async (trx) => {
    const taken = await trx.selectFrom("users").select("id").where("email", "=", input.email).executeTakeFirst();
    if (taken) throw conflict(EMAIL_TAKEN);
    await trx
      .insertInto("users")
      .values({
        id,
        email: input.email,
        full_name: input.full_name,
        password_hash,
        role: input.role,
        phone: input.phone,
        address: input.address,
        date_of_birth: input.date_of_birth,
        emergency_contact: input.emergency_contact,
        license_number: null,
        is_active: 1,
        approval_status: pending ? "pending" : "approved",
        created_at: now,
        updated_at: now,
        last_login: null,
      })
      .execute();
    await recordEvent(trx, {
      actorId: options.actorId ?? id,
      subjectUserId: id,
      type: pending ? "account.requested" : "account.created",
      entityType: "user",
      entityId: id,
      message: pending
        ? `${input.full_name} registered as ${input.role} and awaits approval`
        : `${input.full_name} registered as ${input.role}`,
      now,
    });
    const user = await getUserById(trx, id);
    return { user: user!, pending };
  });
}

export async function recordLogin(db: DB, userId: string, now = new Date()): Promise<void> {
  await db.updateTable("users").set({ last_login: now.toISOString() }).where("id", "=", userId).execute();
}

/**
 * A user's own changes to their contact details (Edit Profile); name, email, date of birth and
 * licence stay with the administrators. Recorded in the audit trail.
 */
export async function updateOwnProfile(db: DB, userId: string, input: ProfileInput, now = new Date()): Promise<PublicUser> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("users")
      .set({ phone: input.phone, address: input.address, emergency_contact: input.emergency_contact, updated_at: at })
      .where("id", "=", userId)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw notFound("User");
    await recordEvent(trx, {
      actorId: userId,
      subjectUserId: userId,
      type: "profile.updated",
      entityType: "user",
      entityId: userId,
      message: "Your contact details were updated",
      now: at,
    });
    return (await getUserById(trx, userId))!;
  });
}
