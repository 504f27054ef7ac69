import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const include = ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "scripts/**/*.test.ts", "tests/security/**/*.test.ts", "eslint.config.test.ts"];
const env = {
  FAST_PASSWORD_HASH: "true",
  LOG_LEVEL: "silent",
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
  TWO_STEP_KEY: "5e".repeat(32),
  AUDIT_KEY: "a7".repeat(32),
};

/** The test files that run on a database (they take one from tests/support/test-db). */
function databaseTestFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name) && fs.readFileSync(file, "utf8").includes("createTestDb")) found.push(file);
    }
  };
  for (const dir of ["app", "db", "scripts", "tests/security"]) walk(dir);
  return found.sort();
}

/**
 * Every test runs on SQLite. When TEST_DATABASE_URL names a PostgreSQL server, the tests that
 * use a database run on PostgreSQL too, as a second project, each file in its own database.
 */
const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: "sqlite", include, env, globalSetup: ["tests/support/sqlite-global-setup.ts"] } },
];
if (process.env.TEST_DATABASE_URL) {
  projects.push({
    extends: true,
    test: {
      name: "postgres",
      include: databaseTestFiles(),
      env: { ...env, TEST_DIALECT: "postgres" },
      globalSetup: ["tests/support/postgres-global-setup.ts"],
    },
  });
}

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve("app"),
      "#db": path.resolve("db"),
      "#migrations": path.resolve("migrations"),
    },
  },
  test: {
    environment: "node",
    pool: "forks",
    // Vitest's default for a run is one worker fewer than the cores: one worker on a two-core
    // machine, which leaves a core idle while a file waits on fsync, PostgreSQL or a child
    // process (docs/decisions/026). VITEST_MAX_WORKERS overrides.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || Math.max(2, os.availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects,
  },
});
