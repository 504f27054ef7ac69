import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouteManifest, samplePaths } from "../../tests/support/app-route-manifest";
import { answerRouteDiscovery } from "./route-discovery.server";

/**
 * The front door's answer to the browser's route discovery (`/__manifest?p=…`), held to Remix's
 * own handler: a server with the step in front of Remix's request handler, on a build with every
 * route of the app, asked over HTTP. What the step answers must be what Remix answers, byte for
 * byte; what it leaves alone reaches Remix.
 */

let build: ServerBuild;
let remix: (request: Request) => Promise<Response>;
let server: http.Server;
let base = "";
const VERSION = "a1b2c3d4";

beforeAll(async () => {
  const manifest = await appRouteManifest();
  const routes = Object.fromEntries(
    Object.values(manifest.routes).map((r) => [
      r.id,
      { id: r.id, parentId: r.parentId, path: r.path, index: r.index, caseSensitive: r.caseSensitive, module: {} },
    ]),
  );
  build = {
    mode: "production",
    entry: { module: { default: () => new Response("document") } },
    routes,
    assets: { ...manifest, version: VERSION },
    publicPath: "/build/",
    assetsBuildDirectory: "build/client",
    future: { v3_fetcherPersist: true, v3_lazyRouteDiscovery: true, v3_relativeSplatPath: true, v3_singleFetch: true, v3_throwAbortReason: true },
    isSpaMode: false,
  } as unknown as ServerBuild;
  const handler = createRequestHandler(build);
  remix = (request) => handler(request);
  const step = answerRouteDiscovery(build);
  server = http.createServer(async (req, res) => {
    if (step(req, res)) return;
    // what the step left goes to Remix, marked so the test knows who answered
    const answer = await remix(new Request(`http://${req.headers.host}${req.url}`, { method: req.method }));
    res.writeHead(answer.status, { ...Object.fromEntries(answer.headers), "x-answered-by": "remix" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const discovery = (paths: string[], version = VERSION) => `/__manifest?${paths.map((p) => `p=${encodeURIComponent(p)}`).join("&")}&version=${version}`;

/** What Remix's own handler answers for a target: status, the two headers it sets, body. */
async function remixAnswer(target: string) {
  const answer = await remix(new Request(`http://localhost${target}`));
  return {
    status: answer.status,
    cacheControl: answer.headers.get("cache-control"),
    contentType: answer.headers.get("content-type"),
    body: await answer.text(),
  };
}

async function stepAnswer(target: string, headers: Record<string, string> = {}) {
  const answer = await fetch(`${base}${target}`, { headers });
  return { answer, body: await answer.text() };
}

describe("route discovery at the front door", () => {
  it("answers every route of the app, a page's links at a time, exactly as Remix does", async () => {
    const paths = samplePaths(build.assets as never);
    expect(paths.length).toBeGreaterThan(200);
    const batches: string[][] = [];
    for (let i = 0; i < paths.length; i += 10) batches.push(paths.slice(i, i + 10));
    // what a browser may also send: no leading slash, the same path twice, paths no route has,
    // a trailing slash, an encoded space, another case, the root alone, a long made-up path
    batches.push(["courses", "/courses", "/courses"], ["/nowhere", "/student/nowhere/deeper"], ["/courses/", "/courses/%20space", "/COURSES"], ["/"]);
    batches.push([`/${"a/".repeat(300)}`]);
    for (const batch of batches) {
      const target = discovery(batch);
      const expected = await remixAnswer(target);
      // identity: no Accept-Encoding, so the body is compared as sent
      const { answer, body } = await stepAnswer(target, { "accept-encoding": "identity" });
      expect(answer.headers.get("x-answered-by"), target).toBeNull();
      expect(
        { status: answer.status, cacheControl: answer.headers.get("cache-control"), contentType: answer.headers.get("content-type"), body },
        target,
      ).toEqual(expected);
      expect(Object.keys(JSON.parse(body)).length, target).toBeGreaterThan(0);
    }
  });

  it("sends a page's routes compressed as the middleware would, and a second ask of a path the same", async () => {
    const target = discovery(["/courses", "/courses/x7", "/login", "/register", "/admin/students", "/admin/students/x7"]);
    const expected = await remixAnswer(target);
    for (const [coding, decode] of [
      ["br", zlib.brotliDecompressSync],
      ["gzip", zlib.gunzipSync],
    ] as const) {
      const raw = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(`${base}${target}`, { headers: { "accept-encoding": coding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on("data", (c: Buffer) => chunks.push(c));
            res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      });
      expect(raw.headers["content-encoding"]).toBe(coding);
      expect(raw.headers.vary).toBe("Accept-Encoding");
      expect(Number(raw.headers["content-length"])).toBe(raw.body.length);
      expect(decode(raw.body).toString()).toBe(expected.body);
    }
    expect((await stepAnswer(target)).body).toBe(expected.body);
    const head = await fetch(`${base}${target}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("leaves to Remix another build's version, no path asked, a URL over Remix's limit, and anything but a GET", async () => {
    const cases: Array<{ target: string; method?: string; status?: number }> = [
      // a page of an older build asks: Remix tells it to load the document again
      { target: discovery(["/courses"], "0ld0ld00"), status: 204 },
      { target: `/__manifest?version=${VERSION}`, status: 400 },
      { target: discovery(Array.from({ length: 400 }, (_, i) => `/courses/${"x".repeat(10)}${i}`)), status: 400 },
      // a form posted there: whatever Remix makes of it, the step never answers a write
      { target: discovery(["/courses"]), method: "POST" },
    ];
    for (const { target, method, status } of cases) {
      const answer = await fetch(`${base}${target}`, { method: method ?? "GET" });
      expect(answer.headers.get("x-answered-by"), target.slice(0, 80)).toBe("remix");
      if (status !== undefined) expect(answer.status, target.slice(0, 80)).toBe(status);
    }
    // the version mismatch answers as Remix's does: a reload, not the routes
    expect((await remixAnswer(discovery(["/courses"], "0ld0ld00"))).status).toBe(204);
  });
});
