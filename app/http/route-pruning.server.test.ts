import type { EntryContext } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { beforeAll, describe, expect, it } from "vitest";
import { manifestForPath, pathsMatchedFor, routeTree } from "./route-pruning.server";

type Manifest = EntryContext["manifest"];

/** The app's own routes, as the build's manifest lists them (id, parent, path, index). */
let manifest: Manifest;
beforeAll(async () => {
  const config = await readConfig(process.cwd());
  const routes = Object.fromEntries(
    Object.values(config.routes).map((r) => [
      r.id,
      {
        id: r.id,
        parentId: r.parentId,
        path: r.path,
        index: r.index,
        caseSensitive: r.caseSensitive,
        module: `/build/${r.file}`,
        hasAction: false,
        hasLoader: true,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: false,
      },
    ]),
  );
  manifest = { version: "test", url: "/build/manifest.js", entry: { module: "/build/entry.js", imports: [] }, routes } as unknown as Manifest;
}, 60_000);

/** A path that reaches each route: its parents' paths joined, a value for each parameter, two segments for a splat. */
function samplePaths(m: Manifest): string[] {
  const full = (id: string | undefined): string => {
    if (!id) return "";
    const route = m.routes[id]!;
    return `${full(route.parentId)}/${route.path ?? ""}`;
  };
  return Object.keys(m.routes).map((id) => {
    const concrete = full(id)
      .split("/")
      .filter(Boolean)
      .map((segment) => (segment === "*" ? "a/b" : segment.startsWith(":") ? "x7" : segment))
      .join("/");
    return `/${concrete}`;
  });
}

const EXTRA = ["/", "/nowhere", "/student/nowhere/deeper", "/courses/", "/courses/%20space", "/admin/students/x/y/z", "/COURSES", `/${"a/".repeat(400)}`];

type Tree = Parameters<typeof matchRoutes>[0];
const matched = (tree: Tree, path: string) => matchRoutes(tree, path)?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname })) ?? null;

describe("the route tree a document is rendered with", () => {
  it("matches every path and each of its parent paths as the app's whole tree does, with far fewer routes", () => {
    const fullTree = routeTree(manifest.routes) as Tree;
    const paths = [...samplePaths(manifest), ...EXTRA];
    expect(paths.length).toBeGreaterThan(200);
    let largest = 0;
    for (const path of paths) {
      const pruned = manifestForPath(manifest, path);
      const prunedTree = routeTree(pruned.routes) as Tree;
      largest = Math.max(largest, Object.keys(pruned.routes).length);
      for (const q of pathsMatchedFor(path)) expect(matched(prunedTree, q), `${q} (rendering ${path})`).toEqual(matched(fullTree, q));
      // what the page ships is the build's entry for each route kept, unchanged
      for (const [id, route] of Object.entries(pruned.routes)) expect(route).toBe(manifest.routes[id]);
      expect(pruned.entry).toBe(manifest.entry);
    }
    // a page keeps its own branch and its parents' index routes: a handful, not the whole app
    expect(largest).toBeLessThan(Object.keys(manifest.routes).length / 10);
  });

  it("works a path out once, and a manifest it made is left as it is", () => {
    const first = manifestForPath(manifest, "/student/overview");
    expect(manifestForPath(manifest, "/student/overview")).toBe(first);
    expect(manifestForPath(first, "/student/overview")).toBe(first);
    expect(Object.keys(first.routes).sort()).toEqual(expect.arrayContaining(["root", "routes/student+/_layout", "routes/student+/overview"]));
  });

  it("keeps a path too long to store out of the store, and still renders it with the routes it reaches", () => {
    const long = `/courses/${"x".repeat(600)}`;
    const a = manifestForPath(manifest, long);
    expect(manifestForPath(manifest, long)).not.toBe(a);
    expect(Object.keys(a.routes)).toContain("root");
  });
});
