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

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(request));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  if (mayStoreDocument(request)) {
    // An anonymous page the page cache may keep: its inline scripts are allowed by their hashes
    // (a nonce would be shared by everyone served the stored copy), known once it is complete.
    const html = renderDocument(<RemixServer context={remixContext} url={request.url} />);
    responseHeaders.append("Vary", "Cookie");
    applySecurityHeaders(responseHeaders, { hashes: inlineScriptHashes(html.toString("utf8")) });
    storeDocument(request, responseStatusCode, responseHeaders, html);
    logRequest(request, responseStatusCode);
    return documentResponse(request, responseStatusCode, responseHeaders, html);
  }
  // A page for one visitor: its inline scripts carry this render's nonce.
  const nonce = crypto.randomBytes(16).toString("base64");
  const html = renderDocument(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  applySecurityHeaders(responseHeaders, { nonce });
  logRequest(request, responseStatusCode);
  return documentResponse(request, responseStatusCode, responseHeaders, html);
}

/**
 * Renders the whole document in one synchronous pass, to be compressed once
 * (compression.server.ts says why documents are not streamed). No page suspends (the app has
 * no Suspense boundaries and no deferred data), so a streaming render would send the same
 * bytes, only later: it costs a stream, a writable and a timer per page, about 6% of the
 * signed-in catalogue's throughput (docs/decisions/006-performance.md). A render that throws
 * is answered by Remix with the route's error boundary, as a failed shell would be.
 */
function renderDocument(element: ReactElement): Buffer {
  return Buffer.from(`<!DOCTYPE html>${renderToString(element)}`);
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  logRequest(request, response.status);
  return response;
};
