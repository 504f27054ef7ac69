import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import type { TestProject } from "vitest/node";
import { bundleScripts, DEPLOYMENT_SCRIPTS } from "../../scripts/build.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    deploymentScripts: string;
  }
}

/**
 * A project's global setup calls this: the scripts of a deployment as the build makes them
 * (scripts/build.mjs), bundled from today's source once per run into a directory under
 * tests/.tmp (inside the repository, so their packages resolve from node_modules as the
 * build's do). Returns what removes them at the run's end.
 */
export async function provideDeploymentScripts(project: TestProject): Promise<() => void> {
  const dir = path.resolve("tests/.tmp", `deployment-scripts-${crypto.randomBytes(4).toString("hex")}`);
  await bundleScripts(dir);
  project.provide("deploymentScripts", dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

/** A script of a deployment as npm start, `npm run audit:verify` or `npm run admin:create` runs it: its file in the run's bundle. */
export function deploymentScript(name: (typeof DEPLOYMENT_SCRIPTS)[number]): string {
  return path.join(inject("deploymentScripts"), `${name}.mjs`);
}
