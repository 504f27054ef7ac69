import crypto from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { documentResponse } from "./http/compression.server";
import { applySecurityHeaders, inlineScriptHashes } from "./http/headers.server";
import { documentCacheControl, mayStoreDocument, storeDocument } from "./http/page-cache.server";
import { logRequest } from "./http/request-log.server";
import { NonceProvider } from "./utils/nonce";
import { startClassJobs } from "./mail/class-schedule.server";

// the class jobs (waitlist offers, reminders, attendance alerts) run in every server process
startClassJobs();

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(request));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // An anonymous page the page cache may keep has its inline scripts allowed by their hashes (a
  // nonce would be shared by everyone served the stored copy); a page for one visitor, by this
  // render's nonce.
  const stored = mayStoreDocument(request);
  const nonce = stored ? undefined : crypto.randomBytes(16).toString("base64");
  const remix = <RemixServer context={remixContext} url={request.url} nonce={nonce} />;
  const html = renderDocument(nonce ? <NonceProvider value={nonce}>{remix}</NonceProvider> : remix);
  if (stored) responseHeaders.append("Vary", "Cookie");
  applySecurityHeaders(responseHeaders, nonce ? { nonce } : { hashes: inlineScriptHashes(html) });
  const body = Buffer.from(html);
  if (stored) storeDocument(request, responseStatusCode, responseHeaders, body);
  logRequest(request, responseStatusCode);
  return documentResponse(request, responseStatusCode, responseHeaders, body);
}

/**
 * Renders the whole document in one synchronous pass, to be compressed once
 * (compression.server.ts says why documents are not streamed). No page suspends (the app has
 * no Suspense boundaries and no deferred data), so a streaming render would send the same
 * bytes, only later: it costs a stream, a writable and a timer per page, about 6% of the
 * signed-in catalogue's throughput (docs/decisions/006-performance.md). A render that throws
 * is answered by Remix with the route's error boundary, as a failed shell would be.
 */
function renderDocument(element: ReactElement): string {
  return `<!DOCTYPE html>${renderToString(element)}`;
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  logRequest(request, response.status);
  return response;
};
