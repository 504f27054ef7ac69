import http from "node:http";
import { logLine } from "~/utils/log.server";

/**
 * remix-serve creates its own HTTP server and takes no middleware, so the steps that must run
 * before express and Remix see a request hook Node's http.Server "request" event, once per
 * process. This is the only place the app patches a Node prototype.
 *
 * A step answers the request (true) or lets it through (false), possibly after waiting (a
 * step may need the database). The request's body is not read until a step or Remix reads it.
 */
export type DoorStep = (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;

const INSTALLED = Symbol.for("portal.frontDoor");

/**
 * Installs the front door: `enter` opens each request's context, then the steps run in order,
 * and a request no step answered goes on to express and Remix. `around`, when given, runs the
 * whole of each request inside it (the query counter of QUERY_COUNT=1, query-count.server.ts).
 */
export function installFrontDoor(
  enter: (req: http.IncomingMessage, res: http.ServerResponse) => unknown,
  steps: DoorStep[],
  around?: (req: http.IncomingMessage, res: http.ServerResponse, go: () => void) => void,
): void {
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
    const pass = () => emit.call(this, event, ...args);
    enter(req, res);
    if (around) around(req, res, () => walk(req, res, steps, 0, pass));
    else walk(req, res, steps, 0, pass);
    return true;
  };
}

function walk(req: http.IncomingMessage, res: http.ServerResponse, steps: DoorStep[], from: number, pass: () => void): void {
  const next = (i: number) => (error: unknown) => {
    // a step that fails lets the request through: Remix answers it, with its own errors. One
    // JSON line, never a stack: a database that is away fails a step on every request.
    logLine({ event: "door-step-error", step: steps[i]!.name || String(i), error: String(error instanceof Error ? error.message : error).slice(0, 300) });
    walk(req, res, steps, i + 1, pass);
  };
  for (let i = from; i < steps.length; i++) {
    let answered: boolean | Promise<boolean>;
    try {
      answered = steps[i]!(req, res);
    } catch (error) {
      return next(i)(error);
    }
    if (answered === true) return;
    if (answered !== false) {
      answered.then((done) => (done ? undefined : walk(req, res, steps, i + 1, pass)), next(i));
      return;
    }
  }
  pass();
}
