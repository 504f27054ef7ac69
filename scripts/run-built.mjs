/**
 * Runs a script of a deployment from the build, as npm start runs `prepare`: the code of the
 * server it ships with, in plain Node (scripts/build.mjs). `npm run audit:verify` is
 * `node scripts/run-built.mjs audit-verify`. Builds into BUILD_DIR first when it holds none; after
 * changing the code, `npm run build` brings the scripts up to date with the server.
 */
import { pathToFileURL } from "node:url";
import { builtScript, DEPLOYMENT_SCRIPTS, ensureBuild } from "./build.mjs";

const [name, ...args] = process.argv.slice(2);
if (!DEPLOYMENT_SCRIPTS.includes(name)) {
  console.error(`Usage: node scripts/run-built.mjs ${DEPLOYMENT_SCRIPTS.join("|")} [arguments]`);
  process.exit(2);
}
const buildDir = process.env.BUILD_DIR || "build";
ensureBuild(buildDir);
// the script reads its arguments as if Node had started it
process.argv = [process.argv[0], builtScript(buildDir, name), ...args];
await import(pathToFileURL(builtScript(buildDir, name)).href);
