import { defineConfig } from "@playwright/test";

/**
 * Every journey runs twice: with JavaScript (toasts, no reloads) and without (plain forms,
 * messages in the page). The server is the production build on its own database file.
 * E2E_PORT and BUILD_DIR let several runs share a machine.
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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
    { name: "js", use: { javaScriptEnabled: true } },
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node tests/e2e/server.mjs",
    url: `${baseURL}/login`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: { E2E_PORT: String(port) },
  },
});
