import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

const booleanish = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((v) => v === "true" || v === "1" || v === "yes");

const schema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("development"),
  PORT: z.coerce.number({ message: "must be a port number" }).int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default("file:./data/app.db")
    .refine((v) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(v), "must be file:PATH or postgres://…"),
  SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SEED_DEMO: booleanish.default(true),
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  RTO_NAME: z.string().min(1).default("Summit Crane & Rigging Training"),
  RTO_CODE: z.string().min(1).default("45678"),
  /** Test-only: scrypt cost is lowered so suites run fast. Never set on a real deployment. */
  FAST_PASSWORD_HASH: booleanish.default(false),
  /** Test-only: lets a test claim a client address (sign-in throttling is per client). */
  TRUST_PROXY: booleanish.default(false),
  SMTP_URL: z.string().url("must be a URL such as smtp://user:pass@host:587").optional(),
  APP_URL: z.string().url("must be a URL such as https://portal.example.com").optional(),
  /** The From of mail the portal sends, e.g. "Summit Training <no-reply@summit.example>". */
  MAIL_FROM: z.string().min(3).max(200).optional(),
});

export type Env = z.infer<typeof schema> & { SESSION_SECRET: string };

let warned = false;

function readSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("hex");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

/** Reads and validates the environment; throws one message naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = result.data;
  let secret = env.SESSION_SECRET;
  if (!secret) {
    // A single-machine install (npm start) keeps a generated secret under data/; a deployment
    // with several servers must set SESSION_SECRET so they agree.
    if (env.NODE_ENV === "production" && !warned) {
      warned = true;
      console.warn("SESSION_SECRET is not set: using the secret generated under data/ (set it when running several servers).");
    }
    secret = readSecret(path.resolve("data"));
  }
  return { ...env, SESSION_SECRET: secret };
}

let cached: Env | undefined;

/** The environment, read once per process. */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}
