import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { getTokenUser, issueApiToken, requireApiUser } from "~/api/auth.server";
import { requireRole, requireUser } from "./guards.server";
import { sha256 } from "~/security/password.server";
import { revokeAllAccess } from "~/models/user.server";
import { createSession, destroySession, getSessionUser, SESSION_DAYS, SESSION_IDLE_HOURS, sessionCookieName } from "./session.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

/** A request carrying the cookie a Set-Cookie header set. */
function withCookie(setCookie: string, url = "http://localhost/student/overview", init: RequestInit = {}) {
  return new Request(url, { ...init, headers: { ...(init.headers as Record<string, string>), Cookie: setCookie.split(";")[0]! } });
}

async function thrown(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

describe("sessions", () => {
  it("creates an HttpOnly SameSite=Lax cookie whose raw id is never stored", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const rows = await db.selectFrom("sessions").selectAll().where("user_id", "=", id).execute();
    expect(rows).toHaveLength(1);
    expect(cookie).not.toContain(rows[0]!.id);
    expect(rows[0]!.id).toMatch(/^[0-9a-f]{64}$/);
  });

  it("gives a new session id at every sign-in", async () => {
    const { id } = await makeUser(db);
    const a = await createSession(db, id);
    const b = await createSession(db, id);
    expect(a.split(";")[0]).not.toBe(b.split(";")[0]);
  });

  it("reads the user back, and a signed-out session stops working at once", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    expect((await getSessionUser(db, withCookie(cookie)))?.id).toBe(id);
    await destroySession(db, withCookie(cookie));
    expect(await getSessionUser(db, withCookie(cookie))).toBeNull();
  });

  it("refuses a tampered or foreign cookie", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    const tampered = cookie.replace(/__session=([^.;]+)/, "__session=AAAA$1");
    expect(await getSessionUser(db, withCookie(tampered))).toBeNull();
    expect(await getSessionUser(db, new Request("http://localhost/", { headers: { Cookie: "__session=garbage" } }))).toBeNull();
  });

  it("a deactivated user's sessions and tokens stop working at once", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    const token = await issueApiToken(db, id);
    await db.updateTable("users").set({ is_active: 0 }).where("id", "=", id).execute();
    expect(await getSessionUser(db, withCookie(cookie))).toBeNull();
    expect(await getTokenUser(db, token)).toBeNull();
    await revokeAllAccess(db, id);
    expect(await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute()).toHaveLength(0);
    expect(await db.selectFrom("api_tokens").select("id").where("user_id", "=", id).execute()).toHaveLength(0);
  });

  it(`ends a session left unused for ${SESSION_IDLE_HOURS} hours, while use keeps it alive up to ${SESSION_DAYS} days`, async () => {
    const { id } = await makeUser(db);
    const start = new Date(Date.now() - 20 * 3600_000);
    const hours = (h: number) => new Date(start.getTime() + h * 3600_000);
    const cookie = await createSession(db, id, start);
    expect((await getSessionUser(db, withCookie(cookie), hours(7)))?.id).toBe(id);
    // used at hour 7, so hour 14 is within the idle limit
    expect((await getSessionUser(db, withCookie(cookie), hours(14)))?.id).toBe(id);
    expect(await getSessionUser(db, withCookie(cookie), hours(14 + SESSION_IDLE_HOURS + 0.1))).toBeNull();
    const idle = await createSession(db, id, start);
    expect(await getSessionUser(db, withCookie(idle), hours(SESSION_IDLE_HOURS + 0.1))).toBeNull();
    // busy every few hours, a session still ends at the absolute limit
    const busy = await createSession(db, id, start);
    let at = 0;
    for (; at < SESSION_DAYS * 24 - 4; at += 4) expect((await getSessionUser(db, withCookie(busy), hours(at)))?.id).toBe(id);
    expect(await getSessionUser(db, withCookie(busy), hours(SESSION_DAYS * 24 + 0.1))).toBeNull();
  });

  it("names the cookie __Host-session, Secure, when the portal is served over HTTPS", async () => {
    expect(sessionCookieName({ APP_URL: "https://rto.example.com" })).toBe("__Host-session");
    expect(sessionCookieName({ APP_URL: "http://localhost:3000" })).toBe("__session");
    expect(sessionCookieName({})).toBe("__session");
    const saved = process.env.APP_URL;
    process.env.APP_URL = "https://rto.example.com";
    try {
      const { id } = await makeUser(db);
      const cookie = await createSession(db, id);
      expect(cookie).toMatch(/^__Host-session=/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Domain=/);
      expect((await getSessionUser(db, withCookie(cookie)))?.id).toBe(id);
    } finally {
      if (saved === undefined) delete process.env.APP_URL;
      else process.env.APP_URL = saved;
    }
  });

  it("an expired session is not accepted", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id, new Date(Date.now() - 30 * 864e5));
    expect(await getSessionUser(db, withCookie(cookie))).toBeNull();
  });
});

describe("guards", () => {
  it("requireUser sends a visitor to /login with the way back", async () => {
    const response = await thrown(requireUser(new Request("http://localhost/enroll/abc?x=1")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fenroll%2Fabc%3Fx%3D1");
    // the router's data request for the same page (Remix hands the loader the page's URL with
    // the loaders it asks for) comes back to the page
    const navigation = await thrown(requireUser(new Request("http://localhost/enroll/abc?x=1&_routes=routes%2Fenroll.%24courseId")));
    expect(navigation.headers.get("Location")).toBe("/login?redirectTo=%2Fenroll%2Fabc%3Fx%3D1");
  });

  it("requireRole sends the wrong role to /dashboard and lets the right one through", async () => {
    const { id } = await makeUser(db, { role: "student" });
    const cookie = await createSession(db, id);
    const response = await thrown(requireRole(withCookie(cookie, "http://localhost/admin"), "admin"));
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect((await requireRole(withCookie(cookie), "student")).id).toBe(id);
  });

  it("requireApiUser answers 401 without credentials, 401 for a bad token, 403 for the wrong role", async () => {
    const { id } = await makeUser(db, { role: "student" });
    const token = await issueApiToken(db, id);
    const r401 = await thrown(requireApiUser(new Request("http://localhost/api/auth/me")));
    expect(r401.status).toBe(401);
    expect(await r401.json()).toEqual({ detail: expect.any(String) });
    const bad = await thrown(requireApiUser(new Request("http://localhost/api/x", { headers: { Authorization: "Bearer nope" } })));
    expect(bad.status).toBe(401);
    const r403 = await thrown(requireApiUser(new Request("http://localhost/api/x", { headers: { Authorization: `Bearer ${token}` } }), "admin"));
    expect(r403.status).toBe(403);
    const ok = await requireApiUser(new Request("http://localhost/api/x", { headers: { Authorization: `bearer ${token}` } }));
    expect(ok.id).toBe(id);
  });

  it("API tokens are stored hashed and expire", async () => {
    const { id } = await makeUser(db);
    const token = await issueApiToken(db, id, new Date(Date.now() - 48 * 3600_000));
    const row = await db.selectFrom("api_tokens").selectAll().where("token_hash", "=", sha256(token)).executeTakeFirst();
    expect(row).toBeDefined();
    expect(await getTokenUser(db, token)).toBeNull();
  });

  it("a cookie alone cannot make a state-changing /api call without an origin", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    const post = withCookie(cookie, "http://localhost/api/enrollments", { method: "POST" });
    expect((await thrown(requireApiUser(post))).status).toBe(401);
    const sameOrigin = withCookie(cookie, "http://localhost/api/enrollments", { method: "POST", headers: { Origin: "http://localhost" } });
    expect((await requireApiUser(sameOrigin)).id).toBe(id);
  });
});

describe("one session lookup per page", () => {
  it("shares the lookup among a GET's loaders, but a write always looks again", async () => {
    const { id } = await makeUser(db);
    const cookie = await createSession(db, id);
    const { CONTEXT_HEADER, withRequestContext } = await import("~/http/request-context.server");
    const { getOptionalUser } = await import("./guards.server");
    // GET: the second loader gets the first one's answer, even though the session has gone since
    await withRequestContext(withCookie(cookie), { address: "127.0.0.1" }, async (request) => {
      expect((await getOptionalUser(request))?.id).toBe(id);
      await db.deleteFrom("sessions").where("user_id", "=", id).execute();
      expect((await getOptionalUser(request))?.id).toBe(id);
      // another cookie in the same context is looked up on its own
      const noCookie = new Request("http://localhost/", { headers: { [CONTEXT_HEADER]: request.headers.get(CONTEXT_HEADER)! } });
      expect(await getOptionalUser(noCookie)).toBeNull();
    });
    // POST: every call reads the database
    const again = await createSession(db, id);
    await withRequestContext(withCookie(again, "http://localhost/student/profile/edit", { method: "POST" }), { address: "127.0.0.1" }, async (request) => {
      expect((await getOptionalUser(request))?.id).toBe(id);
      await db.deleteFrom("sessions").where("user_id", "=", id).execute();
      expect(await getOptionalUser(request)).toBeNull();
    });
    // outside any request context nothing is shared
    const third = await createSession(db, id);
    const request = withCookie(third);
    expect((await getOptionalUser(request))?.id).toBe(id);
    await db.deleteFrom("sessions").where("user_id", "=", id).execute();
    expect(await getOptionalUser(request)).toBeNull();
  });
});
