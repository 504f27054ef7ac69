import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

const env = {
  FAST_PASSWORD_HASH: "true",
  LOG_LEVEL: "silent",
  SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
  TWO_STEP_KEY: "5e".repeat(32),
  AUDIT_KEY: "a7".repeat(32),
};

/** Every test file under `dirs`, as a path from the repository's root. */
function testFiles(dirs: string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.test\.tsx?$/.test(entry.name)) found.push(file);
    }
  };
  for (const dir of dirs) walk(dir);
  return found.sort();
}

/** The test files that run on a database (they take one from tests/support/test-db). */
function databaseTestFiles(): string[] {
  return testFiles(["app", "db", "scripts", "tests/security"]).filter((file) => fs.readFileSync(file, "utf8").includes("createTestDb"));
}

/**
 * The files that change what the process holds for the files after them: the environment
 * (process.env), a module mocked, the clock faked, a global replaced. Each runs in a process of
 * its own (isolate); every other file shares its worker's loaded modules with the files before
 * it, which spares each file loading the app again: the import step was 36 % of the run
 * (docs/decisions/026). A new file that changes the environment lands here by itself.
 */
const CHANGES_THE_PROCESS =
  /process\.env(\.[A-Za-z_]+|\[[^\]]+\])\s*=(?!=)|delete process\.env|Object\.assign\(process\.env|vi\.(mock|doMock|useFakeTimers|stubEnv|stubGlobal|resetModules)\b|globalThis\.[A-Za-z_]+\s*=(?!=)/;
function isolatedFiles(files: string[]): string[] {
  return files.filter((file) => CHANGES_THE_PROCESS.test(fs.readFileSync(file, "utf8")));
}

/**
 * Every test runs on SQLite. When TEST_DATABASE_URL names a PostgreSQL server, the tests that
 * use a database run on PostgreSQL too, each file in its own database. Each dialect is two
 * projects: the files that change the process, each in its own ("own process"), and the rest
 * sharing their worker's loaded modules (see CHANGES_THE_PROCESS).
 */
const allFiles = testFiles(["app", "db", "scripts", "tests/security"]).concat("eslint.config.test.ts");
function split(name: string, files: string[], test: TestProjectInlineConfiguration["test"]): TestProjectInlineConfiguration[] {
  const own = isolatedFiles(files);
  const shared = files.filter((file) => !own.includes(file));
  return [
    { extends: true, test: { ...test, name, include: shared, isolate: false } },
    { extends: true, test: { ...test, name: `${name} (own process)`, include: own, isolate: true } },
  ];
}
const projects: TestProjectInlineConfiguration[] = split("sqlite", allFiles, { env, globalSetup: ["tests/support/sqlite-global-setup.ts"] });
if (process.env.TEST_DATABASE_URL) {
  projects.push(
    ...split("postgres", databaseTestFiles(), { env: { ...env, TEST_DIALECT: "postgres" }, globalSetup: ["tests/support/postgres-global-setup.ts"] }),
  );
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
