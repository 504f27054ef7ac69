import * as build from "@remix-run/dev/server-build";
import { getDb } from "~/db.server";
import { fixEnv } from "~/env.server";
import { sweepUploadLeftovers } from "~/files/intake.server";
import { logLine } from "~/utils/log.server";
import { lockDemoToLoopback, refuseOffLoopback } from "./demo-lock.server";
import { sendNoSniff } from "./headers.server";
import { installFrontDoor } from "./front-door.server";
import { gateRoutes, refuseAtTheGate } from "./gate.server";
import { answerFromPageCache } from "./page-cache.server";
import { answerRouteDiscovery } from "./route-discovery.server";
import { redactOutput } from "./redacted-output.server";
import { enterRequest } from "./request-context.server";
import { countRequestQueries } from "./query-count.server";
import { COUNTING_QUERIES } from "#db/query-count";
import { serveCompressedAsset } from "./static-assets.server";

/**
 * The server build remix-serve loads (the `server` entry of remix.config.js): Remix's own
 * build with the HTTP layer around it. Every request passes these steps, in this order
 * (docs/decisions/001-the-http-layer.md says why each sits where it does):
 *
 * 0. at start, before remix-serve listens: a database that still has demo accounts holds the
 *    server to loopback (demo-lock.server.ts), and upload directories left in the temporary
 *    folder by a process that is gone (killed mid-upload) are removed (app/files/intake.server.ts);
 * 1. front door (node:http, before express): the request's context is opened (socket address,
 *    start time: request-context.server.ts), found later from the request's own headers; while
 *    demo accounts exist, a request not from and to loopback is refused (421); every answer,
 *    static files included, is marked nosniff; the build's scripts and stylesheets go at brotli's
 *    best once compressed (static-assets.server.ts);
 * 2. front door: the gate refuses cross-site writes (403), declared bodies over 1 MB (413) and
 *    /api URLs that do not decode (400), before anything reads the body (gate.server.ts);
 * 3. front door: the page cache answers stored anonymous pages (page-cache.server.ts), and the
 *    browser's requests for the routes of a page's links get Remix's answer, with each path's
 *    matches worked out once (route-discovery.server.ts);
 * 4. remix-serve's express: compression, static files, the access log;
 * 5. Remix: every loader and action behind the gate (undeclared bodies cut at 1 MB; resource
 *    routes get headers, a request-log line and a JSON 500);
 * 6. app/entry.server.tsx: documents get the security headers and CSP (headers.server.ts), their
 *    Cache-Control and request-log line (request-log.server.ts), anonymous pages are stored, and
 *    each document is compressed whole, once (compression.server.ts), so step 4 passes it by.
 *
 * With QUERY_COUNT=1 (the query-growth check, never production) each request runs inside a tally
 * of its SQL statements and answers it in X-Query-Count (query-count.server.ts).
 *
 * Everything this process prints, remix-serve's access log included, has secrets redacted
 * (redacted-output.server.ts). The environment is read and checked once, here, at start.
 */
fixEnv();
redactOutput(process.stdout);
redactOutput(process.stderr);
await lockDemoToLoopback(getDb());
const swept = sweepUploadLeftovers();
if (swept > 0) logLine({ event: "upload-leftovers-removed", count: swept });
installFrontDoor(
  enterRequest,
  [refuseOffLoopback, sendNoSniff, serveCompressedAsset, refuseAtTheGate, answerFromPageCache, answerRouteDiscovery(build)],
  COUNTING_QUERIES ? countRequestQueries : undefined,
);

export * from "@remix-run/dev/server-build";
/**
 * The background runner (app/jobs/), exported for the server process to start once it serves
 * (scripts/serve-worker.mjs) and to stop when it drains: importing this build starts nothing.
 */
export { startJobs, stopJobs } from "~/jobs/runner.server";
export const routes = gateRoutes(build.routes);
