import * as build from "@remix-run/dev/server-build";
import { installRequestContext } from "./auth/request-context.server";
import { installPageCache } from "./page-cache.server";
import { guardRoutes } from "./security.server";

/**
 * The server build remix-serve loads: Remix's own build, with every route's loader and
 * action passed through the security gate, and the per-request context installed.
 */
installRequestContext();
installPageCache();

export * from "@remix-run/dev/server-build";
export const routes = guardRoutes(build.routes);
