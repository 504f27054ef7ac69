import zlib from "node:zlib";

/**
 * How the portal compresses a document: once, whole, after it is rendered, in the codings
 * remix-serve's compression middleware would choose (brotli, then gzip, else none). The
 * middleware leaves a response that already has a Content-Encoding alone, so it still
 * compresses everything else (scripts, stylesheets, the /api's JSON) as before.
 *
 * Why not leave documents to the middleware: it compresses as a stream, which for a page of a
 * few tens of kilobytes costs more in stream set-up, flushes and thread-pool hand-offs than the
 * compression itself. Compressed whole, the signed-in catalogue serves about 8% more pages a
 * second (docs/decisions/006-performance.md), and every document gets a Content-Length. No
 * page defers anything (no deferred data; entry.server waits for the whole render), so nothing
 * would arrive later for it.
 */

export type Encoding = "br" | "gzip" | "identity";

/** The coding to send for an Accept-Encoding header, best first; q=0 refuses a coding. */
export function encodingFor(acceptEncoding: string | null | undefined): Encoding {
  if (!acceptEncoding) return "identity";
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (name && !params.some((p) => /^q=0(\.0*)?$/.test(p))) accepted.add(name);
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return "identity";
}

/** A body smaller than this goes as it is (the middleware's own threshold). */
export const COMPRESS_FROM_BYTES = 1024;

/**
 * Effort: `once` for a body compressed for one response (the middleware's defaults: gzip 6,
 * brotli 4), `stored` for one compressed once and served many times (the page cache).
 */
export function compress(body: Buffer, encoding: Encoding, effort: "once" | "stored" = "once"): Buffer {
  if (encoding === "gzip") return zlib.gzipSync(body, { level: effort === "once" ? 6 : 9 });
  if (encoding === "br") {
    return zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: effort === "once" ? 4 : 9, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return body;
}

/**
 * A complete document as its response: compressed in the coding the request accepts, with its
 * Content-Length and `Vary: Accept-Encoding`.
 */
export function documentResponse(request: Request, status: number, headers: Headers, html: Buffer): Response {
  const encoding = html.length < COMPRESS_FROM_BYTES ? "identity" : encodingFor(request.headers.get("accept-encoding"));
  const body = compress(html, encoding);
  if (encoding !== "identity") headers.set("Content-Encoding", encoding);
  headers.append("Vary", "Accept-Encoding");
  headers.set("Content-Length", String(body.length));
  return new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), { headers, status });
}
