import * as oidc from "openid-client";
import { env, isLoopbackHost, type Settings } from "~/env.server";

/**
 * Staff single sign-on with the organisation's OpenID provider (docs/decisions/038-single-sign-on.md):
 * the authorisation code flow with PKCE, state and nonce, through `openid-client`. The library
 * checks the ID token's issuer, audience, expiry and nonce; the signature is checked against the
 * provider's published keys too (enableNonRepudiationChecks: without it a code-flow ID token's
 * signature is taken on trust of the TLS channel). Who may then sign in is decided by
 * app/auth/provider-sign-in.server.ts.
 */

export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** The provider this portal is registered with, or null when single sign-on is not configured. */
export function providerSettings(
  settings: Pick<Settings, "OIDC_ISSUER" | "OIDC_CLIENT_ID" | "OIDC_CLIENT_SECRET" | "OIDC_PROVIDER_NAME"> = env(),
): ProviderSettings | null {
  if (!settings.OIDC_ISSUER || !settings.OIDC_CLIENT_ID || !settings.OIDC_CLIENT_SECRET) return null;
  return { issuer: settings.OIDC_ISSUER, clientId: settings.OIDC_CLIENT_ID, clientSecret: settings.OIDC_CLIENT_SECRET, name: settings.OIDC_PROVIDER_NAME };
}

/** Where the provider sends the browser back to (registered with the provider as the redirect URI). */
export const CALLBACK_PATH = "/login/sso/callback";

/** Plain http is allowed for a provider on this machine only (development and the test suite). */
function httpAllowed(issuer: string): boolean {
  const url = new URL(issuer);
  return url.protocol === "http:" && isLoopbackHost(url.hostname);
}

/** How long the provider's discovery document is kept before it is read again. */
const DISCOVERY_MINUTES = 60;

interface ProviderEntry {
  key: string;
  /** the discovery document (plain data: each sign-in makes its own Configuration from it) */
  metadata: oidc.ServerMetadata;
  readAt: number;
  /** the provider's keys as last fetched, shared by every sign-in (the library refetches after 5 minutes) */
  jwks?: oidc.ExportedJWKSCache;
}

let cached: ProviderEntry | undefined;

/** A fetch the tests put between the portal and the provider (a tampered answer); production uses the global one. */
export type ProviderFetch = (url: string, init: RequestInit) => Promise<Response>;

async function providerEntry(settings: ProviderSettings, now = Date.now()): Promise<ProviderEntry> {
  const key = `${settings.issuer}\0${settings.clientId}`;
  if (cached?.key === key && now - cached.readAt < DISCOVERY_MINUTES * 60_000) return cached;
  const config = await oidc.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
    execute: httpAllowed(settings.issuer) ? [oidc.allowInsecureRequests] : [],
    timeout: 10,
  });
  // serverMetadata() adds helper functions; the stored copy is data only
  cached = { key, metadata: JSON.parse(JSON.stringify(config.serverMetadata())) as oidc.ServerMetadata, readAt: now };
  return cached;
}

/** Forgets the discovery document and keys (tests start providers on the same address). */
export function forgetProvider(): void {
  cached = undefined;
}

function configuration(entry: ProviderEntry, settings: ProviderSettings, options: { fetch?: ProviderFetch; keys: boolean }): oidc.Configuration {
  const config = new oidc.Configuration(entry.metadata, settings.clientId, settings.clientSecret);
  if (httpAllowed(settings.issuer)) oidc.allowInsecureRequests(config);
  oidc.enableNonRepudiationChecks(config);
  if (options.keys && entry.jwks) oidc.setJwksCache(config, entry.jwks);
  if (options.fetch) config[oidc.customFetch] = options.fetch as oidc.CustomFetch;
  config.timeout = 10;
  return config;
}

function keepKeys(entry: ProviderEntry, config: oidc.Configuration): void {
  const jwks = oidc.getJwksCache(config);
  if (jwks) entry.jwks = jwks;
}

/** What a started sign-in keeps in the browser's short-lived signed cookie, and nowhere else. */
export interface ProviderSignInStart {
  state: string;
  nonce: string;
  verifier: string;
}

/** The provider's sign-in address for a new attempt, and the secrets the callback checks it with. */
export async function beginProviderSignIn(settings: ProviderSettings, redirectUri: string): Promise<{ url: URL; start: ProviderSignInStart }> {
  const entry = await providerEntry(settings);
  const config = configuration(entry, settings, { keys: true });
  const start = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid email profile",
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(start.verifier),
    code_challenge_method: "S256",
    state: start.state,
    nonce: start.nonce,
  });
  return { url, start };
}

/** Who the provider says signed in: the claims the portal decides on, nothing else. */
export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** authentication methods the provider reports (RFC 8176): a second factor among them satisfies the two-step rule */
  amr: string[];
}

/** Why a provider's answer was not accepted, in the library's code (for the audit trail, never shown). */
export class ProviderAnswerRefused extends Error {
  constructor(
    readonly code: string,
    cause: unknown,
  ) {
    super(`The identity provider's answer was refused (${code})`, { cause });
    this.name = "ProviderAnswerRefused";
  }
}

const KEY_NOT_FOUND = "OAUTH_KEY_SELECTION_FAILED";

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown; error?: unknown })?.code ?? (error as { error?: unknown })?.error;
  return typeof code === "string" ? code.slice(0, 60) : "unknown";
}

/**
 * Redeems the callback's code (once: the provider refuses a second redemption) and checks the
 * answer: state, PKCE, the ID token's issuer, audience, expiry, nonce and signature. An ID token
 * signed with a key the portal has not seen (the provider rotated its keys) has the keys fetched
 * once more and the same answer checked again; a key still unknown is refused.
 */
export async function finishProviderSignIn(
  settings: ProviderSettings,
  input: { callbackUrl: URL; start: ProviderSignInStart; fetch?: ProviderFetch },
): Promise<ProviderIdentity> {
  const entry = await providerEntry(settings);
  const base: ProviderFetch = input.fetch ?? ((url, init) => fetch(url, init));
  const tokenEndpoint = entry.metadata.token_endpoint;
  let tokenAnswer: string | undefined;
  const capturing: ProviderFetch = async (url, init) => {
    const response = await base(url, init);
    if (url === tokenEndpoint && response.status === 200) tokenAnswer = await response.clone().text();
    return response;
  };
  const checks = { pkceCodeVerifier: input.start.verifier, expectedState: input.start.state, expectedNonce: input.start.nonce, idTokenExpected: true };
  let config = configuration(entry, settings, { fetch: capturing, keys: true });
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, checks);
  } catch (error) {
    if (errorCode(error) !== KEY_NOT_FOUND || tokenAnswer === undefined) throw new ProviderAnswerRefused(errorCode(error), error);
    // the same answer, checked again against the provider's keys fetched afresh
    const answer = tokenAnswer;
    const replay: ProviderFetch = async (url, init) =>
      url === tokenEndpoint ? new Response(answer, { status: 200, headers: { "Content-Type": "application/json" } }) : base(url, init);
    entry.jwks = undefined;
    config = configuration(entry, settings, { fetch: replay, keys: false });
    try {
      tokens = await oidc.authorizationCodeGrant(config, input.callbackUrl, checks);
    } catch (again) {
      throw new ProviderAnswerRefused(errorCode(again), again);
    }
  } finally {
    keepKeys(entry, config);
  }
  const claims = tokens.claims();
  if (!claims) throw new ProviderAnswerRefused("no_id_token", null);
  let email = typeof claims.email === "string" ? claims.email : null;
  let verified = claims.email_verified === true;
  if (email === null && tokens.access_token) {
    // providers that keep the email out of the ID token give it from userinfo, for the same subject
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
      email = typeof info.email === "string" ? info.email : null;
      verified = info.email_verified === true;
    } catch (error) {
      throw new ProviderAnswerRefused(errorCode(error), error);
    }
  }
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === "string").slice(0, 20) : [];
  return { subject: claims.sub, email, emailVerified: verified, amr };
}

/**
 * Authentication methods (RFC 8176) that are, or include, a second factor: "mfa" says so
 * outright; a one-time code, a hardware or software key held, biometrics and a code by text
 * or phone are something held or something one is, beyond a password.
 */
const SECOND_FACTOR_METHODS = new Set(["mfa", "otp", "hwk", "swk", "pop", "fpt", "face", "iris", "retina", "vbm", "sms", "tel", "sc"]);

/** Whether the provider's methods include a second factor (the portal's own second step is then skipped). */
export function reportsSecondFactor(amr: readonly string[]): boolean {
  return amr.some((method) => SECOND_FACTOR_METHODS.has(method.toLowerCase()));
}
