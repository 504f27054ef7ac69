import fs from "node:fs";
import path from "node:path";

/**
 * The route modules under app/routes, as remix-flat-routes reads them: paths relative to the folder
 * ("admin+/courses.tsx", "courses.tsx"), sorted, without the tests and server-only modules that sit
 * beside them (remix.config.js ignores the same files).
 */
export function routeModuleFiles(dir = path.resolve("app/routes")): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && !f.endsWith(".server.ts") && !f.split("/").some((s) => s.startsWith(".")))
    .sort();
}

/**
 * A route file's name in Remix's own flat convention, without its extension: a "+" folder is the
 * name's first segment and `_layout` the folder's own route, so "admin+/courses.$id.tsx" is
 * "admin.courses.$id", "admin+/_layout.tsx" is "admin" and "_auth+/login.tsx" is "_auth.login".
 * The URL follows from it as Remix reads a flat name.
 */
export function flatRouteName(file: string): string {
  const parts = file.replace(/\.tsx?$/, "").split("/");
  const base = parts.pop()!;
  const folders = parts.map((p) => p.replace(/\+$/, ""));
  return [...folders, ...(base === "_layout" ? [] : [base])].join(".");
}

/** The source of a route module named by routeModuleFiles. */
export function routeSource(file: string, dir = path.resolve("app/routes")): string {
  return fs.readFileSync(path.join(dir, file), "utf8");
}

/**
 * The URL a route file answers, with its params as written ("/admin/courses/$id"): Remix's reading
 * of a flat name, where a segment starting with "_" adds nothing, a trailing "_" only leaves its
 * parent's layout, and "[.]" is a dot within a segment.
 */
export function routeUrlPattern(file: string): string {
  const segments = flatRouteName(file)
    .replace(/\[\.\]/g, "\u0000")
    .split(".")
    .filter((s) => !s.startsWith("_"))
    // eslint-disable-next-line no-control-regex -- NUL holds an escaped dot while the name is split on dots; no file name has one
    .map((s) => s.replace(/_$/, "").replace(/\u0000/g, "."));
  return `/${segments.join("/")}`;
}
