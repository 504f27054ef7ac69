/**
 * What the browser downloads: the client build holds no server-only package (zod above all, which
 * weighs more than React), and no page's scripts and stylesheet exceed the page budget on their own.
 *
 * Reads the browser build's metafile (the classic compiler writes one beside the server bundle).
 * npm test builds once for all its parts and names that production build in TEST_BUILD_DIR
 * (scripts/test.mjs): it is read when no file of app/ changed after it. Otherwise this builds
 * into tests/.tmp/bundle-build first when there is no build there or when app/ changed since.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import pkg from "../package.json";
import { BUDGET, kb, routeWeights } from "./page-weight";

const OWN_BUILD_DIR = path.resolve("tests/.tmp/bundle-build");

/** Dependencies the browser is meant to load; every other dependency is server-only. */
const BROWSER_PACKAGES = new Set(["react", "react-dom", "@remix-run/react", "sonner"]);
const BROWSER_PACKAGE_PREFIXES = ["@fontsource/"];
const SERVER_ONLY = Object.keys(pkg.dependencies).filter(
  (name) => !BROWSER_PACKAGES.has(name) && !BROWSER_PACKAGE_PREFIXES.some((prefix) => name.startsWith(prefix)),
);

/** A page's HTML, scripts and stylesheet, compressed, cold cache (see npm run bench). */
const PAGE_BUDGET = 160 * 1024;

interface Metafile {
  outputs: Record<string, { bytes: number; inputs: Record<string, { bytesInOutput: number }> }>;
}
interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { id: string; parentId?: string; module: string; imports?: string[] }>;
}

function newestChange(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function buildIsCurrent(buildDir: string): boolean {
  const metafile = path.join(buildDir, "metafile.js.json");
  if (!fs.existsSync(metafile)) return false;
  const built = fs.statSync(metafile).mtimeMs;
  const sources = Math.max(newestChange(path.resolve("app")), ...["remix.config.js", "package.json"].map((f) => fs.statSync(f).mtimeMs));
  return sources < built;
}

/** The package a bundled input comes from, or null for the app's own modules. */
function packageOf(input: string): string | null {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return match ? match[1]! : null;
}

let metafile: Metafile;
let manifest: Manifest;

let CLIENT_DIR: string;

beforeAll(() => {
  const suiteBuild = process.env.TEST_BUILD_DIR ? path.resolve(process.env.TEST_BUILD_DIR) : undefined;
  const buildDir = suiteBuild && buildIsCurrent(suiteBuild) ? suiteBuild : OWN_BUILD_DIR;
  if (!buildIsCurrent(buildDir)) {
    const result = spawnSync(path.resolve("node_modules/.bin/remix"), ["build"], {
      env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(`remix build failed:\n${result.stdout}\n${result.stderr}`);
  }
  CLIENT_DIR = path.join(buildDir, "client");
  metafile = JSON.parse(fs.readFileSync(path.join(buildDir, "metafile.js.json"), "utf8")) as Metafile;
  const manifestFile = fs.readdirSync(CLIENT_DIR).find((f) => /^manifest-.*\.js$/.test(f));
  if (!manifestFile) throw new Error(`no manifest in ${CLIENT_DIR}`);
  const text = fs.readFileSync(path.join(CLIENT_DIR, manifestFile), "utf8");
  manifest = JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}, 300_000);

describe("the browser build", () => {
  it("holds no server-only package", () => {
    expect(SERVER_ONLY).toContain("zod");
    const found = new Set<string>();
    for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(inputs)) {
        const name = packageOf(input);
        if (name && SERVER_ONLY.includes(name) && bytesInOutput > 0) found.add(`${path.relative(CLIENT_DIR, output)}: ${name}`);
      }
    }
    // A package listed here that the browser needs belongs in BROWSER_PACKAGES; otherwise move
    // whatever a page imports from its module into a module free of it (see app/schemas/*-text.ts).
    expect([...found]).toEqual([]);
  });

  it("has no zod in any chunk's text", () => {
    const files = fs.readdirSync(CLIENT_DIR, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".js"));
    expect(files.length).toBeGreaterThan(10);
    const withZod = files.filter((f) => /\$Zod[A-Z]|ZodError/.test(fs.readFileSync(path.join(CLIENT_DIR, f), "utf8")));
    expect(withZod).toEqual([]);
  });

  it("keeps every page's scripts and stylesheet, compressed, within the page budget", () => {
    const gzipped = new Map<string, number>();
    const size = (url: string) => {
      if (!gzipped.has(url)) {
        const file = path.join(CLIENT_DIR, url.replace(/^\/build\//, ""));
        gzipped.set(url, zlib.gzipSync(fs.readFileSync(file)).length);
      }
      return gzipped.get(url)!;
    };
    const stylesheets = fs
      .readdirSync(CLIENT_DIR, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".css"))
      .map((f) => `/build/${f}`);
    const over: string[] = [];
    let checked = 0;
    // The route manifest file is not among them: with lazy route discovery a page carries the
    // manifest of its own routes inline and asks /__manifest for the routes its links lead to.
    for (const route of Object.values(manifest.routes)) {
      const urls = new Set([manifest.entry.module, ...(manifest.entry.imports ?? []), ...stylesheets]);
      for (let r: Manifest["routes"][string] | undefined = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) {
        urls.add(r.module);
        for (const url of r.imports ?? []) urls.add(url);
      }
      const total = [...urls].reduce((sum, url) => sum + size(url), 0);
      checked++;
      if (total > PAGE_BUDGET) over.push(`${route.id}: ${(total / 1024).toFixed(1)} KB`);
    }
    expect(checked).toBeGreaterThan(20);
    expect(over).toEqual([]);
  });
});

/**
 * Issue 61's budgets for a first visit on a slow phone (docs/decisions/043-a-first-visit-on-a-slow-phone.md),
 * from the build: the scripts each route's document names and the stylesheet every document
 * carries, brotli 11 as the server sends them (scripts/page-weight.ts). npm run bench:phone
 * measures the same in a browser, the document's own bytes included.
 */
describe("the first visit's budget", () => {
  it("keeps every public and student page's scripts within 95 KB and every page's within 120 KB", () => {
    const weights = routeWeights(CLIENT_DIR);
    expect(weights.length).toBeGreaterThan(20);
    const over = weights.filter((w) => w.js > (w.learner ? BUDGET.learnerJs : BUDGET.anyJs)).map((w) => `${w.id}: ${kb(w.js)}`);
    expect(over).toEqual([]);
  });

  it("keeps every page's stylesheet and scripts within the build's share of 130 KB", () => {
    const over = routeWeights(CLIENT_DIR)
      .filter((w) => w.js + w.css > BUDGET.buildShare)
      .map((w) => `${w.id}: ${kb(w.js + w.css)}`);
    expect(over).toEqual([]);
  });

  // Each route imports its server modules through one route-local `.server` module, and the page
  // frame shares the primitives' script (components/ui/index.ts): without either, the compiler
  // made a file for each distinct set of routes sharing a module, 24-41 requests a page.
  it(`asks for at most ${BUDGET.requests} files before hydration, the document included`, () => {
    const over = routeWeights(CLIENT_DIR)
      .filter((w) => w.requests > BUDGET.requests)
      .map((w) => `${w.id}: ${w.requests}`);
    expect(over).toEqual([]);
  });
});
