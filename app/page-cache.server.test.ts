import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearPageCache, documentCacheControl, rememberDocument, serveFromPageCache } from "./page-cache.server";

const NONCE = "cmVuZGVyLW5vbmNlLTEyMw==";
const html = Buffer.from(`<!DOCTYPE html><html><body><h1>Courses</h1><script nonce="${NONCE}">window.x=1</script></body></html>`);
/** The page with whatever nonce it was served with replaced, to compare content. */
const withoutNonce = (text: string) => text.replace(/nonce="[^"]*"/g, 'nonce=""');
const headers = () => new Headers({ "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=60" });
const request = (path: string, cookie?: string, method = "GET") =>
  new Request(`http://localhost${path}`, { method, headers: cookie ? { Cookie: cookie } : {} });

let server: http.Server;
let base = "";
let reachedApp = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (serveFromPageCache(req, res)) return;
    reachedApp++;
    res.writeHead(200, { "Content-Type": "text/plain" }).end("from the app");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  clearPageCache();
  reachedApp = 0;
});

describe("documentCacheControl", () => {
  it("lets shared caches keep the anonymous landing page and catalogue only", () => {
    expect(documentCacheControl(request("/"))).toBe("public, max-age=60");
    expect(documentCacheControl(request("/courses?tier=tier_1"))).toBe("public, max-age=60");
    expect(documentCacheControl(request("/courses", "__session=abc"))).toBe("private, no-store");
    expect(documentCacheControl(request("/", "theme=dark; __flash=xyz"))).toBe("private, no-store");
    expect(documentCacheControl(request("/student/overview"))).toBe("private, no-store");
    expect(documentCacheControl(request("/login"))).toBe("private, no-store");
  });
});

describe("the page cache", () => {
  it("answers a remembered anonymous page with the same bytes, gzipped on request, and 304 on a matching ETag", async () => {
    rememberDocument(request("/courses"), 200, headers(), html, NONCE);
    const plain = await fetch(`${base}/courses`, { headers: { "Accept-Encoding": "identity" } });
    const text = await plain.text();
    expect(withoutNonce(text)).toBe(withoutNonce(html.toString()));
    expect(plain.headers.get("cache-control")).toBe("public, max-age=60");
    expect(plain.headers.get("vary")).toContain("Cookie");
    const etag = plain.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);

    const gzipped = () =>
      new Promise<{ encoding?: string; csp?: string; body: Buffer }>((resolve, reject) => {
        http.get(`${base}/courses`, { headers: { "Accept-Encoding": "gzip" } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ encoding: res.headers["content-encoding"], csp: String(res.headers["content-security-policy"] ?? ""), body: Buffer.concat(chunks) }),
          );
        }).on("error", reject);
      });
    // The stored page is compressed once; each hit joins it with its own nonce. gunzip checks
    // the joined stream's CRC-32 and length.
    const nonces = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const gz = await gzipped();
      expect(gz.encoding).toBe("gzip");
      const page = zlib.gunzipSync(gz.body).toString();
      expect(withoutNonce(page)).toBe(withoutNonce(html.toString()));
      const nonce = /nonce="([^"]+)"/.exec(page)![1]!;
      expect(nonce).not.toBe(NONCE);
      expect(gz.csp).toContain(`'nonce-${nonce}'`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(2);

    const revalidated = await fetch(`${base}/courses`, { headers: { "If-None-Match": etag } });
    expect(revalidated.status).toBe(304);
    expect(reachedApp).toBe(0);
  });

  it("gives every hit its own CSP nonce, in the page and the header, with a stable ETag", async () => {
    rememberDocument(request("/courses"), 200, headers(), html, NONCE);
    const seen = new Set<string>();
    let etag: string | null = null;
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/courses`, { headers: { "Accept-Encoding": "identity" } });
      const nonce = /nonce="([^"]+)"/.exec(await response.text())![1]!;
      expect(nonce).not.toBe(NONCE);
      expect(response.headers.get("content-security-policy")).toContain(`'nonce-${nonce}'`);
      seen.add(nonce);
      etag ??= response.headers.get("etag");
      expect(response.headers.get("etag")).toBe(etag);
    }
    expect(seen.size).toBe(3);
    const revalidated = await fetch(`${base}/courses`, { headers: { "If-None-Match": etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
  });

  it("never answers a signed-in visitor, another URL, or a page that set a cookie", async () => {
    rememberDocument(request("/courses"), 200, headers(), html, NONCE);
    const withSetCookie = headers();
    withSetCookie.append("Set-Cookie", "__flash=; Max-Age=0");
    rememberDocument(request("/"), 200, withSetCookie, html, NONCE);
    rememberDocument(request("/courses?q=dog", "__session=abc"), 200, headers(), html, NONCE);

    expect(await (await fetch(`${base}/courses`, { headers: { Cookie: "__session=abc" } })).text()).toBe("from the app");
    expect(await (await fetch(`${base}/`)).text()).toBe("from the app");
    expect(await (await fetch(`${base}/courses?q=dog`)).text()).toBe("from the app");
    expect(await (await fetch(`${base}/courses?tier=tier_2`)).text()).toBe("from the app");
    expect(reachedApp).toBe(4);
  });

  it("forgets every page after any write", async () => {
    rememberDocument(request("/courses"), 200, headers(), html, NONCE);
    await fetch(`${base}/admin/courses/new`, { method: "POST", body: "x=1" });
    expect(await (await fetch(`${base}/courses`)).text()).toBe("from the app");
  });
});
