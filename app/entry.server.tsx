import crypto from "node:crypto";
import { Transform, Writable } from "node:stream";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
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

/**
 * React writes a page in many small pieces, and Remix flushes the compressor after each piece
 * it passes on, which leaves gzip little to work with (a 260 KB page came out at 100 KB). This
 * joins the pieces written in the same tick (or up to 64 KB) into one, so the page compresses
 * as a whole while Suspense boundaries still stream.
 */
function coalescingStream(): Transform {
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
  if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(request));
  return mayStoreDocument(request)
    ? renderToStore(request, responseStatusCode, responseHeaders, remixContext)
    : renderStreaming(request, responseStatusCode, responseHeaders, remixContext);
}

/**
 * A page for one visitor streams as it renders; its inline scripts carry this render's nonce.
 */
function renderStreaming(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  const nonce = crypto.randomBytes(16).toString("base64");
  const bot = isbot(request.headers.get("user-agent") || "");
  return new Promise((resolve, reject) => {
    // set once the render has started (React calls back no sooner than the next tick)
    let deadline: ReturnType<typeof setTimeout> | undefined;
    let shellRendered = false;
    const send = () => {
      shellRendered = true;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      applySecurityHeaders(responseHeaders, { nonce });
      const body = coalescingStream();
      logRequest(request, responseStatusCode);
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          if (!bot) send();
        },
        onAllReady() {
          clearTimeout(deadline);
          if (bot) send();
        },
        onShellError(error: unknown) {
          clearTimeout(deadline);
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    deadline = setTimeout(abort, ABORT_DELAY);
  });
}

/**
 * An anonymous page the page cache may keep is rendered whole before it is sent: its inline
 * scripts are allowed by their hashes (a nonce would be shared by everyone served the stored
 * copy), and the hashes are known only once the page is complete.
 */
function renderToStore(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext) {
  return new Promise((resolve, reject) => {
    let deadline: ReturnType<typeof setTimeout> | undefined;
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} />, {
      onAllReady() {
        clearTimeout(deadline);
        const chunks: Buffer[] = [];
        const body = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
            callback();
          },
          final(callback) {
            const html = Buffer.concat(chunks);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.append("Vary", "Cookie");
            applySecurityHeaders(responseHeaders, { hashes: inlineScriptHashes(html.toString("utf8")) });
            storeDocument(request, responseStatusCode, responseHeaders, html);
            logRequest(request, responseStatusCode);
            resolve(new Response(html, { headers: responseHeaders, status: responseStatusCode }));
            callback();
          },
        });
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(deadline);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        console.error(error);
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
