/**
 * Classic Remix compiler. `server` wraps the route build with the HTTP layer
 * (app/http/index.ts): the front door before Remix, and every loader and action behind the gate.
 * BUILD_DIR lets parallel test runs build side by side without clobbering each other.
 */
import { flatRoutes } from "remix-flat-routes";

const buildDir = process.env.BUILD_DIR || "build";
/** Files beside a route that are not routes: its tests and its server-only imports. */
const notRoutes = ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.ts"];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Routes are grouped in "+" folders (api+/, admin+/, ...): a folder's name is its URL's first
  // segment, and `_layout` is the folder's own route. remix-flat-routes reads them; Remix's own
  // convention, which cannot see into folders that way, is switched off.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) => flatRoutes("routes", defineRoutes, { ignoredRouteFiles: notRoutes }),
  server: "./app/http/index.ts",
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: `${buildDir}/client`,
  publicPath: "/build/",
  serverModuleFormat: "esm",
  // kysely and zod go into the server build: each is hundreds of small modules, which Node loads
  // one file at a time at every process's start (a worker's start is what a crash or a deploy
  // waits for; docs/decisions/006-performance.md, "A server process starts")
  serverDependenciesToBundle: [/^kysely/, /^zod/, /^remix-auth/, /^@mjackson/, /^@remix-run\/web-/],
  tailwind: true,
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_lazyRouteDiscovery: true,
    v3_relativeSplatPath: true,
    v3_singleFetch: true,
    v3_throwAbortReason: true,
  },
};
