import { matchRoutes } from "@remix-run/react";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouteManifest, samplePaths, type Manifest } from "../../tests/support/app-route-manifest";
import { manifestForPath, pathsMatchedFor, routeTree } from "./route-pruning.server";

/** The app's own routes, as the build's manifest lists them (id, parent, path, index). */
let manifest: Manifest;
beforeAll(async () => {
  manifest = await appRouteManifest();
}, 60_000);

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
