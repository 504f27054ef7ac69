/**
 * Classic Remix compiler. `server` wraps the route build with the HTTP layer
 * (app/http/index.ts): the front door before Remix, and every loader and action behind the gate.
 * BUILD_DIR lets parallel test runs build side by side without clobbering each other.
 */
const buildDir = process.env.BUILD_DIR || "build";

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.ts"],
  server: "./app/http/index.ts",
  serverBuildPath: `${buildDir}/index.js`,
  assetsBuildDirectory: `${buildDir}/client`,
  publicPath: "/build/",
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [/^remix-auth/, /^@mjackson/, /^@remix-run\/web-/],
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
