import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { compress, COMPRESS_FROM_BYTES, encodingFor } from "./compression.server";
import { MAX_KEY_LENGTH, MAX_PATHS, routeTree } from "./route-pruning.server";

/**
 * The browser asks the server for the routes of the links a page shows (`/__manifest?p=…`, Remix's
 * lazy route discovery) before they are followed. Remix answers each of those requests by
 * matching every path asked for, and each of its parent paths, against the app's whole route
 * tree, flattening and ranking the tree afresh for each: a request for a page's ten links cost
 * 35 ms of CPU, more than rendering the sign-in page (20 ms).
 *
 * The front door gives the same answer with each path's matches worked out once per process
 * (route-pruning.server.ts does the same for documents). The answer is Remix's, byte for byte:
 * `route-discovery.server.test.ts` holds it to Remix's own handler for every route of the app.
 * What Remix answers otherwise (another build's version: reload; a URL over its limit; no path
 * asked) still goes to Remix.
 */

const DISCOVERY_PATH = "/__manifest";
/** Remix refuses a manifest URL longer than this (under what browsers send), origin included. */
const URL_LIMIT = 7680;
/** Remix's own headers for the answer: it holds one build's routes, which never change. */
const CACHE_CONTROL = "public, max-age=31536000, immutable";
const CONTENT_TYPE = "application/json; charset=utf-8";

/** The paths Remix matches for the `p` values of a request: each one and each of its parent paths, in order. */
function pathsAsked(asked: string[]): Set<string> {
  const paths = new Set<string>();
  for (let path of asked) {
    if (!path.startsWith("/")) path = `/${path}`;
    const segments = path.split("/").slice(1);
    segments.forEach((_, i) => paths.add(`/${segments.slice(0, i + 1).join("/")}`));
  }
  return paths;
}

/** The answer's body for a request's `p` values: each matched route's entry of the browser manifest, keyed by id. */
export type RouteDiscovery = (asked: string[]) => string;

/**
 * Remix's answer to a discovery request, worked out from `build` with each path's matches kept.
 * The browser manifest's routes have the ids, paths and parents of the server's, so the tree is
 * built from them.
 */
export function routeDiscovery(build: Pick<ServerBuild, "assets">): RouteDiscovery {
  const tree = routeTree(build.assets.routes) as Parameters<typeof matchRoutes>[0];
  const matched = new Map<string, string[]>();
  const idsFor = (path: string): string[] => {
    let ids = matched.get(path);
    if (!ids) {
      ids = (matchRoutes(tree, path) ?? []).map((match) => match.route.id!);
      if (path.length > MAX_KEY_LENGTH) return ids;
      if (matched.size >= MAX_PATHS) matched.clear();
      matched.set(path, ids);
    }
    return ids;
  };
  return (asked) => {
    const patches: Record<string, unknown> = {};
    for (const path of pathsAsked(asked)) for (const id of idsFor(path)) patches[id] = build.assets.routes[id];
    return JSON.stringify(patches);
  };
}

/**
 * The front-door step: answers a discovery request for this build's version, as Remix would;
 * anything else goes on. The body is compressed as remix-serve's middleware would compress it.
 */
export function answerRouteDiscovery(build: Pick<ServerBuild, "assets" | "basename">) {
  const discover = routeDiscovery(build);
  // under a basename the path is another; Remix answers those itself
  const served = !build.basename || build.basename === "/";
  return function answerRouteDiscoveryStep(req: IncomingMessage, res: ServerResponse): boolean {
    const target = req.url ?? "";
    if (!served || (req.method !== "GET" && req.method !== "HEAD") || !target.startsWith(`${DISCOVERY_PATH}?`)) return false;
    // read as Remix reads it (its URL parser), and measured with the longest origin Remix could
    // put before it: a URL near its limit goes to Remix, which answers it either way
    const hosts = [req.headers.host, req.headers["x-forwarded-host"]].flat().filter((h): h is string => typeof h === "string");
    const longestHost = hosts.reduce((a, b) => (b.length > a.length ? b : a), "localhost");
    let url: URL;
    try {
      url = new URL(target, `https://${longestHost}`);
    } catch {
      return false;
    }
    // (and room for a port Remix may add to a forwarded host)
    if (url.toString().length > URL_LIMIT - ":65535".length || url.pathname !== DISCOVERY_PATH) return false;
    const query = url.searchParams;
    const asked = query.getAll("p");
    if (query.get("version") !== build.assets.version || asked.length === 0) return false;
    const json = Buffer.from(discover(asked));
    const encoding = json.length < COMPRESS_FROM_BYTES ? "identity" : encodingFor(req.headers["accept-encoding"]);
    const body = compress(json, encoding);
    res.statusCode = 200;
    res.setHeader("Cache-Control", CACHE_CONTROL);
    res.setHeader("Content-Type", CONTENT_TYPE);
    res.setHeader("Vary", "Accept-Encoding");
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", body.length);
    res.end(req.method === "HEAD" ? undefined : body);
    return true;
  };
}
