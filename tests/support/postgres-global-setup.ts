import crypto from "node:crypto";
import type { TestProject } from "vitest/node";
import { provideDeploymentScripts } from "./deployment-scripts";
import { createTemplates, dropRunDatabases } from "./postgres-test-server";

declare module "vitest" {
  export interface ProvidedContext {
    postgresRun: string;
    postgresTemplates: { migrated: string; seeded: string };
  }
}

/**
 * The PostgreSQL project's setup: template databases for the run, dropped at its end, and the
 * scripts of a deployment (tests/support/deployment-scripts.ts), removed then.
 */
export default async function setup(project: TestProject) {
  process.env.FAST_PASSWORD_HASH = "true";
  const run = crypto.randomBytes(4).toString("hex");
  project.provide("postgresRun", run);
  project.provide("postgresTemplates", await createTemplates(run));
  const removeScripts = await provideDeploymentScripts(project);
  return async () => {
    await dropRunDatabases(run);
    removeScripts();
  };
}
