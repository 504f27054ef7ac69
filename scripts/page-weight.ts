/**
 * What each page route of a production build sends a browser on a cold first visit, read from
 * the build alone: the scripts its document names (the entry, and every route from the root to
 * it with their shared chunks) and the stylesheet its document carries inline
 * (app/utils/page-styles.tsx), each as the server sends them to a browser that takes brotli
 * (app/http/static-assets.server.ts: quality 11). Used by the budget test
 * (scripts/page-budget.test.ts) and the bundle report of npm run bench:phone.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { servedBody } from "../app/http/static-assets.server";

/** Limits from issue 61 (docs/decisions/043-a-first-visit-on-a-slow-phone.md), in bytes and requests. */
export const BUDGET = {
  /** scripts of a public or student page, compressed */
  learnerJs: 95 * 1024,
  /** scripts of any page, compressed */
  anyJs: 120 * 1024,
  /** everything a page loads cold, compressed: document, stylesheet, scripts */
  total: 130 * 1024,
  /** what the build's own share of the total may be: the rest is the document's HTML and data */
  buildShare: 110 * 1024,
  /** requests before the page is hydrated: the document and its scripts */
  requests: 20,
};

interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
}

export interface RouteWeight {
  /** route id, e.g. routes/student+/overview */
  id: string;
  learner: boolean;
  scripts: Array<{ url: string; bytes: number }>;
  js: number;
  css: number;
  /** requests before hydration: the document and each script */
  requests: number;
}

/** Public and student pages: the limits for learners (everything not staff, employer or /api). */
export function isLearnerRoute(id: string): boolean {
  const name = id.replace(/^routes\//, "");
  return !/^(admin|trainer|employer|api)([.+_]|$)/.test(name) && id !== "root";
}

export function brotliSize(buffer: Buffer): number {
  return zlib.brotliCompressSync(buffer, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buffer.length } })
    .length;
}

export function readManifest(clientDir: string): Manifest {
  const file = fs.readdirSync(clientDir).find((f) => /^manifest-.*\.js$/.test(f));
  if (!file) throw new Error(`no manifest in ${clientDir}`);
  const text = fs.readFileSync(path.join(clientDir, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

/** Every route's cold-visit weight in the build whose browser half is `clientDir`. */
export function routeWeights(clientDir: string): RouteWeight[] {
  const manifest = readManifest(clientDir);
  const sizes = new Map<string, number>();
  const size = (url: string) => {
    const file = path.join(clientDir, url.replace(/^\/build\//, ""));
    if (!sizes.has(url)) sizes.set(url, brotliSize(servedBody(file, fs.readFileSync(file))));
    return sizes.get(url)!;
  };
  const css = fs
    .readdirSync(clientDir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".css"))
    .reduce((sum, f) => sum + size(`/build/${f}`), 0);
  return Object.values(manifest.routes).map((route) => {
    const urls = new Set([manifest.entry.module, ...(manifest.entry.imports ?? [])]);
    const chain: Manifest["routes"][string][] = [];
    for (let r: Manifest["routes"][string] | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) chain.unshift(r);
    for (const r of chain) {
      urls.add(r.module);
      for (const url of r.imports ?? []) urls.add(url);
    }
    const scripts = [...urls].map((url) => ({ url, bytes: size(url) }));
    return { id: route.id, learner: isLearnerRoute(route.id), scripts, js: scripts.reduce((s, x) => s + x.bytes, 0), css, requests: 1 + scripts.length };
  });
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
