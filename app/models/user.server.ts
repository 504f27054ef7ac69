import crypto from "node:crypto";
import { writeTransaction, type DB, type WriteTransaction } from "#db/connection";
import type { NewUserRow, Role, UserRow } from "#db/schema";
import { hashPassword } from "~/security/password.server";
import { assertAcceptablePassword } from "~/security/password-policy.server";
import { RATE_LIMITS, requireRateLimit } from "~/security/rate-limits.server";
import type { RegistrationInput } from "~/schemas/auth";
import type { ProfileInput } from "~/schemas/profile";
import { conflict, notFound } from "~/utils/errors";
import { recordAudit, recordStudentEdit, type AuditActor } from "./audit.server";
import type { AuditAction } from "~/rules/audit-actions";
import { recordEvent } from "./event.server";
import { nextStudentNumber } from "./student-number.server";
import { ownUsiColumns } from "./usi.server";

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
  /** shown only to its owner, trainers and administrators (never printed or exported) */
  usi: string | null;
  usi_verified_at: string | null;
  /** a USI this person gave that another person holds, for the training office to resolve */
  usi_claimed: string | null;
  /** the student number (the AVETMISS client identifier); null for staff */
  student_number: string | null;
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
  "users.usi",
  "users.usi_verified_at",
  "users.usi_claimed",
  "users.student_number",
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
    usi: row.usi,
    usi_verified_at: row.usi_verified_at,
    usi_claimed: row.usi_claimed,
    student_number: row.student_number,
  };
}

export async function getUserById(db: DB, id: string): Promise<PublicUser | null> {
  const row = await db.selectFrom("users").select(publicUserColumns).where("id", "=", id).executeTakeFirst();
  return row ? toPublicUser(row) : null;
}

/** A student's account by id; null for an unknown id or another role's account. */
export async function getStudentById(db: DB, id: string): Promise<PublicUser | null> {
  const user = await getUserById(db, id);
  return user?.role === "student" ? user : null;
}

/** The full row, hash included: for the sign-in check only. */
export function getUserRowByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

export const EMAIL_TAKEN = "An account with this email already exists";
export const TOO_MANY_REGISTRATIONS = `Too many accounts have been created from your network. Please wait ${RATE_LIMITS.registration.windowMinutes} minutes and try again.`;
export const REGISTERED = "Registration successful! Please log in.";
export const REGISTERED_PENDING = "Registration successful! Your account is awaiting approval by an administrator; you can log in once it is approved.";

/** What a new account's holder is told, on the page and over the /api alike. */
export const registeredMessage = (pending: boolean) => (pending ? REGISTERED_PENDING : REGISTERED);

/** A taken email is a 409 beside the email field, wherever an account gets or changes its email. */
export async function assertEmailFree(db: DB, email: string, exceptId: string | null = null): Promise<void> {
  let query = db.selectFrom("users").select("id").where("email", "=", email);
  if (exceptId) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw conflict(EMAIL_TAKEN, "email");
}

type NewAccount = Omit<NewUserRow, "id" | "student_number" | "created_at" | "updated_at" | "last_login">;

/**
 * The one insert of an account, inside the caller's write transaction: a student gets the next
 * student number; the row starts without a sign-in.
 */
export async function insertUser(trx: DB, account: NewAccount, at: string): Promise<string> {
  const id = crypto.randomUUID();
  await trx
    .insertInto("users")
    .values({
      ...account,
      id,
      student_number: account.role === "student" ? await nextStudentNumber(trx) : null,
      created_at: at,
      updated_at: at,
      last_login: null,
    })
    .execute();
  return id;
}

/**
 * Creates an account. Students are active at once; trainers and administrators wait for an
 * administrator's approval. A taken email is a 409. A self-registration names its `client`,
 * which is counted (429 past the limit) before anything else; the email is checked before
 * the password is hashed, so neither a flood nor a taken address costs a hash. `approved`
 * (the first administrator, made on the server's command line) skips the approval step.
 */
export async function registerUser(
  db: DB,
  input: RegistrationInput,
  options: {
    actorId?: string | null;
    now?: Date;
    client?: string;
    approved?: boolean;
    /** an account made outside a sign-up (a script) goes into the audit trail as this entry */
    audit?: { action: AuditAction; actor: AuditActor; detail?: string };
    /** the break-glass administrator (admin:create): its password works even when staff must use single sign-on */
    breakGlass?: boolean;
  } = {},
): Promise<{ user: PublicUser; pending: boolean }> {
  const now = (options.now ?? new Date()).toISOString();
  const pending = input.role !== "student" && !options.approved;
  if (options.client !== undefined) await requireRateLimit(db, [RATE_LIMITS.registration], { client: options.client }, TOO_MANY_REGISTRATIONS, options.now);
  await assertEmailFree(db, input.email);
  await assertAcceptablePassword(input.password, input.role);
  const password_hash = await hashPassword(input.password);
  return writeTransaction(db, async (trx) => {
    await assertEmailFree(trx, input.email);
    const usiColumns = await ownUsiColumns(trx, null, input.usi ?? null);
    const id = await insertUser(
      trx,
      {
        email: input.email,
        full_name: input.full_name,
        password_hash,
        role: input.role,
        phone: input.phone,
        address: input.address,
        date_of_birth: input.date_of_birth,
        emergency_contact: input.emergency_contact,
        license_number: null,
        usi: null,
        ...usiColumns,
        is_active: 1,
        approval_status: pending ? "pending" : "approved",
      },
      now,
    );
    await recordEvent(trx, {
      actorId: options.actorId ?? id,
      subjectUserId: id,
      type: pending ? "account.requested" : "account.created",
      entityType: "user",
      entityId: id,
      message: pending ? `${input.full_name} registered as ${input.role} and awaits approval` : `${input.full_name} registered as ${input.role}`,
      now,
    });
    if (options.breakGlass) await trx.updateTable("users").set({ break_glass: 1 }).where("id", "=", id).execute();
    if (options.audit) await recordAudit(trx, { ...options.audit, subject: { type: "user", id }, now });
    const user = await getUserById(trx, id);
    return { user: user!, pending };
  });
}

export async function recordLogin(db: DB, userId: string, now = new Date()): Promise<void> {
  await db.updateTable("users").set({ last_login: now.toISOString() }).where("id", "=", userId).execute();
}

/**
 * A user's own changes to their contact details and USI (Edit Profile); name, email, date of
 * birth and licence stay with the administrators. A changed USI loses its verification.
 * Recorded in the audit trail.
 */
export async function updateOwnProfile(db: DB, userId: string, input: ProfileInput, now = new Date(), client: string | null = null): Promise<PublicUser> {
  const at = now.toISOString();
  return writeTransaction(db, async (trx) => {
    const current = await trx.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
    if (!current) throw notFound("User");
    const written = {
      phone: input.phone,
      address: input.address,
      emergency_contact: input.emergency_contact,
      ...(await ownUsiColumns(trx, current, input.usi)),
    };
    await trx
      .updateTable("users")
      .set({ ...written, updated_at: at })
      .where("id", "=", userId)
      .execute();
    if (current.role === "student") await recordStudentEdit(trx, { current, written, actor: { id: userId, client }, now: at });
    return (await getUserById(trx, userId))!;
  });
}

export const WRONG_CURRENT_PASSWORD = "Your current password is not right";

/** Work a factor change does inside its own transaction (ending the account's other sessions, app/auth/factor-change.server.ts). */
export type InsideChange = (trx: WriteTransaction) => Promise<void>;

/**
 * A user's password changes to `next` (Account security, after the owner proved who they are:
 * app/auth/factor-change.server.ts), if it meets the password rule for their role. `inside`
 * runs in the same transaction; without it every session and API token of the user ends.
 */
export async function changePassword(
  db: DB,
  input: { userId: string; next: string; client?: string | null; now?: Date; inside?: InsideChange },
): Promise<void> {
  const row = await db.selectFrom("users").select(["id", "role"]).where("id", "=", input.userId).executeTakeFirst();
  if (!row) throw notFound("User");
  await assertAcceptablePassword(input.next, row.role);
  const password_hash = await hashPassword(input.next);
  const at = (input.now ?? new Date()).toISOString();
  await writeTransaction(db, async (trx) => {
    await trx.updateTable("users").set({ password_hash, updated_at: at }).where("id", "=", row.id).execute();
    if (input.inside) await input.inside(trx);
    else await revokeAllAccess(trx, row.id);
    await recordAudit(trx, { action: "password.changed", actor: { id: row.id, client: input.client }, subject: { type: "user", id: row.id }, now: at });
  });
}

/**
 * Ends every session of a user but one (the browser that made a factor change), and every API
 * token. Says how many of each ended.
 */
export async function revokeOtherAccess(db: DB, userId: string, keepSession: string | null): Promise<{ sessions: number; tokens: number }> {
  let sessions = db.deleteFrom("sessions").where("user_id", "=", userId);
  if (keepSession) sessions = sessions.where("id", "!=", keepSession);
  const ended = await sessions.executeTakeFirst();
  const tokens = await db.deleteFrom("api_tokens").where("user_id", "=", userId).executeTakeFirst();
  return { sessions: Number(ended.numDeletedRows), tokens: Number(tokens.numDeletedRows) };
}

/** Ends every session and API token of a user at once (deactivation, password change). */
export async function revokeAllAccess(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("api_tokens").where("user_id", "=", userId).execute();
}
