import * as build from "@remix-run/dev/server-build";
import { installFrontDoor } from "./front-door.server";
import { guardRoutes } from "./security.server";

/**
 * The server build remix-serve loads: Remix's own build, with every route's loader and
 * action passed through the security gate, and the front door (page cache, security gate,
 * request context) installed.
 */
installFrontDoor();

export * from "@remix-run/dev/server-build";
export const routes = guardRoutes(build.routes);
