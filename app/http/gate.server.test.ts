import { describe, expect, it } from "vitest";
import { isCrossSite } from "./gate.server";

const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];

describe("cross-site detection", () => {
  it("accepts same-origin writes and clients that send no browser headers", () => {
    expect(isCrossSite(headers({ host: "portal.example", origin: "https://portal.example" }))).toBe(false);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "same-origin" }))).toBe(false);
    expect(isCrossSite(headers({ host: "portal.example" }))).toBe(false);
  });

  it("refuses another site by Origin or Sec-Fetch-Site, and the opaque null origin", () => {
    expect(isCrossSite(headers({ host: "portal.example", origin: "https://evil.example" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "cross-site" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", "sec-fetch-site": "same-site" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", origin: "null" }))).toBe(true);
    expect(isCrossSite(headers({ host: "portal.example", origin: "::garbage::" }))).toBe(true);
  });

  it("honours the proxy's forwarded host", () => {
    expect(isCrossSite(headers({ host: "10.0.0.5:3000", "x-forwarded-host": "portal.example", origin: "https://portal.example" }))).toBe(false);
  });
});

describe("the gate at the front door", () => {
  it("answers an /api URL that does not decode with JSON {detail}, and leaves other requests alone", async () => {
    const http = await import("node:http");
    const { refuseAtTheGate } = await import("./gate.server");
    const server = http.createServer((req, res) => {
      if (!refuseAtTheGate(req, res)) res.end("through");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as import("node:net").AddressInfo;
    try {
      const bad = await fetch(`http://127.0.0.1:${port}/api/courses/%E0%A4%A`);
      expect(bad.status).toBe(400);
      expect(bad.headers.get("content-type")).toBe("application/json");
      expect(await bad.json()).toEqual({ detail: expect.stringMatching(/not valid/) });
      expect(await (await fetch(`http://127.0.0.1:${port}/api/courses/%E0%A4%A4`)).text()).toBe("through");
    } finally {
      server.close();
    }
  });
});
