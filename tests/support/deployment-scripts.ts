import fs from "node:fs";
import path from "node:path";
import { bundleScripts, DEPLOYMENT_SCRIPTS } from "../../scripts/build.mjs";

let bundled: Promise<string> | undefined;

/**
 * A script of a deployment as the build makes it (scripts/build.mjs) and npm start or
 * `npm run audit:verify` runs it: bundled from today's source once per test process, into a
 * directory of its own under tests/.tmp (inside the repository, so its packages resolve from
 * node_modules as the build's do), removed when the process ends.
 */
export async function deploymentScript(name: (typeof DEPLOYMENT_SCRIPTS)[number]): Promise<string> {
  bundled ??= (async () => {
    fs.mkdirSync(path.resolve("tests/.tmp"), { recursive: true });
    const dir = fs.mkdtempSync(path.resolve("tests/.tmp/deployment-scripts-"));
    process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
    await bundleScripts(dir);
    return dir;
  })();
  return path.join(await bundled, `${name}.mjs`);
}
