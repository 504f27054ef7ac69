import http from "node:http";
import type { AddressInfo } from "node:net";
import { enterRequest } from "~/http/request-context.server";
import { asResponse, type RouteModule } from "./api-calls";

/**
 * Route actions behind a real socket, for tests about who the client is: each request enters
 * the request context as the front door does, so the client is its socket address (TRUST_PROXY
 * off), and distinct loopback source addresses (127.0.0.2, 127.0.0.3, …) are distinct clients.
 */

/** A path prefix, the route module behind it and the params its file name gives (from the rest of the path). */
export interface SocketRoute {
  prefix: string;
  route: RouteModule;
  params?: (rest: string) => Record<string, string>;
}

export interface RouteSockets {
  port: number;
  close(): Promise<void>;
}

export type SocketAnswer = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** Listens on 127.0.0.1 and hands each POST to the action of the first route whose prefix matches (exact paths first, as listed). */
export async function serveRoutes(routes: SocketRoute[]): Promise<RouteSockets> {
  const server = http.createServer((req, res) => {
    enterRequest(req, res);
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const request = new Request(`http://localhost${req.url}`, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      const pathname = new URL(request.url).pathname;
      const match = routes.find((r) => pathname.startsWith(r.prefix))!;
      let response: Response;
      try {
        response = asResponse(await match.route.action!({ request, params: match.params?.(pathname.slice(match.prefix.length)) ?? {}, context: {} }));
      } catch (thrown) {
        response = thrown instanceof Response ? thrown : new Response(String(thrown), { status: 500 });
      }
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** POSTs `body` to the server on `port` from the loopback source address `from` (a client of its own). */
export function postFrom(port: number, path: string, from: string, body: string, type = "application/json"): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        localAddress: from,
        agent: false,
        headers: { "Content-Type": type, "Content-Length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
