import crypto from "node:crypto";
import { Transform } from "node:stream";
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

/**
 * React writes a page in many small pieces, and Remix flushes the compressor after each piece
 * it passes on, which leaves gzip little to work with (a 260 KB page came out at 100 KB). This
 * joins the pieces written in the same tick (or up to 64 KB) into one, so the page compresses
 * as a whole while Suspense boundaries still stream. `onChunk` sees every byte; `onEnd` runs
 * once the page is complete.
 */
function coalescingStream(onChunk?: (chunk: Buffer) => void, onEnd?: () => void): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let scheduled = false;
  const release = (stream: Transform) => {
    if (size === 0) return;
    stream.push(pending.length === 1 ? pending[0] : Buffer.concat(pending));
    pending = [];
    size = 0;
  };
  const stream: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const piece = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      onChunk?.(piece);
      pending.push(piece);
      size += piece.length;
      if (size >= 65_536) release(stream);
      else if (!scheduled) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          release(stream);
        });
      }
      callback();
    },
    flush(callback) {
      release(stream);
      onEnd?.();
      callback();
    },
  });
  return stream;
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
          const body = coalescingStream(
            keep ? (chunk) => chunks.push(chunk) : undefined,
            keep ? () => rememberDocument(request, responseStatusCode, responseHeaders, Buffer.concat(chunks), nonce) : undefined,
          );
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
