import type { EntryContext } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

type Manifest = EntryContext["manifest"];
type ManifestRoute = Manifest["routes"][string];

/**
 * The route tree a document is rendered with, cut down to the routes its path can reach.
 *
 * Rendering a document makes the router match the path against every route of the app, more
 * than once: RemixServer builds a route object for each of the app's routes, the static router
 * converts them all again, the render matches the path over all of them, and the manifest the
 * page ships (the routes the browser knows before it asks for more) matches the path and each of
 * its parents over all of them once more. Every match flattens and ranks the whole tree and
 * compiles a regular expression per route it tries: with a hundred routes, that was about a third
 * of what a page costs (docs/decisions/006-performance.md).
 *
 * What those steps read of the tree is only the routes that match the path or one of its parent
 * paths. So the render gets a manifest holding exactly those routes (the ones that match the
 * path, "/", and each parent path), worked out once per path and kept. Matching a path over a
 * subset of the routes that holds the full tree's best match gives that same match (a subset has
 * the same branches, ranked the same), so the page, its matches and the manifest it ships are
 * the same as with every route: `route-pruning.server.test.ts` checks exactly that for every
 * route of the build.
 */

/**
 * How many paths are kept per build; a path with an id in it is one of many, so the store is
 * bounded (here and in route discovery, route-discovery.server.ts).
 */
export const MAX_PATHS = 2000;
/** Longer paths are worked out every time (no page has one; the bound keeps a hostile URL out of the store). */
export const MAX_KEY_LENGTH = 512;

interface TreeRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: TreeRoute[];
}

interface Pruner {
  tree: TreeRoute[];
  paths: Map<string, Manifest>;
}

const pruners = new WeakMap<Manifest, Pruner>();
/** Manifests this module made: a render that is retried (after an error) keeps the one it had. */
const made = new WeakSet<Manifest>();

/** The manifest's routes as the router's route objects (id, path, index, children): all matching reads. */
export function routeTree(routes: Record<string, ManifestRoute>): TreeRoute[] {
  const byParent = new Map<string, ManifestRoute[]>();
  for (const route of Object.values(routes)) {
    const parent = route.parentId ?? "";
    const siblings = byParent.get(parent);
    if (siblings) siblings.push(route);
    else byParent.set(parent, [route]);
  }
  const build = (parentId: string): TreeRoute[] =>
    (byParent.get(parentId) ?? []).map((route) => {
      const children = build(route.id);
      return {
        id: route.id,
        path: route.path,
        index: route.index,
        caseSensitive: route.caseSensitive,
        ...(children.length > 0 ? { children } : {}),
      };
    });
  return build("");
}

/** The paths a render matches for `pathname`: the path itself, "/" and each parent path. */
export function pathsMatchedFor(pathname: string): string[] {
  const segments = pathname.split("/").filter(Boolean);
  const paths = [pathname, "/"];
  segments.pop();
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  return paths;
}

/** The ids of every route that matches `pathname` or one of the paths a render matches with it. */
export function routeIdsFor(tree: TreeRoute[], pathname: string): Set<string> {
  const ids = new Set<string>(["root"]);
  for (const path of pathsMatchedFor(pathname)) {
    // the router's own type asks for index routes without children; these are built so
    for (const match of matchRoutes(tree as Parameters<typeof matchRoutes>[0], path) ?? []) if (match.route.id) ids.add(match.route.id);
  }
  return ids;
}

function pruned(manifest: Manifest, tree: TreeRoute[], pathname: string): Manifest {
  const routes: Record<string, ManifestRoute> = {};
  for (const id of routeIdsFor(tree, pathname)) {
    const route = manifest.routes[id];
    if (route) routes[id] = route;
  }
  const kept = { ...manifest, routes };
  made.add(kept);
  return kept;
}

/** The manifest to render `pathname` with: the build's, holding only the routes this path can reach. */
export function manifestForPath(manifest: Manifest, pathname: string): Manifest {
  if (made.has(manifest)) return manifest;
  let pruner = pruners.get(manifest);
  if (!pruner) {
    pruner = { tree: routeTree(manifest.routes), paths: new Map() };
    pruners.set(manifest, pruner);
  }
  if (pathname.length > MAX_KEY_LENGTH) return pruned(manifest, pruner.tree, pathname);
  let kept = pruner.paths.get(pathname);
  if (!kept) {
    if (pruner.paths.size >= MAX_PATHS) pruner.paths.clear();
    kept = pruned(manifest, pruner.tree, pathname);
    pruner.paths.set(pathname, kept);
  }
  return kept;
}
