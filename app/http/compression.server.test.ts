import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { COMPRESS_FROM_BYTES, compress, documentResponse, encodingFor } from "./compression.server";

const html = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Dogging — a course for slow phones</p>".repeat(200)}</body></html>`);
const request = (acceptEncoding?: string) =>
  new Request("http://localhost/courses", { headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding } });

describe("encodingFor", () => {
  it("prefers brotli, then gzip, and honours q=0 as a refusal", () => {
    expect(encodingFor("gzip, deflate, br, zstd")).toBe("br");
    expect(encodingFor("gzip")).toBe("gzip");
    expect(encodingFor("GZIP ; q=0.5")).toBe("gzip");
    expect(encodingFor("br;q=0, gzip")).toBe("gzip");
    expect(encodingFor("br;q=0.0, gzip;q=0")).toBe("identity");
    expect(encodingFor("*")).toBe("gzip");
    expect(encodingFor("deflate")).toBe("identity");
    expect(encodingFor("")).toBe("identity");
    expect(encodingFor(null)).toBe("identity");
  });
});

describe("documentResponse", () => {
  it("sends the whole document compressed in the accepted coding, with its length and Vary", async () => {
    for (const [accept, encoding, decode] of [
      ["gzip", "gzip", zlib.gunzipSync],
      ["gzip, deflate, br", "br", zlib.brotliDecompressSync],
    ] as const) {
      const response = documentResponse(request(accept), 200, new Headers({ "Content-Type": "text/html" }), html);
      const body = Buffer.from(await response.arrayBuffer());
      expect(response.headers.get("Content-Encoding")).toBe(encoding);
      expect(response.headers.get("Content-Length")).toBe(String(body.length));
      expect(response.headers.get("Vary")).toBe("Accept-Encoding");
      expect(body.length).toBeLessThan(html.length / 5);
      expect(decode(body).equals(html)).toBe(true);
    }
  });

  it("sends the document as it is to a client that accepts no coding, and a small one always", async () => {
    const plain = documentResponse(request(), 404, new Headers({ Vary: "Cookie" }), html);
    expect(plain.status).toBe(404);
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(plain.headers.get("Vary")).toBe("Cookie, Accept-Encoding");
    expect(Buffer.from(await plain.arrayBuffer()).equals(html)).toBe(true);

    const small = html.subarray(0, COMPRESS_FROM_BYTES - 1);
    const tiny = documentResponse(request("gzip"), 200, new Headers(), small);
    expect(tiny.headers.get("Content-Encoding")).toBeNull();
    expect(tiny.headers.get("Content-Length")).toBe(String(small.length));
  });
});

describe("compress", () => {
  it("works harder on a body that is stored and served many times", () => {
    const once = compress(html, "br", "once");
    const stored = compress(html, "br", "stored");
    expect(zlib.brotliDecompressSync(stored).equals(html)).toBe(true);
    expect(stored.length).toBeLessThanOrEqual(once.length);
    expect(compress(html, "identity")).toBe(html);
  });
});
