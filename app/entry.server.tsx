import crypto from "node:crypto";
import { PassThrough, Transform } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { requestContext } from "./auth/request-context.server";
import { ANONYMOUS_CACHE_CONTROL, documentCacheControl, rememberDocument } from "./page-cache.server";
import { applySecurityHeaders } from "./security.server";
import { logLine } from "./utils/log.server";
import { NonceProvider } from "./utils/nonce";

const ABORT_DELAY = 5_000;

function logRequest(request: Request, status: number) {
  const ctx = requestContext();
  const started = ctx?.started;
  logLine({
    method: request.method,
    path: new URL(request.url).pathname,
    status,
    ms: started ? Date.now() - started : undefined,
    user: ctx?.userId ?? null,
  });
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const nonce = crypto.randomBytes(16).toString("base64");
  const bot = isbot(request.headers.get("user-agent") || "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          applySecurityHeaders(responseHeaders, nonce);
          // Anonymous landing/catalogue pages are shared-cacheable and kept for the page cache;
          // everything else (signed in, flash) is private.
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(request));
          const keep = responseStatusCode === 200 && responseHeaders.get("Cache-Control") === ANONYMOUS_CACHE_CONTROL;
          if (keep) responseHeaders.append("Vary", "Cookie");
          const chunks: Buffer[] = [];
          const body = keep
            ? new Transform({
                transform(chunk: Buffer, _encoding, callback) {
                  chunks.push(Buffer.from(chunk));
                  callback(null, chunk);
                },
                flush(callback) {
                  if (responseStatusCode === 200) rememberDocument(request, responseStatusCode, responseHeaders, Buffer.concat(chunks));
                  callback();
                },
              })
            : new PassThrough();
          logRequest(request, responseStatusCode);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers);
  logRequest(request, response.status);
  return response;
};
