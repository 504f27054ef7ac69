import type { IncomingMessage, ServerResponse } from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { encodingFor } from "./compression.server";

/**
 * The browser build's scripts and stylesheets at brotli's best (quality 11), for browsers that
 * take brotli: the framework's chunk is 74 KB so against 86 KB at the quality 4 remix-serve's
 * compression middleware uses on the fly (docs/decisions/043-a-first-visit-on-a-slow-phone.md).
 * Each file is compressed once per process, off the main thread, the first time it is asked
 * for; until then (and for everything else) the request goes on to remix-serve as before. Hashed
 * names never change content, so they are cached for a year, immutable, like remix-serve's own.
 */
const CLIENT_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "client");
const PREFIX = "/build/";
const TYPES: Record<string, string> = { ".js": "application/javascript; charset=utf-8", ".css": "text/css; charset=utf-8" };
export const ASSET_CACHE_CONTROL = "public, max-age=31536000, immutable";

type Entry = { body: Buffer; type: string } | "pending" | "none";
const compressed = new Map<string, Entry>();

/** The file under the client build a /build/ path names, or null (not a script or stylesheet, or outside it). */
export function assetFile(urlPath: string, clientDir = CLIENT_DIR): string | null {
  if (!urlPath.startsWith(PREFIX)) return null;
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath.slice(PREFIX.length));
  } catch {
    return null;
  }
  if (!TYPES[path.extname(relative)] || relative.split("/").some((part) => part === ".." || part === "")) return null;
  const file = path.join(clientDir, relative);
  return file.startsWith(clientDir + path.sep) ? file : null;
}

/**
 * Chromium's explicit compile hint: the browser compiles every function of a script as it
 * arrives, off the main thread, instead of one function at a time the first time each is called.
 * A page calls nearly all of its framework's code while hydrating: compiled lazily, traced loads
 * of /login spent 290-335 ms compiling and parsing functions, mostly on the main thread inside
 * the module evaluation; with the hint 80-160 ms, and Lighthouse's blocking time fell to 0-1 ms
 * on the pages it had been over 50 (docs/decisions/043-a-first-visit-on-a-slow-phone.md).
 * Other browsers read a comment.
 */
const COMPILE_HINT = Buffer.from("//# allFunctionsCalledOnLoad\n");

/** A file of the build as this step sends it: a script with the compile hint before it. */
export function servedBody(file: string, source: Buffer): Buffer {
  return path.extname(file) === ".js" ? Buffer.concat([COMPILE_HINT, source]) : source;
}

function compressLater(key: string, file: string) {
  compressed.set(key, "pending");
  fs.readFile(file, (readError, source) => {
    if (readError) return compressed.set(key, "none");
    const body = servedBody(file, source);
    zlib.brotliCompress(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }, (error, out) =>
      compressed.set(key, error ? "none" : { body: out, type: TYPES[path.extname(file)]! }),
    );
  });
}

/** Front-door step: answers a script or stylesheet of the build in brotli 11 once it has it. */
export function serveCompressedAsset(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const urlPath = (req.url ?? "").split("?")[0]!;
  if (!urlPath.startsWith(PREFIX) || encodingFor(req.headers["accept-encoding"]) !== "br") return false;
  const entry = compressed.get(urlPath);
  if (entry === undefined) {
    const file = assetFile(urlPath);
    if (file) compressLater(urlPath, file);
    return false;
  }
  if (typeof entry === "string") return false;
  res.writeHead(200, {
    "Content-Type": entry.type,
    "Content-Encoding": "br",
    "Content-Length": String(entry.body.length),
    "Cache-Control": ASSET_CACHE_CONTROL,
    Vary: "Accept-Encoding",
  });
  res.end(req.method === "HEAD" ? undefined : entry.body);
  return true;
}
