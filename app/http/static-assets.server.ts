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

function compressLater(key: string, file: string) {
  compressed.set(key, "pending");
  fs.readFile(file, (readError, body) => {
    if (readError) return compressed.set(key, "none");
    zlib.brotliCompress(
      body,
      { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } },
      (error, out) => compressed.set(key, error ? "none" : { body: out, type: TYPES[path.extname(file)]! }),
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
