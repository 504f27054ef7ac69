import http from "node:http";
import { enterRequest } from "./auth/request-context.server";
import { serveFromPageCache } from "./page-cache.server";
import { refuseAtTheDoor } from "./security.server";

const INSTALLED = Symbol.for("portal.frontDoorInstalled");

/**
 * remix-serve creates its own HTTP server, so what must happen before Remix sees a request is
 * done by wrapping http.Server's "request" event, once per process, in this order:
 * 1. the page cache answers stored anonymous pages (and any write empties it);
 * 2. the security gate refuses writes from another site and oversized bodies, before parsing;
 * 3. the rest runs in the request's context (client address, start time, shared session lookup).
 */
export function installFrontDoor(): void {
  const proto = http.Server.prototype as unknown as Record<symbol, unknown> & {
    emit: (event: string, ...args: unknown[]) => boolean;
  };
  if (proto[INSTALLED]) return;
  proto[INSTALLED] = true;
  const emit = proto.emit;
  proto.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event !== "request") return emit.call(this, event, ...args);
    const req = args[0] as http.IncomingMessage;
    const res = args[1] as http.ServerResponse;
    if (serveFromPageCache(req, res) || refuseAtTheDoor(req, res)) return true;
    return enterRequest(req, () => emit.call(this, event, ...args));
  };
}
