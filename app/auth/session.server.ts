import { createCookie } from "@remix-run/node";
import type { DB } from "#db/connection";
import { env } from "~/env.server";
import { publicUserColumns, toPublicUser, type PublicUser } from "~/models/user.server";
import { randomToken, sha256 } from "./password.server";

const SESSION_DAYS = 14;

let cookie: ReturnType<typeof createCookie> | undefined;
function sessionCookie() {
  cookie ??= createCookie("__session", {
    httpOnly: true,
    sameSite: "lax",
    secure: env().NODE_ENV === "production",
    path: "/",
    secrets: [env().SESSION_SECRET],
    maxAge: SESSION_DAYS * 24 * 60 * 60,
  });
  return cookie;
}

/**
 * Starts a brand-new session (never reusing the caller's id) and returns the Set-Cookie
 * value. Only the id's hash is stored, so a database leak yields no usable session.
 */
export async function createSession(db: DB, userId: string, now = new Date()): Promise<string> {
  const id = randomToken();
  await db
    .insertInto("sessions")
    .values({
      id: sha256(id),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_DAYS * 864e5).toISOString(),
    })
    .execute();
  return sessionCookie().serialize(id);
}

async function sessionIdFrom(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 && value.length < 200 ? value : null;
}

/** The signed-in user, or null when the session is missing, expired, revoked or the user may not sign in. */
export async function getSessionUser(db: DB, request: Request): Promise<PublicUser | null> {
  const id = await sessionIdFrom(request);
  if (!id) return null;
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(publicUserColumns)
    .where("sessions.id", "=", sha256(id))
    .where("sessions.expires_at", ">", new Date().toISOString())
    .where("users.is_active", "=", 1)
    .where("users.approval_status", "=", "approved")
    .executeTakeFirst();
  return row ? toPublicUser(row) : null;
}

/** Ends this browser's session on the server and returns the Set-Cookie that clears it. */
export async function destroySession(db: DB, request: Request): Promise<string> {
  const id = await sessionIdFrom(request);
  if (id) await db.deleteFrom("sessions").where("id", "=", sha256(id)).execute();
  return sessionCookie().serialize("", { maxAge: 0 });
}

/** Ends every session and API token of a user at once (deactivation, password change). */
export async function revokeAllAccess(db: DB, userId: string): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
  await db.deleteFrom("api_tokens").where("user_id", "=", userId).execute();
}
