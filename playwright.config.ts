import fs from "node:fs";
import { defineConfig } from "@playwright/test";

/**
 * Every journey runs on SQLite with JavaScript (toasts, no reloads), and every one that sends a
 * form runs again without (plain forms, messages in the page). When TEST_DATABASE_URL names a
 * PostgreSQL server, the portals' journeys run a third time, with JavaScript, against a second
 * server on PostgreSQL: the dialect lives on the server, so JavaScript on and off need not be
 * crossed with it (docs/decisions/007).
 * Each server is the production build on a database of its own. E2E_PORT and BUILD_DIR let
 * several runs share a machine.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
/**
 * The test browser: Debian's headless shell when installed (.ci/run installs it), which renders
 * the same Blink with none of the desktop browser around it: the suite takes half the CPU time it
 * takes on the full browser. E2E_CHROMIUM_PATH overrides; CHROMIUM_PATH (the browser the server
 * renders certificates with) is the fallback.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = process.env.E2E_CHROMIUM_PATH ?? (fs.existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : (process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"));

const postgresPort = port + 100;
const postgresBaseURL = `http://localhost:${postgresPort}`;
const postgresDatabaseUrl = process.env.TEST_DATABASE_URL ? databaseOnServer(process.env.TEST_DATABASE_URL, `e2e_${postgresPort}`) : undefined;

function databaseOnServer(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Staff single sign-on: the portal's servers know the test OpenID provider Playwright starts
 * beside them (tests/e2e/oidc-provider-server.ts); only sso.spec.ts signs in with it, the other
 * journeys only see its button on /login.
 */
const oidcPort = port + 5;
const oidcEnv = {
  OIDC_ISSUER: `http://localhost:${oidcPort}`,
  OIDC_CLIENT_ID: "portal",
  OIDC_CLIENT_SECRET: "e2e-oidc-secret-e2e-oidc-secret",
  OIDC_PROVIDER_NAME: "Test IdP",
};

/**
 * Webhooks: the journeys' receivers listen on this machine, so the servers let endpoints name
 * loopback and private addresses (NODE_ENV is production there, where loopback is otherwise
 * refused). The model's tests keep the refusals without it (docs/decisions/039-webhooks.md).
 */
const serverEnv = { ...oidcEnv, WEBHOOKS_ALLOW_PRIVATE: "true" };

const POSTGRES_SPECS = [
  "admin",
  "audit-checkpoint",
  "avetmiss",
  "certificate-revoke",
  "certificates",
  "classes",
  "employer-ids",
  "hrw",
  "hrw-states",
  "learner",
  "learner-documents",
  "repeat-post",
  "student",
  "trainer",
  "trainer-privacy",
  "usi-certificates",
  "walk",
  "webhooks",
].map((name) => `${name}.spec.ts`);

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  // The suite waits on the server and browser more than it computes: three workers keep two
  // cores busy. E2E_WORKERS overrides (helpers running one spec use 1).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "off",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--no-first-run"],
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, metadata: { port } },
    // the journeys that send a form: one that only reads pages and follows links (NO_FORM in
    // tests/e2e/fixtures.ts) loads the server's own answers, which the no-JavaScript page walk
    // loads on every page (docs/decisions/026, "The no-JavaScript project sends forms")
    { name: "no-js", use: { javaScriptEnabled: false }, grepInvert: /@no-form/, metadata: { port } },
    ...(postgresDatabaseUrl
      ? [
          {
            name: "postgres",
            // the portals' journeys, which write through every model; the public pages, sign-in,
            // password reset and the API run the same SQL on SQLite here and on both dialects in
            // vitest (docs/decisions/007, "What CI runs on PostgreSQL")
            testMatch: POSTGRES_SPECS,
            use: { javaScriptEnabled: true, baseURL: postgresBaseURL },
            metadata: { port: postgresPort, databaseUrl: postgresDatabaseUrl },
          },
        ]
      : []),
  ],
  // Playwright starts these one after the other, so the second reuses the first one's build.
  webServer: [
    {
      command: "node node_modules/tsx/dist/cli.mjs tests/e2e/oidc-provider-server.ts",
      url: `http://localhost:${oidcPort}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { OIDC_PORT: String(oidcPort), PORTAL_ORIGINS: [baseURL, postgresBaseURL].join(",") },
    },
    {
      command: "node tests/e2e/server.mjs",
      url: `${baseURL}/login`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { E2E_PORT: String(port), ...serverEnv },
    },
    ...(postgresDatabaseUrl
      ? [
          {
            command: "node tests/e2e/server.mjs",
            url: `${postgresBaseURL}/login`,
            timeout: 240_000,
            reuseExistingServer: false,
            stdout: "ignore" as const,
            stderr: "pipe" as const,
            env: { E2E_PORT: String(postgresPort), E2E_DATABASE_URL: postgresDatabaseUrl, E2E_SKIP_BUILD: "1", ...serverEnv },
          },
        ]
      : []),
  ],
});
