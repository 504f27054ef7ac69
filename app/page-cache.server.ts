import crypto from "node:crypto";
import http from "node:http";
import zlib from "node:zlib";
import { contentSecurityPolicy } from "./security.server";

/**
 * Anonymous pages that are the same for every visitor (the landing page and the catalogue)
 * are rendered once and then served as stored bytes for a minute, straight from the HTTP
 * layer, so a crowd of first-time visitors on the marketing pages costs almost nothing.
 *
 * Only GET documents of the paths below, asked for without a session or flash cookie, with a
 * 200 answer that sets no cookie, are stored. Any write (POST/PUT/PATCH/DELETE) to this
 * process empties the store, so an edited course shows at once here; browsers and proxies may
 * keep their copy for max-age (60 s). Vary: Cookie keeps a signed-in visitor from reusing
 * the anonymous copy. Signed-in documents are marked private, no-store (see
 * documentCacheControl).
 *
 * A CSP nonce must never be shared between responses, so a page is stored with the nonce it
 * was rendered with and every hit gets a fresh one, in the HTML and in the CSP header. The
 * ETag is taken from the page without its nonce, so a browser's copy (with the CSP it came
 * with) stays valid on a 304, which carries no CSP of its own.
 */

const TTL_MS = 60_000;
const MAX_ENTRIES = 200;
const CACHEABLE_PATHS = new Set(["/", "/courses"]);
export const ANONYMOUS_CACHE_CONTROL = "public, max-age=60";
const PRIVATE_COOKIES = /(?:^|;\s*)(?:__session|__flash)=/;

interface Entry {
  stored: number;
  status: number;
  headers: Array<[string, string]>;
  /** the HTML split at each occurrence of the render's nonce */
  parts: string[];
  /** each part as bytes, and compressed once as a deflate segment (see gzipWithNonce) */
  partBytes: Buffer[];
  partSegments: Buffer[];
  firstPartCrc: number;
  etag: string;
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const LAST_BLOCK = zlib.deflateRawSync(Buffer.alloc(0));

/**
 * Raw deflate ending in a full flush: byte-aligned and independent of what came before, so
 * such segments can be joined into one deflate stream (as pigz does).
 */
function deflateSegment(bytes: Buffer): Buffer {
  return zlib.deflateRawSync(bytes, { level: 6, finishFlush: zlib.constants.Z_FULL_FLUSH });
}

/** A deflate stored block (BTYPE 00) holding `bytes` as they are; starts and ends byte-aligned. */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/**
 * The stored page gzipped with a fresh nonce, without compressing the page again: the parts
 * were compressed when stored, the nonce goes in as a stored block, and the gzip trailer's
 * CRC-32 and length are computed over the joined bytes (the first part's CRC is kept, since
 * nothing before it changes).
 */
function gzipWithNonce(entry: Entry, nonce: string): Buffer {
  const nonceBytes = Buffer.from(nonce, "utf8");
  const nonceSegment = storedBlock(nonceBytes);
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  entry.partBytes.forEach((bytes, i) => {
    if (i > 0) {
      chunks.push(nonceSegment);
      crc = zlib.crc32(nonceBytes, crc);
      size += nonceBytes.length;
    }
    chunks.push(entry.partSegments[i]!);
    crc = i === 0 ? entry.firstPartCrc : zlib.crc32(bytes, crc);
    size += bytes.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(LAST_BLOCK, trailer);
  return Buffer.concat(chunks);
}

const store = new Map<string, Entry>();

function hasPrivateCookie(cookie: string | null | undefined): boolean {
  return !!cookie && PRIVATE_COOKIES.test(cookie);
}

/** The key of a cacheable anonymous document request, or null. */
function cacheKey(method: string | undefined, url: string, cookie: string | null | undefined): string | null {
  if (method !== "GET") return null;
  if (hasPrivateCookie(cookie)) return null;
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  if (!CACHEABLE_PATHS.has(path)) return null;
  if (url.length > 300 || url.includes("_data=")) return null;
  return url;
}

/** Cache-Control for an HTML document: shared-cacheable when anonymous and cacheable, otherwise private. */
export function documentCacheControl(request: Request): string {
  const url = new URL(request.url);
  return cacheKey(request.method, url.pathname + url.search, request.headers.get("cookie"))
    ? ANONYMOUS_CACHE_CONTROL
    : "private, no-store";
}

/**
 * Called by entry.server with the rendered HTML of a document; stores it when the request and
 * the response qualify.
 */
export function rememberDocument(request: Request, status: number, headers: Headers, html: Buffer, nonce: string): void {
  if (status !== 200 || headers.has("set-cookie")) return;
  const url = new URL(request.url);
  const key = cacheKey(request.method, url.pathname + url.search, request.headers.get("cookie"));
  if (!key) return;
  if (store.size >= MAX_ENTRIES) store.delete(store.keys().next().value!);
  const parts = html.toString("utf8").split(nonce);
  const partBytes = parts.map((part) => Buffer.from(part, "utf8"));
  const etag = `"${crypto.createHash("sha1").update(parts.join("")).digest("base64url")}"`;
  store.set(key, {
    stored: Date.now(),
    status,
    headers: [...headers.entries()].filter(
      ([name]) => name !== "content-length" && name !== "content-encoding" && name !== "content-security-policy",
    ),
    parts,
    partBytes,
    partSegments: partBytes.map((bytes) => deflateSegment(bytes)),
    firstPartCrc: zlib.crc32(partBytes[0]!),
    etag,
  });
}

/** For tests: empties the store. */
export function clearPageCache(): void {
  store.clear();
}

/** Answers from the store when it can; true when it answered. */
export function serveFromPageCache(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  const method = req.method ?? "GET";
  if (method !== "GET" && method !== "HEAD") {
    store.clear();
    return false;
  }
  if (store.size === 0) return false;
  const key = cacheKey(method, req.url ?? "/", req.headers.cookie);
  if (!key) return false;
  const entry = store.get(key);
  if (!entry) return false;
  const age = Date.now() - entry.stored;
  if (age >= TTL_MS) {
    store.delete(key);
    return false;
  }
  const headers: Record<string, string> = Object.fromEntries(entry.headers);
  headers["cache-control"] = ANONYMOUS_CACHE_CONTROL;
  headers["vary"] = "Accept-Encoding, Cookie";
  headers["etag"] = entry.etag;
  headers["age"] = String(Math.floor(age / 1000));
  const inm = req.headers["if-none-match"];
  if (inm && inm.split(",").some((t) => t.trim() === entry.etag || t.trim() === `W/${entry.etag}`)) {
    res.writeHead(304, { etag: entry.etag, "cache-control": ANONYMOUS_CACHE_CONTROL, vary: headers["vary"]! });
    res.end();
    return true;
  }
  const nonce = crypto.randomBytes(16).toString("base64");
  headers["content-security-policy"] = contentSecurityPolicy(nonce);
  const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? gzipWithNonce(entry, nonce) : Buffer.from(entry.parts.join(nonce), "utf8");
  if (gzip) headers["content-encoding"] = "gzip";
  headers["content-length"] = String(body.length);
  res.writeHead(entry.status, headers);
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
