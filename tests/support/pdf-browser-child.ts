/**
 * A stand-in server for browser-lifecycle tests (browser-lifecycle.server.test.ts): like
 * remix-serve it closes its HTTP server on SIGTERM, then renders once and reports the
 * Chromium process id.
 */
import http from "node:http";
import { currentBrowserForTests, htmlToPdf } from "../../app/pdf/browser.server";

const server = http.createServer((_req, res) => res.end("ok"));
server.listen(0, "127.0.0.1");
process.once("SIGTERM", () => server.close());
await htmlToPdf("<!DOCTYPE html><p>ready</p>");
process.stdout.write(`chromium ${currentBrowserForTests()!.process()!.pid}\n`);
