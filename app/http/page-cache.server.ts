import crypto from "node:crypto";
import type http from "node:http";
import { getOptionalUser } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { CATALOGUE_KEEP_MS, CATALOGUE_KEPT_PAGES, catalogueVersion, forgetCatalogueVersion } from "~/models/catalogue-version.server";
import { catalogueQuery } from "~/schemas/page-queries";
import { readFlash } from "~/utils/flash.server";
import { compress, encodingFor, type Encoding } from "./compression.server";
import { frontDoorContext, frontDoorRequest, requestContext } from "./request-context.server";

/**
 * Anonymous pages that are the same for every visitor (the landing page, the catalogue and each course's page)
 * are rendered once and then served as stored bytes, straight from the front door, so a crowd
 * of first-time visitors on the marketing pages costs almost nothing.
 *
 * - What is stored: a GET of a page below whose query holds only parameters that page reads
 *   (normalised as the page reads them, so `?page=01` and `?page=1` are one entry); any other
 *   parameter, a search term or a far page number goes to Remix uncached. The store is bounded.
 * - Who gets it: a visitor with no session and no pending flash message, decided by resolving
 *   the cookies as the app does (a signed, live session cookie is a signed-in visitor however
 *   its header is spelled). The render stores the page only when it set no cookie and its own
 *   session lookup found nobody.
 * - How long: an entry is good while the version of what the pages show is the one read before
 *   the page was rendered, and for at most a minute (classes start and seat offers lapse with
 *   time); browsers and proxies keep a copy but ask again each time (no-cache: a document is
 *   never used unasked, docs/decisions/043-a-first-visit-on-a-slow-phone.md), answered 304 from
 *   the store when it has not changed. Vary: Cookie keeps a
 *   signed-in visitor from reusing the anonymous copy. The version is the catalogue's
 *   (models/catalogue-version.server.ts): a sign-in or a verify lookup keeps the pages while an
 *   edited course shows on the next request, whichever process or server made the edit.
 * - As what: the complete response, compressed once per encoding with zlib. Its inline scripts
 *   are allowed by their hashes in the CSP (see entry.server), not a per-response nonce, so the
 *   stored bytes need nothing added per hit.
 */

const MAX_ENTRIES = 200;
export const ANONYMOUS_CACHE_CONTROL = "public, no-cache";
const VARY = "Accept-Encoding, Cookie";

/** A course's public page (routes/courses_.$id.tsx): its path names the course, its query nothing. */
const COURSE_PAGE = /^\/courses\/[A-Za-z0-9-]{1,100}$/;
const onlyThePath = (params: URLSearchParams) => (params.size === 0 ? "" : null);

/** Each stored page and the normalised query it reads; null when this query is not stored. */
const PAGES: Record<string, (params: URLSearchParams) => string | null> = {
  "/": onlyThePath,
  "/courses": (params) => {
    for (const name of params.keys()) if (name !== "tier" && name !== "page" && name !== "q") return null;
    const { q, tier, page } = catalogueQuery.parse({ q: params.get("q") ?? "", tier: params.get("tier") ?? "all", page: params.get("page") ?? 1 });
    if (q || page > CATALOGUE_KEPT_PAGES) return null;
    return `tier=${tier}&page=${page}`;
  },
};

/** The store's key for a request line's target, or null when it is not a stored page. */
export function pageKey(target: string): string | null {
  if (target.length > 300) return null;
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  const page = PAGES[path] ?? (COURSE_PAGE.test(path) ? onlyThePath : undefined);
  if (!page) return null;
  const query = page(new URLSearchParams(q === -1 ? "" : target.slice(q + 1)));
  return query === null ? null : `${path}?${query}`;
}

interface Entry {
  version: string;
  stored: number;
  headers: Array<[string, string]>;
  bodies: Record<Encoding, Buffer>;
  etag: string;
}

const store = new Map<string, Entry>();

/** For tests: empties the store and forgets the version read. */
export function clearPageCache(): void {
  store.clear();
  forgetCatalogueVersion(getDb());
}

/**
 * Whether the cookies resolve to nobody: no live session and no pending flash message. The
 * session is looked up as the page's loaders look it up, so a signed-in visitor's page reuses
 * this lookup (kept in the request's context) instead of making it again.
 */
async function isAnonymous(req: http.IncomingMessage): Promise<boolean> {
  const request = frontDoorRequest(req);
  const [user, { flash }] = await Promise.all([getOptionalUser(request), readFlash(request)]);
  return user === null && flash === null;
}

function serve(req: http.IncomingMessage, res: http.ServerResponse, entry: Entry): void {
  const age = String(Math.floor((Date.now() - entry.stored) / 1000));
  const inm = req.headers["if-none-match"];
  if (inm && inm.split(",").some((t) => t.trim() === entry.etag || t.trim() === `W/${entry.etag}`)) {
    res.writeHead(304, { etag: entry.etag, "cache-control": ANONYMOUS_CACHE_CONTROL, vary: VARY, age });
    res.end();
    return;
  }
  const encoding = encodingFor(req.headers["accept-encoding"]);
  const body = entry.bodies[encoding];
  const headers: Record<string, string> = Object.fromEntries(entry.headers);
  headers["age"] = age;
  headers["content-length"] = String(body.length);
  if (encoding !== "identity") headers["content-encoding"] = encoding;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The page cache at the front door: answers from the store when it can (true), and otherwise
 * marks in the request's context that the page Remix renders may be stored.
 */
export function answerFromPageCache(req: http.IncomingMessage, res: http.ServerResponse): boolean | Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const key = pageKey(req.url ?? "/");
  if (key === null) return false;
  const lookup = (version: string) => {
    const entry = store.get(key);
    if (entry && entry.version === version && Date.now() - entry.stored < CATALOGUE_KEEP_MS) {
      serve(req, res, entry);
      return true;
    }
    if (entry) store.delete(key);
    const ctx = frontDoorContext(req);
    if (ctx && req.method === "GET") ctx.pageCache = { key, version };
    return false;
  };
  const versioned = () => {
    const version = catalogueVersion(getDb());
    return typeof version === "string" ? lookup(version) : version.then(lookup);
  };
  if (!req.headers.cookie) return versioned();
  return isAnonymous(req).then((anonymous) => anonymous && versioned());
}

/** Cache-Control of a document: shared-cacheable when the page cache may store it, else private. */
export function documentCacheControl(request: Request): string {
  return requestContext(request)?.pageCache ? ANONYMOUS_CACHE_CONTROL : "private, no-store";
}

/** Whether the document being rendered may be stored (the front door said so). */
export function mayStoreDocument(request: Request): boolean {
  return !!requestContext(request)?.pageCache;
}

/**
 * Called by entry.server with a complete anonymous document; stores it when the render found
 * no signed-in user, set no cookie and answered 200.
 */
export function storeDocument(request: Request, status: number, headers: Headers, html: Buffer): void {
  const ctx = requestContext(request);
  const pending = ctx?.pageCache;
  if (!pending || status !== 200 || headers.has("set-cookie") || ctx.userId) return;
  if (store.size >= MAX_ENTRIES) store.delete(store.keys().next().value!);
  const etag = `"${crypto.createHash("sha1").update(html).digest("base64url")}"`;
  const kept = new Map(headers.entries());
  kept.delete("content-length");
  kept.delete("content-encoding");
  kept.set("etag", etag).set("vary", VARY).set("cache-control", ANONYMOUS_CACHE_CONTROL);
  store.set(pending.key, {
    version: pending.version,
    stored: Date.now(),
    headers: [...kept],
    bodies: {
      identity: html,
      gzip: compress(html, "gzip", "stored"),
      br: compress(html, "br", "stored"),
    },
    etag,
  });
}
