import type { EntryContext } from "@remix-run/node";
import { readConfig } from "@remix-run/dev/dist/config.js";

export type Manifest = EntryContext["manifest"];

/**
 * The app's own routes as the build's browser manifest lists them (id, parent, path, index), read
 * from remix.config.js as the compiler reads it: for tests of what the server works out from the
 * route tree, with every route of the app and no build.
 */
export async function appRouteManifest(): Promise<Manifest> {
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
  return { version: "test", url: "/build/manifest.js", entry: { module: "/build/entry.js", imports: [] }, routes } as unknown as Manifest;
}

/** A path that reaches each route: its parents' paths joined, a value for each parameter, two segments for a splat. */
export function samplePaths(m: Manifest): string[] {
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
