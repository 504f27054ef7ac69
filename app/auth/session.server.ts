import { createCookie } from "@remix-run/node";
import type { DB } from "#db/connection";
import { env } from "~/env.server";
import { publicUserColumns, toPublicUser, type PublicUser } from "~/models/user.server";
import { randomToken, sha256 } from "~/security/password.server";

/** The absolute limit: a session ends this long after sign-in, however busy. */
export const SESSION_DAYS = 14;
/** The idle limit: a session not used for this long ends. */
export const SESSION_IDLE_HOURS = 8;
/** How stale last_seen_at may get before a request writes it again (one write per few minutes, not per request). */
const LAST_SEEN_GRANULARITY_MS = 5 * 60_000;

/**
 * Served over HTTPS (APP_URL https://…) the cookie is `__Host-session`: the browser then takes
 * it only from a secure origin, for the whole host, never set by a subdomain or over HTTP.
 */
export function sessionCookieName(settings: { APP_URL?: string } = env()): string {
  return settings.APP_URL?.startsWith("https:") ? "__Host-session" : "__session";
}

const cookies = new Map<string, ReturnType<typeof createCookie>>();

/** A signed, HttpOnly, SameSite=Lax cookie of this portal (made once per name): the session's and the second step's. */
function portalCookie(name: string, maxAgeSeconds: number) {
  let cookie = cookies.get(name);
  if (!cookie) {
    cookie = createCookie(name, {
      httpOnly: true,
      sameSite: "lax",
      secure: name.startsWith("__Host-") || env().NODE_ENV === "production",
      path: "/",
      secrets: [env().SESSION_SECRET],
      maxAge: maxAgeSeconds,
    });
    cookies.set(name, cookie);
  }
  return cookie;
}

const sessionCookie = () => portalCookie(sessionCookieName(), SESSION_DAYS * 24 * 60 * 60);

/**
 * Starts a brand-new session (never reusing the caller's id) and returns the Set-Cookie
 * value. Only the id's hash is stored, so a database leak yields no usable session.
 */
export async function createSession(db: DB, userId: string, now = new Date(), secondFactor: "provider" | null = null): Promise<string> {
  const id = randomToken();
  await db
    .insertInto("sessions")
    .values({
      id: sha256(id),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_DAYS * 864e5).toISOString(),
      last_seen_at: now.toISOString(),
      second_factor: secondFactor,
    })
    .execute();
  return sessionCookie().serialize(id);
}

async function sessionIdFrom(request: Request): Promise<string | null> {
  const value = await sessionCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 && value.length < 200 ? value : null;
}

/**
 * The signed-in user, or null when the session is missing, past its absolute limit, idle for
 * longer than SESSION_IDLE_HOURS, revoked, or the user may not sign in. Using a session
 * keeps it alive (recorded every few minutes).
 */
export async function getSessionUser(db: DB, request: Request, now = new Date()): Promise<PublicUser | null> {
  const id = await sessionIdFrom(request);
  if (!id) return null;
  const idleSince = new Date(now.getTime() - SESSION_IDLE_HOURS * 3600_000).toISOString();
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select([...publicUserColumns, "sessions.last_seen_at as session_last_seen_at"])
    .where("sessions.id", "=", sha256(id))
    .where("sessions.expires_at", ">", now.toISOString())
    .where((eb) => eb.fn.coalesce("sessions.last_seen_at", "sessions.created_at"), ">", idleSince)
    .where("users.is_active", "=", 1)
    .where("users.approval_status", "=", "approved")
    .executeTakeFirst();
  if (!row) return null;
  const lastSeen = row.session_last_seen_at ? Date.parse(row.session_last_seen_at) : 0;
  if (now.getTime() - lastSeen > LAST_SEEN_GRANULARITY_MS) {
    await db.updateTable("sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", sha256(id)).execute();
  }
  return toPublicUser(row);
}

/**
 * Whether this browser's session began with a second factor the identity provider reported
 * (single sign-on): it satisfies the administrators' two-step rule as the portal's own would.
 */
export async function sessionHasProviderSecondFactor(db: DB, request: Request): Promise<boolean> {
  const id = await sessionIdFrom(request);
  if (!id) return false;
  const row = await db.selectFrom("sessions").select("second_factor").where("id", "=", sha256(id)).executeTakeFirst();
  return row?.second_factor === "provider";
}

/** Ends this browser's session on the server and returns the Set-Cookie that clears it. */
export async function destroySession(db: DB, request: Request): Promise<string> {
  const id = await sessionIdFrom(request);
  if (id) await db.deleteFrom("sessions").where("id", "=", sha256(id)).execute();
  return sessionCookie().serialize("", { maxAge: 0 });
}

/** How long the second-step page waits for its code after the password was right. */
export const SECOND_STEP_MINUTES = 5;

const secondStepCookie = () => portalCookie(`${sessionCookieName()}-step`, SECOND_STEP_MINUTES * 60);

/** How long a used or expired step is kept before the next sign-in tidies it away (so a replay is told it was used). */
const STEP_KEPT_MS = 24 * 3600_000;

/**
 * After a right password for an account with a second step: a step on the server (whose
 * sign-in, until when, used or not: table sign_in_steps) and a signed, short-lived cookie that
 * names it and where to go afterwards. It signs nobody in; only the second-step page reads it,
 * and a right code there starts the session and uses the step up, once.
 */
export async function startSecondStep(
  db: DB,
  userId: string,
  redirectTo: string,
  now = new Date(),
  firstStep: "password" | "single sign-on" = "password",
): Promise<string> {
  const id = randomToken();
  await db
    .deleteFrom("sign_in_steps")
    .where("expires_at", "<", new Date(now.getTime() - STEP_KEPT_MS).toISOString())
    .execute();
  await db
    .insertInto("sign_in_steps")
    .values({ id: sha256(id), user_id: userId, expires_at: new Date(now.getTime() + SECOND_STEP_MINUTES * 60_000).toISOString(), used_at: null })
    .execute();
  return secondStepCookie().serialize({ s: id, r: redirectTo, f: firstStep });
}

/** A sign-in waiting for its code: the step (its stored id), whose it is, and where to go afterwards. */
export interface PendingStep {
  stepId: string;
  userId: string;
  redirectTo: string;
  /** how the first step was made: a password, or the identity provider (audited with the code's kind) */
  firstStep: "password" | "single sign-on";
}

/**
 * The step the request's cookie names: `open` while it may complete a sign-in, `used` once it
 * has, `expired` after SECOND_STEP_MINUTES, null without a (readable) cookie.
 */
export async function pendingSecondStep(
  db: DB,
  request: Request,
  now = new Date(),
): Promise<{ state: "open"; step: PendingStep } | { state: "used" | "expired" } | null> {
  const value = (await secondStepCookie().parse(request.headers.get("Cookie"))) as { s?: unknown; r?: unknown; f?: unknown } | null;
  if (!value || typeof value.s !== "string" || value.s.length > 200 || typeof value.r !== "string") return null;
  const stepId = sha256(value.s);
  const row = await db.selectFrom("sign_in_steps").select(["user_id", "expires_at", "used_at"]).where("id", "=", stepId).executeTakeFirst();
  if (!row) return { state: "expired" };
  if (row.used_at) return { state: "used" };
  if (row.expires_at <= now.toISOString()) return { state: "expired" };
  const firstStep = value.f === "single sign-on" ? "single sign-on" : "password";
  return { state: "open", step: { stepId, userId: row.user_id, redirectTo: value.r, firstStep } };
}

export function clearSecondStep(): Promise<string> {
  return secondStepCookie().serialize("", { maxAge: 0 });
}

/** How long a single sign-on started in this browser waits for the provider's answer. */
export const PROVIDER_SIGN_IN_MINUTES = 10;

const providerStartCookie = () => portalCookie(`${sessionCookieName()}-sso`, PROVIDER_SIGN_IN_MINUTES * 60);

/** A started single sign-on: the state, nonce and PKCE verifier the callback checks, and where to go afterwards. */
export interface ProviderStart {
  state: string;
  nonce: string;
  verifier: string;
  redirectTo: string;
}

/**
 * Starting a single sign-on stores nothing on the server: its secrets travel in this short-lived
 * signed cookie, read once by the callback (which clears it).
 */
export function keepProviderStart(start: ProviderStart): Promise<string> {
  return providerStartCookie().serialize({ s: start.state, n: start.nonce, v: start.verifier, r: start.redirectTo, t: Date.now() });
}

/** The single sign-on this browser started (within PROVIDER_SIGN_IN_MINUTES), or null. */
export async function providerStart(request: Request, now = Date.now()): Promise<ProviderStart | null> {
  const value = (await providerStartCookie().parse(request.headers.get("Cookie"))) as Record<string, unknown> | null;
  if (!value) return null;
  const { s, n, v, r, t } = value;
  if (typeof s !== "string" || typeof n !== "string" || typeof v !== "string" || typeof r !== "string" || typeof t !== "number") return null;
  if (s.length > 200 || n.length > 200 || v.length > 200 || now - t > PROVIDER_SIGN_IN_MINUTES * 60_000) return null;
  return { state: s, nonce: n, verifier: v, redirectTo: r };
}

export function clearProviderStart(): Promise<string> {
  return providerStartCookie().serialize("", { maxAge: 0 });
}

/** The stored id of this browser's session (its hash), so a factor change can end every other one. */
export async function currentSessionKey(request: Request): Promise<string | null> {
  const id = await sessionIdFrom(request);
  return id ? sha256(id) : null;
}

/** How long a visitor's pre-enrolment review waits in their browser for them to sign up and enrol. */
const REVIEW_CLAIM_DAYS = 30;
const reviewClaimCookie = () => portalCookie(`${sessionCookieName()}-review`, REVIEW_CLAIM_DAYS * 24 * 60 * 60);

/**
 * The token that names this browser's pre-enrolment reviews before its visitor has an account
 * (the database keeps only its hash); the enrolment that follows makes them the learner's.
 */
export async function reviewClaimToken(request: Request): Promise<string | null> {
  const value: unknown = await reviewClaimCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length <= 100 ? value : null;
}

/** The token to use for this browser, and the Set-Cookie header when it is new. */
export async function ensureReviewClaimToken(request: Request): Promise<{ token: string; setCookie: string | null }> {
  const held = await reviewClaimToken(request);
  if (held) return { token: held, setCookie: null };
  const token = randomToken();
  return { token, setCookie: await reviewClaimCookie().serialize(token) };
}
