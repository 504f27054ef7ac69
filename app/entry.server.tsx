import crypto from "node:crypto";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { documentResponse } from "./http/compression.server";
import { withRetryAfter } from "./http/gate.server";
import { applySecurityHeaders, inlineScriptHashes } from "./http/headers.server";
import { documentCacheControl, mayStoreDocument, storeDocument } from "./http/page-cache.server";
import { renderDocument } from "./http/render-document.server";
import { logRequest } from "./http/request-log.server";
import { manifestForPath } from "./http/route-pruning.server";
import { pageStylesText } from "./http/page-styles.server";
import { NonceProvider } from "./utils/nonce";
import { StylesProvider } from "./utils/page-styles";

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(request));
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // the error page of a database that is away (the gate's 503) says when to come back
  withRetryAfter(responseStatusCode, responseHeaders);
  // An anonymous page the page cache may keep has its inline scripts allowed by their hashes (a
  // nonce would be shared by everyone served the stored copy); a page for one visitor, by this
  // render's nonce.
  // the routes this path can reach, not every route of the app (route-pruning.server.ts); set on
  // the context itself, which Remix keeps to render an error boundary with if this render fails
  remixContext.manifest = manifestForPath(remixContext.manifest, remixContext.staticHandlerContext.location.pathname);
  const stored = mayStoreDocument(request);
  const nonce = stored ? undefined : crypto.randomBytes(16).toString("base64");
  const remix = (
    <StylesProvider value={pageStylesText()}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </StylesProvider>
  );
  // a render still waiting on data after the stream's own timeout is cut off
  const html = await renderDocument(nonce ? <NonceProvider value={nonce}>{remix}</NonceProvider> : remix, streamTimeout + 1_000);
  if (stored) responseHeaders.append("Vary", "Cookie");
  applySecurityHeaders(responseHeaders, nonce ? { nonce } : { hashes: inlineScriptHashes(html) });
  const body = Buffer.from(html);
  if (stored) storeDocument(request, responseStatusCode, responseHeaders, body);
  logRequest(request, responseStatusCode);
  return documentResponse(request, responseStatusCode, responseHeaders, body);
}

/** How long a loader's promise may keep a document's data stream open (Remix reads this export). */
export const streamTimeout = 5_000;

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  withRetryAfter(response.status, response.headers);
  logRequest(request, response.status);
  return response;
};
