import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { bodyOf, call, caller, sessionCookie, type Caller, type RouteModule } from "../../tests/support/api-calls";
import * as settingsRoute from "~/routes/api+/admin.sign-in-settings";
import { signIn, SSO_REQUIRED } from "~/auth/sign-in.server";
import { SSO_NOT_CONFIGURED, signInSettings } from "./sign-in-settings.server";

/**
 * "Require single sign-on for staff" from the /api and from the Staff page: one model call, one
 * schema, the same answers (docs/decisions/038-single-sign-on.md).
 */

const OIDC = {
  OIDC_ISSUER: "http://localhost:7806",
  OIDC_CLIENT_ID: "portal",
  OIDC_CLIENT_SECRET: "portal-secret-portal-secret",
  OIDC_PROVIDER_NAME: "Test IdP",
};
const configure = () => Object.assign(process.env, OIDC);
const unconfigure = () => {
  for (const name of Object.keys(OIDC)) delete process.env[name];
};

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
});
afterEach(async () => {
  unconfigure();
  await db.deleteFrom("sign_in_settings").execute();
});
afterAll(() => cleanup());

const route = settingsRoute as unknown as RouteModule;
const put = (json: unknown, token = admin.token) => call(route, "PUT", "/api/admin/sign-in-settings", { token, json });
const settingsAudits = () => db.selectFrom("audit_log").select(["actor_id", "detail"]).where("action", "=", "sign_in.settings_changed").orderBy("id").execute();

describe("PUT /api/admin/sign-in-settings", () => {
  it("requires single sign-on for staff and allows passwords again, audited once per change", async () => {
    configure();
    const trainer = await caller(db, "trainer");
    const before = await call(route, "GET", "/api/admin/sign-in-settings", { token: admin.token });
    expect(before.status).toBe(200);
    expect(await bodyOf(before)).toEqual({ provider: "Test IdP", require_sso_for_staff: false, updated_at: null });
    const on = await put({ require_sso_for_staff: true });
    expect(on.status).toBe(200);
    expect(await bodyOf(on)).toMatchObject({ provider: "Test IdP", require_sso_for_staff: true, updated_at: expect.any(String) });
    await expect(signIn(db, { email: trainer.email, password: "password123", client: "10.9.2.1" })).rejects.toMatchObject({
      status: 403,
      message: SSO_REQUIRED("Test IdP"),
    });
    // the same answer again changes nothing and writes no second entry
    expect((await put({ require_sso_for_staff: true })).status).toBe(200);
    expect(await settingsAudits()).toEqual([{ actor_id: admin.id, detail: "staff must sign in with the identity provider" }]);
    const off = await put({ require_sso_for_staff: false });
    expect(await bodyOf(off)).toMatchObject({ require_sso_for_staff: false });
    await expect(signIn(db, { email: trainer.email, password: "password123", client: "10.9.2.2" })).resolves.toMatchObject({ id: trainer.id });
    expect(await settingsAudits()).toHaveLength(2);
  });

  it("refuses to require it while no provider is configured (409), and bad input (422)", async () => {
    const audited = (await settingsAudits()).length;
    const refused = await put({ require_sso_for_staff: true });
    expect(refused.status).toBe(409);
    expect(await bodyOf(refused)).toMatchObject({ detail: SSO_NOT_CONFIGURED });
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
    expect((await put({ require_sso_for_staff: false })).status).toBe(200);
    configure();
    expect((await put({ require_sso_for_staff: "yes" })).status).toBe(422);
    expect((await put({ require_sso_for_staff: true, other: 1 })).status).toBe(422);
    expect((await put({})).status).toBe(422);
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
    expect(await settingsAudits()).toHaveLength(audited);
  });

  it("is for administrators only", async () => {
    configure();
    const trainer = await caller(db, "trainer");
    expect((await call(route, "GET", "/api/admin/sign-in-settings", { token: trainer.token })).status).toBe(403);
    expect((await put({ require_sso_for_staff: true }, trainer.token)).status).toBe(403);
    expect((await call(route, "GET", "/api/admin/sign-in-settings")).status).toBe(401);
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
  });
});

describe("the Staff page's switch", () => {
  it("asks before requiring it, then stores what the /api reads", async () => {
    configure();
    const page = (await import("~/routes/admin+/staff")) as unknown as RouteModule;
    const cookie = await sessionCookie(db, admin.id);
    const post = (fields: Record<string, string>) =>
      call(page, "POST", "/admin/staff", {
        cookie,
        body: new URLSearchParams({ intent: "require-sso", ...fields }).toString(),
        contentType: "application/x-www-form-urlencoded",
      });
    const asked = await post({ require_sso_for_staff: "true" });
    expect(asked.status).toBe(200);
    expect(await bodyOf(asked)).toEqual({ confirm: "require-sso" });
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
    expect((await post({ require_sso_for_staff: "true", confirm: "yes" })).status).toBe(302);
    expect(await bodyOf(await call(route, "GET", "/api/admin/sign-in-settings", { token: admin.token }))).toMatchObject({ require_sso_for_staff: true });
    expect((await post({ require_sso_for_staff: "false" })).status).toBe(302);
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
    expect((await post({ require_sso_for_staff: "maybe", confirm: "yes" })).status).toBe(302);
    expect((await signInSettings(db)).require_sso_for_staff).toBe(false);
  });
});
