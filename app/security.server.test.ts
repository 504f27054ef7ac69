import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, isCrossSite } from "./security.server";

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

describe("content security policy", () => {
  it("allows only this origin's scripts, with the render's nonce, and no framing", () => {
    const csp = contentSecurityPolicy("abc123");
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
  });
});
