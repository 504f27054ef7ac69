import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const databaseUrl = z.string().refine((v) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(v), "must be file:PATH or postgres://…");

/** A 32-byte key as 64 hex characters (TWO_STEP_KEY, AUDIT_KEY). */
const hexKey = z.string().regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes), e.g. the output of openssl rand -hex 32");

const schema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("development"),
  PORT: z.coerce.number({ message: "must be a port number" }).int().min(1).max(65535).default(3000),
  DATABASE_URL: databaseUrl.default("file:./data/app.db"),
  /**
   * PostgreSQL with the role split: the table owner's URL, for the migrations (npm start,
   * db:migrate, admin:create, db:roles), while DATABASE_URL names the portal's own role.
   * Unset: migrations run on DATABASE_URL.
   */
  MIGRATION_DATABASE_URL: databaseUrl.optional(),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** The key authenticator secrets are encrypted with (AES-256-GCM): 32 bytes as 64 hex characters. */
  TWO_STEP_KEY: hexKey.optional(),
  /**
   * The key the audit trail's checkpoints are signed with (HMAC-SHA256): 32 bytes as 64 hex
   * characters. Never in the database, so whoever rewrites the trail there cannot sign it again.
   */
  AUDIT_KEY: hexKey.optional(),
  SEED_DEMO: booleanish.default(true),
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  RTO_NAME: z.string().min(1).default("Summit Crane & Rigging Training"),
  RTO_CODE: z.string().min(1).default("45678"),
  /** Test-only: scrypt cost is lowered so suites run fast. Never set on a real deployment. */
  FAST_PASSWORD_HASH: booleanish.default(false),
  /**
   * How many proxies in front append to X-Forwarded-For (the client is the entry that many hops
   * from the right); "true" means one, "false" or 0 none (the socket's address is the client).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2})$/, "must be a number of proxy hops (or true for one, false for none)")
    .transform((v) => (v === "true" ? 1 : v === "false" ? 0 : Number(v)))
    .default(0),
  SMTP_URL: z.string().url("must be a URL such as smtp://user:pass@host:587").optional(),
  APP_URL: z.string().url("must be a URL such as https://portal.example.com").optional(),
  /** The From of mail the portal sends, e.g. "Summit Training <no-reply@summit.example>". */
  MAIL_FROM: z.string().min(3).max(200).optional(),
  /** Where mail goes when SMTP_URL is unset (default data/outbox). */
  OUTBOX_DIR: z.string().optional(),
  /** "silent" stops the one-line-per-event log (test runs). */
  LOG_LEVEL: z.string().optional(),
  /** "off" stops the background runner in this process (app/jobs/): no jobs run and no mail leaves it. */
  JOBS: z.enum(["on", "off"], { message: "must be on or off" }).default("on"),
  /** How often the background runner wakes, in seconds (each job keeps its own period: app/jobs/runner.server.ts). */
  JOBS_INTERVAL_SECONDS: z.coerce.number({ message: "must be a number of seconds" }).int().min(1).max(3600).default(5),
  /** How long a worker's claim on a message lasts; keep it above the SMTP timeouts (app/mail/transport.server.ts). */
  MAIL_LEASE_SECONDS: z.coerce.number({ message: "must be a number of seconds" }).int().min(1).max(3600).default(120),
  /**
   * "true" lets webhook endpoints name private, link-local and loopback addresses (a test rig, an
   * internal CRM); otherwise only public addresses, and loopback outside production
   * (app/models/webhook-address.server.ts).
   */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(["true", "false"], { message: "must be true or false" }).default("false"),
  /** The interface remix-serve listens on (unset: every interface, unless demo accounts hold it to loopback). */
  HOST: z.string().max(255).optional(),
  /**
   * Where uploaded files (assessment evidence) are kept (app/files/store.server.ts):
   * file:DIRECTORY on this machine, or s3://bucket/prefix in an S3-compatible object store, which
   * several servers can share.
   */
  FILE_STORE: z
    .string()
    .regex(/^(file:.+|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?)$/, "must be file:DIRECTORY or s3://bucket/prefix")
    .default("file:./data/files"),
  /** The S3 endpoint for a store other than AWS (MinIO, R2, a local test server); unset: AWS's own. */
  S3_ENDPOINT: z.string().url("must be a URL such as https://s3.example.com").optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  /**
   * Staff single sign-on (app/auth/single-sign-on.server.ts): the OpenID provider's issuer URL,
   * and this portal's client id and secret there. All three, or none (no sign-in button).
   */
  OIDC_ISSUER: z.string().url("must be the provider's issuer URL, e.g. https://login.microsoftonline.com/TENANT/v2.0").optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  /** The name on the sign-in button ("Sign in with Microsoft"). */
  OIDC_PROVIDER_NAME: z.string().min(1).max(60).default("your organisation"),
});

export type Settings = z.infer<typeof schema>;
export type Env = Settings & { SESSION_SECRET: string; TWO_STEP_KEY: string; AUDIT_KEY: string };

const warned = new Set<string>();

/**
 * A secret generated once into a file under data/ readable by its owner only, for a
 * single-machine install (npm start); a deployment with several servers sets the variable so
 * they agree. 32 random bytes as hex.
 */
function readSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    const secret = fs.readFileSync(file, "utf8").trim();
    fs.chmodSync(file, 0o600); // one written by an older version may be world-readable
    return secret;
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** The variable's value, else the file's under data/ (with a warning in production, once per variable). */
function secretOrFile(value: string | undefined, variable: string, file: string, nodeEnv: string): string {
  if (value) return value;
  if (nodeEnv === "production" && !warned.has(variable)) {
    warned.add(variable);
    console.warn(`${variable} is not set: using the one generated under data/ (set it when running several servers).`);
  }
  return readSecret(path.resolve("data"), file);
}

/**
 * Reads and validates the environment without the secrets generated under data/; throws one
 * message naming every bad variable. For a tool that must not make up a key (audit:verify).
 */
export function parseSettings(source: Record<string, string | undefined> = process.env): Settings {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const oidc = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET].filter(Boolean).length;
  if (oidc !== 0 && oidc !== 3) {
    throw new Error("Invalid environment:\n  OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three for single sign-on, or none.");
  }
  if (env.SMTP_URL && !env.APP_URL) {
    throw new Error(
      "Invalid environment:\n  SMTP_URL is set but APP_URL is not: emailed links must name the portal's public address, never one taken from a request. Set APP_URL (e.g. https://portal.example.com).",
    );
  }
  return env;
}

/** Reads and validates the environment; throws one message naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const env = parseSettings(source);
  return {
    ...env,
    SESSION_SECRET: secretOrFile(env.SESSION_SECRET, "SESSION_SECRET", "session-secret", env.NODE_ENV),
    // never in the database: a copy of the database alone cannot produce second-step codes
    TWO_STEP_KEY: secretOrFile(env.TWO_STEP_KEY, "TWO_STEP_KEY", "two-step-key", env.NODE_ENV),
    // never in the database: whoever rewrites the audit trail there cannot sign a checkpoint
    AUDIT_KEY: secretOrFile(env.AUDIT_KEY, "AUDIT_KEY", "audit-key", env.NODE_ENV),
  };
}

/**
 * The audit key for a reader (npm run audit:verify): AUDIT_KEY, else the one generated under
 * data/ when it exists, else null. Never generates one: a new key could check nothing.
 */
export function existingAuditKey(settings: Settings): string | null {
  if (settings.AUDIT_KEY) return settings.AUDIT_KEY;
  try {
    const key = fs.readFileSync(path.resolve("data", "audit-key"), "utf8").trim();
    return hexKey.safeParse(key).success ? key : null;
  } catch {
    return null;
  }
}

const NAMES = Object.keys(schema.shape);
let cached: { values: string; env: Env } | undefined;
let fixed = false;

/**
 * The environment, read once per process, and again only when one of its variables has
 * changed since (tests switch the log level and the password cost while running).
 */
export function env(): Env {
  if (fixed && cached) return cached.env;
  const values = NAMES.map((name) => process.env[name] ?? "").join("\0");
  if (cached?.values !== values) cached = { values, env: parseEnv() };
  return cached.env;
}

/** The organisation the portal runs for, as every page, mail, report and register names it. */
export function organisation(): { name: string; code: string } {
  const { RTO_NAME: name, RTO_CODE: code } = env();
  return { name, code };
}

/**
 * A server's environment does not change while it runs: the server entry fixes it at start,
 * so the many env() calls of each request stop re-reading process.env (which crosses into
 * Node's C++ for every variable).
 */
export function fixEnv(): void {
  env();
  fixed = true;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Whether a host name (or a listening address, or a socket's address) is this machine itself:
 * a request addressed to it, or coming from it, can only come from here. The one loopback rule:
 * the demo lock (http/demo-lock.server.ts) and the links taken from a local request's origin
 * (utils/public-link.server.ts, the reset mail) all ask it.
 */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^::ffff:/, "");
  return LOOPBACK_HOSTS.has(name) || /^127(\.\d{1,3}){3}$/.test(name);
}
