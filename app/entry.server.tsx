import crypto from "node:crypto";
import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { documentResponse } from "./http/compression.server";
import { withRetryAfter } from "./http/gate.server";
import { applySecurityHeaders, inlineScriptHashes } from "./http/headers.server";
import { documentCacheControl, mayStoreDocument, storeDocument } from "./http/page-cache.server";
import { logRequest } from "./http/request-log.server";
import { manifestForPath } from "./http/route-pruning.server";
import { NonceProvider } from "./utils/nonce";

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
  const remix = <RemixServer context={remixContext} url={request.url} nonce={nonce} />;
  const html = await renderDocument(nonce ? <NonceProvider value={nonce}>{remix}</NonceProvider> : remix);
  if (stored) responseHeaders.append("Vary", "Cookie");
  applySecurityHeaders(responseHeaders, nonce ? { nonce } : { hashes: inlineScriptHashes(html) });
  const body = Buffer.from(html);
  if (stored) storeDocument(request, responseStatusCode, responseHeaders, body);
  logRequest(request, responseStatusCode);
  return documentResponse(request, responseStatusCode, responseHeaders, body);
}

/** How long a loader's promise may keep a document's data stream open (Remix reads this export). */
export const streamTimeout = 5_000;

/**
 * Renders the whole document, to be compressed once (compression.server.ts says why documents
 * are not streamed). Remix sends a page's loader data as a stream of inline scripts that React
 * renders inside a Suspense boundary, so a one-pass renderToString would leave them out: the
 * streaming renderer runs, and its output is collected when everything is ready. A shell that
 * fails rejects, and Remix answers with the route's error boundary.
 */
function renderDocument(element: ReactElement): Promise<string> {
  return new Promise((resolve, reject) => {
    // set once the stream exists (its abort is what the timer calls); read by the callbacks
    const deadline: { timer?: NodeJS.Timeout } = {};
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(deadline.timer);
        resolve(`<!DOCTYPE html>${Buffer.concat(chunks).toString("utf8")}`);
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(element, {
      onAllReady: () => pipe(sink),
      onShellError: (error) => {
        clearTimeout(deadline.timer);
        reject(error);
      },
    });
    // a render still waiting on data after the stream's own timeout is cut off
    deadline.timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  withRetryAfter(response.status, response.headers);
  logRequest(request, response.status);
  return response;
};
