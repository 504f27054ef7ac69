/**
 * One worker of scripts/serve.mjs: remix-serve itself, listening on the port the cluster shares.
 *
 * Draining: on SIGTERM (or SIGINT) remix-serve closes its server, which stops accepting and
 * closes once the requests it holds are answered. The IPC channel to the primary would keep
 * the process alive after that, so it stops counting: the worker exits as soon as its last
 * request is answered (the primary kills whatever is still running after its drain time).
 * A primary that dies closes the channel, so no worker outlives it.
 */
for (const signal of ["SIGTERM", "SIGINT"]) process.once(signal, () => process.channel?.unref());
process.on("disconnect", () => process.exit(0));
process.argv = [process.argv[0], "remix-serve", process.argv[2]];
await import("@remix-run/serve/dist/cli.js");
