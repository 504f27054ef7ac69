import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { provideDeploymentScripts } from "./deployment-scripts";
import { createSqliteTemplates } from "./sqlite-templates";

declare module "vitest" {
  export interface ProvidedContext {
    sqliteTemplates: { migrated: string; seeded: string };
  }
}

/**
 * The SQLite project's setup: the run's template files (tests/support/sqlite-templates.ts) and
 * the scripts of a deployment (tests/support/deployment-scripts.ts), removed at its end.
 */
export default async function setup(project: TestProject) {
  process.env.FAST_PASSWORD_HASH = "true";
  const dir = path.resolve("tests/.tmp", `templates-${crypto.randomBytes(4).toString("hex")}`);
  project.provide("sqliteTemplates", await createSqliteTemplates(dir));
  const removeScripts = await provideDeploymentScripts(project);
  return () => {
    fs.rmSync(dir, { recursive: true, force: true });
    removeScripts();
  };
}
