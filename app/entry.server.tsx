import crypto from "node:crypto";
import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import type { ReactElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { documentResponse } from "./http/compression.server";
import { applySecurityHeaders, inlineScriptHashes } from "./http/headers.server";
import { documentCacheControl, mayStoreDocument, storeDocument } from "./http/page-cache.server";
import { logRequest } from "./http/request-log.server";
import { NonceProvider } from "./utils/nonce";

/**
 * A render still waiting for data after this long is given up. Each render clears its timer
 * once it is complete: a pending timer keeps the whole render reachable for five seconds, and at
 * a few hundred pages a second that is enough garbage surviving young collections to cost more
 * than the rendering itself.
 */
const ABORT_DELAY = 5_000;

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
    return renderDocument(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, responseStatusCode).then(({ html, status }) => {
      responseHeaders.append("Vary", "Cookie");
      applySecurityHeaders(responseHeaders, { hashes: inlineScriptHashes(html.toString("utf8")) });
      storeDocument(request, status, responseHeaders, html);
      logRequest(request, status);
      return documentResponse(request, status, responseHeaders, html);
    });
  }
  // A page for one visitor: its inline scripts carry this render's nonce.
  const nonce = crypto.randomBytes(16).toString("base64");
  return renderDocument(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceProvider>,
    responseStatusCode,
    nonce,
  ).then(({ html, status }) => {
    applySecurityHeaders(responseHeaders, { nonce });
    logRequest(request, status);
    return documentResponse(request, status, responseHeaders, html);
  });
}

/**
 * Renders the whole document, then hands it over to be compressed once (compression.server.ts
 * says why documents are not streamed through the compression middleware). A render that
 * fails before its shell is complete rejects, and Remix answers with its error page (and logs
 * it); one that fails after it is logged here and answered with status 500.
 */
function renderDocument(element: ReactElement, status: number, nonce?: string): Promise<{ html: Buffer; status: number }> {
  return new Promise((resolve, reject) => {
    // set once the render has started (React calls back no sooner than the next tick)
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        callback();
      },
      final(callback) {
        resolve({ html: Buffer.concat(chunks), status });
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        clearTimeout(deadline);
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(deadline);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) console.error(error);
      },
    });
    deadline = setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  logRequest(request, response.status);
  return response;
};
