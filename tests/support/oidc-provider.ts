/**
 * A real OpenID provider for the single sign-on tests: the certified `oidc-provider` package
 * on a port of this machine, with one test interaction in place of a login page. The interaction
 * asks for the email to sign in as, whether the provider has verified it, and the
 * authentication methods (`amr`) to report, so a test (or the browser journey) signs in as
 * whoever it needs. Consent is granted in the same step.
 *
 * Its signing key is the test's (a new RSA key unless one is given), so a test can restart the
 * provider with another key (a rotation) or sign tokens of its own with the provider's key.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Provider from "oidc-provider";

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export interface TestProvider {
  issuer: string;
  /** the private signing key in use (JWK with its kid) */
  key: crypto.JsonWebKey & { kid: string };
  stop(): Promise<void>;
}

/** An RSA signing key as a private JWK with a kid. */
export function newSigningKey(): crypto.JsonWebKey & { kid: string } {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: crypto.randomUUID(), alg: "RS256", use: "sig" } as crypto.JsonWebKey & { kid: string };
}

interface Person {
  email: string;
  email_verified: boolean;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

/** Starts a provider on `port` (0: any free port) with these clients; `key` keeps or rotates its signing key. */
export async function startTestProvider(options: { port: number; clients: TestClient[]; key?: crypto.JsonWebKey & { kid: string } }): Promise<TestProvider> {
  const key = options.key ?? newSigningKey();
  const people = new Map<string, Person>();
  let issuer = `http://localhost:${options.port}`;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  issuer = `http://localhost:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: options.clients.map((c) => ({
      ...c,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    jwks: { keys: [key as never] },
    cookies: { keys: ["test-provider-cookie-key"] },
    // amr is not among the default claims: in the openid scope, every ID token carries the methods of the interaction
    claims: { openid: ["sub", "amr"], email: ["email", "email_verified"], acr: null, auth_time: null, sid: null },
    // the email and its verification in the ID token itself, as Google and Okta give them
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, id) => {
      const person = people.get(id);
      if (!person) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: person.email, email_verified: person.email_verified }) };
    },
  });
  provider.on("server_error", (_ctx, error) => console.error("test provider:", error));
  const handle = provider.callback();

  server.on("request", (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(url.pathname);
    if (!match) return void handle(req, res);
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (req.method === "GET") {
          res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          res.end(`<!doctype html><html lang="en"><head><title>Test provider</title></head><body><main>
<h1>Test identity provider</h1>
<form method="post" action="/interaction/${escape(details.uid)}/login">
<label>Email <input name="email" type="email" required></label>
<label><input name="email_verified" type="checkbox" value="true" checked> Email verified</label>
<label>Methods (amr) <input name="amr" value="pwd mfa"></label>
<button type="submit">Continue</button>
</form></main></body></html>`);
          return;
        }
        const form = await readForm(req);
        const email = (form.get("email") ?? "").trim().toLowerCase();
        // the account's id at the provider is derived from the email, as a directory's object id would be
        const accountId = crypto.createHash("sha256").update(email).digest("hex").slice(0, 24);
        people.set(accountId, { email, email_verified: form.get("email_verified") === "true" });
        const amr = (form.get("amr") ?? "").split(/[\s,]+/).filter(Boolean);
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope ?? "openid"));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId, amr }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.writeHead(400, { "Content-Type": "text/plain" });
        res.end(String(error));
      }
    })();
  });

  return {
    issuer,
    key,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        // a moment for clients to see their kept-alive sockets closed before a provider starts on the port again
        server.close(() => setTimeout(resolve, 200));
      }),
  };
}

/** Signs a JWT (RS256) with a private JWK: a test's own ID token, with the provider's key or another. */
export function signJwt(key: crypto.JsonWebKey & { kid: string }, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const input = `${part({ alg: "RS256", typ: "JWT", kid: key.kid })}.${part(claims)}`;
  const signature = crypto.sign("sha256", Buffer.from(input), crypto.createPrivateKey({ key, format: "jwk" }));
  return `${input}.${signature.toString("base64url")}`;
}

/** Reads a JWT's claims without checking it (to build a changed copy). */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

/**
 * Walks a sign-in through the provider without a browser: the authorisation URL, the test
 * interaction (as `who`), and back; returns the callback URL the browser would be sent to.
 */
export async function signInAtProvider(authorizationUrl: URL, who: { email: string; emailVerified?: boolean; amr?: string[] }): Promise<URL> {
  const jar = new Map<string, string>();
  const send = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string>), Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return response;
  };
  let response = await send(authorizationUrl.href);
  let location = new URL(response.headers.get("location")!, authorizationUrl);
  if (!location.pathname.startsWith("/interaction/")) throw new Error(`the provider did not ask who signs in: ${response.status} ${location}`);
  const body = new URLSearchParams({ email: who.email, amr: (who.amr ?? ["pwd"]).join(" ") });
  if (who.emailVerified !== false) body.set("email_verified", "true");
  response = await send(`${location.origin}${location.pathname}/login`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  for (let hops = 0; hops < 5; hops += 1) {
    location = new URL(response.headers.get("location")!, location);
    if (location.origin !== authorizationUrl.origin) return location;
    response = await send(location.href);
  }
  throw new Error("the provider did not send the browser back");
}
