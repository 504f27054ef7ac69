/**
 * One worker of scripts/serve.mjs: remix-serve itself, listening on the port the cluster shares,
 * and the background runner (app/jobs/), which this is the one place to start: the server build
 * exports startJobs and stopJobs, and importing it starts nothing.
 *
 *   node scripts/serve-worker.mjs build/index.js   (also on its own: one process, no cluster)
 *
 * Draining: on SIGTERM (or SIGINT) remix-serve closes its server, which stops accepting and
 * closes once the requests it holds are answered, and the runner stops: no new job or send
 * starts, the send in progress is finished and recorded. The IPC channel to the primary would
 * keep the process alive after that, so it stops counting: the worker exits as soon as its last
 * request is answered and its last send recorded (the primary kills whatever is still running
 * after its drain time). A primary that dies closes the channel, so no worker outlives it.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const buildArg = process.argv[2] ?? path.join(process.env.BUILD_DIR || "build", "index.js");
const buildPath = path.resolve(buildArg);
// remix-serve imports the build under this URL (a timestamp against its import cache); importing
// the same URL here gets the same module, so the server and the runner share one build
const buildUrl = `${pathToFileURL(buildPath).href}?t=${fs.statSync(buildPath).mtimeMs}`;

let build;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    process.channel?.unref();
    void build?.stopJobs?.();
  });
}
process.on("disconnect", () => process.exit(0));
process.argv = [process.argv[0], "remix-serve", buildArg];
await import("@remix-run/serve/dist/cli.js");
build = await import(buildUrl);
build.startJobs?.();
