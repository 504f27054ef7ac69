/**
 * npm run build: the production build, in BUILD_DIR (default `build`). Remix builds the app
 * (`index.js`, the server, and `client/`, the browser's files); then the scripts that run
 * against a deployment beside it are bundled into `scripts/` there: `prepare` (npm start's
 * migrations, seed and start-up checks), `audit-verify` (npm run audit:verify) and
 * `admin-create` (npm run admin:create). They ship with the server they belong to, and start
 * with plain Node as the server does: tsx, which runs TypeScript from source, is a development
 * tool, and costs each start several times the CPU (docs/decisions/026-test-time.md, "The
 * scripts of a deployment are built").
 *
 *   node scripts/build.mjs   (npm run build; BUILD_DIR names where)
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The scripts of a deployment, each `scripts/NAME.ts` built to `BUILD_DIR/scripts/NAME.mjs`. */
export const DEPLOYMENT_SCRIPTS = ["prepare", "audit-verify", "admin-create"];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Where the build puts a script of a deployment. */
export const builtScript = (buildDir, name) => path.resolve(buildDir, "scripts", `${name}.mjs`);

/** Whether BUILD_DIR holds a whole build: the server and every script of a deployment. */
export const hasBuild = (buildDir) =>
  [path.join(buildDir, "index.js"), ...DEPLOYMENT_SCRIPTS.map((name) => builtScript(buildDir, name))].every((file) => fs.existsSync(file));

/**
 * Builds into BUILD_DIR when it holds no whole build (npm start, npm run audit:verify and the
 * test servers start from one); exits with the build's code when it fails.
 */
export function ensureBuild(buildDir, env = process.env) {
  if (hasBuild(buildDir)) return;
  console.log("No build found: building…");
  const result = spawnSync(process.execPath, [fileURLToPath(import.meta.url)], { stdio: "inherit", env: { ...env, BUILD_DIR: buildDir } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Bundles the scripts of a deployment into `outDir`. The packages Remix bundles into the
 * server (remix.config.js, serverDependenciesToBundle: hundreds of small modules each) are
 * bundled here too, for the same reason; every other package, and Node's own modules, are
 * imported from node_modules as the server imports them.
 */
export async function bundleScripts(outDir) {
  const [{ build }, { default: remixConfig }] = await Promise.all([import("esbuild"), import(pathToFileURL(path.join(root, "remix.config.js")).href)]);
  const inline = remixConfig.serverDependenciesToBundle;
  const packagesFromNodeModules = {
    name: "packages-from-node-modules",
    setup(builder) {
      // a bare name: a package or a Node module (paths, `~/` and `#db/` go to the bundler)
      builder.onResolve({ filter: /^[^./~#]/ }, ({ path: name }) =>
        inline.some((pattern) => pattern.test(name)) ? undefined : { path: name, external: true },
      );
    },
  };
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(DEPLOYMENT_SCRIPTS.map((name) => [name, `scripts/${name}.ts`])),
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    plugins: [packagesFromNodeModules],
    logLevel: "warning",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const remix = spawnSync(path.join(root, "node_modules", ".bin", "remix"), ["build"], { stdio: "inherit" });
  if (remix.status !== 0) process.exit(remix.status ?? 1);
  await bundleScripts(path.resolve(process.env.BUILD_DIR || "build", "scripts"));
}
