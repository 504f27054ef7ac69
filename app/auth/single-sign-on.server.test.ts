import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { jwtClaims, newSigningKey, signInAtProvider, signJwt, startTestProvider, type TestProvider } from "../../tests/support/oidc-provider";
import { setRequireSsoForStaff } from "~/models/sign-in-settings.server";
import {
  beginProviderSignIn,
  finishProviderSignIn,
  forgetProvider,
  ProviderAnswerRefused,
  reportsSecondFactor,
  type ProviderFetch,
  type ProviderSettings,
} from "./single-sign-on.server";
import { ProviderSignInRefused, signInWithProvider, SSO_INACTIVE, SSO_NO_ACCOUNT, SSO_NOT_STAFF, SSO_UNVERIFIED } from "./provider-sign-in.server";
import { signIn, SSO_REQUIRED } from "./sign-in.server";

/**
 * Single sign-on against a real OpenID provider (oidc-provider, started here): the portal's
 * client takes only what the library has checked, and only active, verified staff sign in.
 */

const REDIRECT_URI = "http://localhost:7800/login/sso/callback";
const CLIENTS = [
  { client_id: "portal", client_secret: "portal-secret-portal-secret", redirect_uris: [REDIRECT_URI] },
  { client_id: "another-app", client_secret: "another-secret-another-secret", redirect_uris: [REDIRECT_URI] },
];

let db: DB;
let cleanup: () => Promise<void>;
let provider: TestProvider;
let settings: ProviderSettings;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  provider = await startTestProvider({ port: 0, clients: CLIENTS });
  settings = { issuer: provider.issuer, clientId: "portal", clientSecret: "portal-secret-portal-secret", name: "Test IdP" };
});
afterAll(async () => {
  await provider.stop();
  await cleanup();
});

/** A whole sign-in up to the library's checks: the provider's page as `who`, the callback, the code redeemed. */
async function throughProvider(who: { email: string; emailVerified?: boolean; amr?: string[] }, fetch?: ProviderFetch) {
  const { url, start } = await beginProviderSignIn(settings, REDIRECT_URI);
  const callbackUrl = await signInAtProvider(url, who);
  return { identity: await finishProviderSignIn(settings, { callbackUrl, start, fetch }), callbackUrl, start };
}

const portalSide = (identity: Awaited<ReturnType<typeof throughProvider>>["identity"]) =>
  signInWithProvider(db, { identity, provider: "Test IdP", client: "10.9.0.1" });

/** A fetch that hands the portal a changed ID token in the provider's token answer. */
function replacingIdToken(change: (real: string) => string): ProviderFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!url.endsWith("/token") || response.status !== 200) return response;
    const body = (await response.json()) as { id_token: string };
    return new Response(JSON.stringify({ ...body, id_token: change(body.id_token) }), { status: 200, headers: { "Content-Type": "application/json" } });
  };
}

const lastAudit = (userId?: string) =>
  db
    .selectFrom("audit_log")
    .select(["action", "subject_id", "detail", "actor_id"])
    .$if(userId !== undefined, (q) => q.where("subject_id", "=", userId!))
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();

describe("a staff member signs in with the provider", () => {
  it("signs in a trainer whose provider reports a second factor, and audits it by user id", async () => {
    const { id, email } = await makeUser(db, { role: "trainer", two_step: true });
    const { identity } = await throughProvider({ email, amr: ["pwd", "mfa"] });
    expect(identity).toMatchObject({ email, emailVerified: true, amr: ["pwd", "mfa"] });
    const outcome = await portalSide(identity);
    expect(outcome).toMatchObject({ kind: "signed_in", secondFactor: "provider", user: { id } });
    const entry = await lastAudit(id);
    expect(entry).toMatchObject({ action: "sign_in.succeeded", actor_id: id });
    expect(entry.detail).toContain("single sign-on");
    expect(entry.detail).not.toContain(email);
  });

  it("asks for the portal's own second step when the provider reports only a password", async () => {
    const { id, email } = await makeUser(db, { role: "admin" });
    const outcome = await portalSide((await throughProvider({ email, amr: ["pwd"] })).identity);
    expect(outcome).toEqual({ kind: "second_step", userId: id });
  });

  it("signs in a trainer without a second step of the portal's when the provider reports none (as their password would)", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    expect(await portalSide((await throughProvider({ email, amr: ["pwd"] })).identity)).toMatchObject({ kind: "signed_in", secondFactor: null });
  });

  it("reads RFC 8176's second factors from amr", () => {
    for (const amr of [["mfa"], ["pwd", "otp"], ["hwk"], ["swk"], ["fpt"], ["face"], ["sms"], ["pwd", "MFA"]]) expect(reportsSecondFactor(amr)).toBe(true);
    for (const amr of [[], ["pwd"], ["kba"], ["wia"], ["user"]]) expect(reportsSecondFactor(amr)).toBe(false);
  });
});

describe("who is refused (each audited, no account made)", () => {
  const users = () =>
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

  it("refuses a learner", async () => {
    const { id, email } = await makeUser(db, { role: "student" });
    await expect(portalSide((await throughProvider({ email, amr: ["mfa"] })).identity)).rejects.toMatchObject({ message: SSO_NOT_STAFF("Test IdP") });
    expect(await lastAudit(id)).toMatchObject({ action: "sign_in.failed", detail: "single sign-on: not staff (student)" });
  });

  it("refuses an unknown email and makes no account", async () => {
    const before = await users();
    await expect(portalSide((await throughProvider({ email: "stranger@elsewhere.example", amr: ["mfa"] })).identity)).rejects.toMatchObject({
      message: SSO_NO_ACCOUNT("Test IdP"),
    });
    expect(await users()).toEqual(before);
    expect(await lastAudit()).toMatchObject({ action: "sign_in.failed", subject_id: null, detail: "single sign-on: unknown email" });
  });

  it("refuses an email the provider has not verified", async () => {
    const { id, email } = await makeUser(db, { role: "trainer" });
    await expect(portalSide((await throughProvider({ email, emailVerified: false, amr: ["mfa"] })).identity)).rejects.toMatchObject({
      message: SSO_UNVERIFIED("Test IdP"),
    });
    expect(await lastAudit(id)).toMatchObject({ action: "sign_in.failed", detail: "single sign-on: email not verified" });
  });

  it("refuses a deactivated account", async () => {
    const { id, email } = await makeUser(db, { role: "trainer", is_active: false });
    const refused = portalSide((await throughProvider({ email, amr: ["mfa"] })).identity);
    await expect(refused).rejects.toBeInstanceOf(ProviderSignInRefused);
    await expect(refused).rejects.toMatchObject({ message: SSO_INACTIVE });
    expect(await lastAudit(id)).toMatchObject({ action: "sign_in.failed", detail: "single sign-on: account inactive" });
  });
});

describe("answers the library refuses", () => {
  let lastCause: unknown;
  const refusedWith = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderAnswerRefused);
    lastCause = ((error as Error).cause as Error | undefined)?.cause;
    return (error as ProviderAnswerRefused).code;
  };

  it("refuses a tampered ID token (claims changed, the signature kept)", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const tampered = replacingIdToken((real) => {
      const [header, , signature] = real.split(".");
      const claims = { ...jwtClaims(real), email: "admin@example.com" };
      return `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    });
    expect(await refusedWith(throughProvider({ email, amr: ["mfa"] }, tampered))).toBe("OAUTH_INVALID_RESPONSE");
    expect(String(lastCause)).toContain("signature verification failed");
  });

  it("refuses an ID token made for another client (wrong audience), though the provider signed it", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const other = replacingIdToken((real) => signJwt(provider.key, { ...jwtClaims(real), aud: "another-app", azp: "another-app" }));
    expect(await refusedWith(throughProvider({ email, amr: ["mfa"] }, other))).toBe("OAUTH_JWT_CLAIM_COMPARISON_FAILED");
  });

  it("refuses an expired ID token", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const now = Math.floor(Date.now() / 1000);
    const expired = replacingIdToken((real) => signJwt(provider.key, { ...jwtClaims(real), iat: now - 3600, auth_time: now - 3600, exp: now - 600 }));
    const code = await refusedWith(throughProvider({ email, amr: ["mfa"] }, expired));
    expect(code).toBe("OAUTH_JWT_TIMESTAMP_CHECK_FAILED");
  });

  it("refuses a code used a second time (a replayed callback)", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const { callbackUrl, start } = await throughProvider({ email, amr: ["mfa"] });
    const code = await refusedWith(finishProviderSignIn(settings, { callbackUrl, start }));
    expect(code).toMatch(/invalid_grant|OAUTH_RESPONSE_BODY_ERROR/);
  });

  it("refuses a callback whose state is not the one this browser started", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const { url, start } = await beginProviderSignIn(settings, REDIRECT_URI);
    const callbackUrl = await signInAtProvider(url, { email, amr: ["mfa"] });
    expect(await refusedWith(finishProviderSignIn(settings, { callbackUrl, start: { ...start, state: "someone-elses" } }))).toBe("OAUTH_INVALID_RESPONSE");
  });

  it("refuses an ID token signed with a key the provider never published, after fetching its keys once more", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    const stranger = newSigningKey();
    const keyRequests: string[] = [];
    const forged: ProviderFetch = async (url, init) => {
      if (url.includes("jwks")) keyRequests.push(url);
      return replacingIdToken((real) => signJwt(stranger, jwtClaims(real)))(url, init);
    };
    expect(await refusedWith(throughProvider({ email, amr: ["mfa"] }, forged))).toBe("OAUTH_KEY_SELECTION_FAILED");
    expect(keyRequests.length).toBeGreaterThanOrEqual(1);
  });
});

describe("the provider rotates its signing key", () => {
  afterEach(() => forgetProvider());

  it("fetches the new key once and signs in", async () => {
    const { email } = await makeUser(db, { role: "trainer" });
    await throughProvider({ email, amr: ["mfa"] }); // the old key is now cached
    const port = Number(new URL(provider.issuer).port);
    await provider.stop();
    provider = await startTestProvider({ port, clients: CLIENTS, key: newSigningKey() });
    const keyRequests: string[] = [];
    const counting: ProviderFetch = (url, init) => {
      if (url.includes("jwks")) keyRequests.push(url);
      return fetch(url, init);
    };
    const { identity } = await throughProvider({ email, amr: ["mfa"] }, counting);
    expect(identity.email).toBe(email);
    expect(keyRequests).toHaveLength(1);
  });
});

describe("administrators require single sign-on for staff", () => {
  const OIDC = {
    OIDC_ISSUER: "http://localhost:7805",
    OIDC_CLIENT_ID: "portal",
    OIDC_CLIENT_SECRET: "portal-secret-portal-secret",
    OIDC_PROVIDER_NAME: "Test IdP",
  };
  beforeAll(() => Object.assign(process.env, OIDC));
  afterAll(() => {
    for (const name of Object.keys(OIDC)) delete process.env[name];
  });

  it("refuses staff passwords (not a learner's, not the break-glass administrator's) while it is on", async () => {
    const admin = await makeUser(db, { role: "admin" });
    const trainer = await makeUser(db, { role: "trainer" });
    const learner = await makeUser(db, { role: "student" });
    const breakGlass = await makeUser(db, { role: "admin", two_step: false });
    await db.updateTable("users").set({ break_glass: 1 }).where("id", "=", breakGlass.id).execute();
    await setRequireSsoForStaff(db, { required: true, provider: "Test IdP", actor: admin.id });
    expect(await lastAudit()).toMatchObject({ action: "sign_in.settings_changed", actor_id: admin.id });
    await expect(signIn(db, { email: trainer.email, password: "password123", client: "10.9.1.1" })).rejects.toMatchObject({
      status: 403,
      message: SSO_REQUIRED("Test IdP"),
    });
    expect(await lastAudit(trainer.id)).toMatchObject({ action: "sign_in.failed" });
    await expect(signIn(db, { email: learner.email, password: "password123", client: "10.9.1.2" })).resolves.toMatchObject({ id: learner.id });
    await expect(signIn(db, { email: breakGlass.email, password: "password123", client: "10.9.1.3" })).resolves.toMatchObject({ id: breakGlass.id });
    await setRequireSsoForStaff(db, { required: false, provider: "Test IdP", actor: admin.id });
    await expect(signIn(db, { email: trainer.email, password: "password123", client: "10.9.1.4" })).resolves.toMatchObject({ id: trainer.id });
  });
});
