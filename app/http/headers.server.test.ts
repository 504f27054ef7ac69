import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes } from "./headers.server";

describe("content security policy", () => {
  it("allows only this origin's scripts, with the render's nonce, and no framing", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123" });
    expect(csp).toContain("script-src 'self' 'nonce-abc123'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
  });

  it("allows a stored page's inline scripts by their hashes", () => {
    const csp = contentSecurityPolicy({ hashes: ["sha256-AAA=", "sha256-BBB="] });
    expect(csp).toContain("script-src 'self' 'sha256-AAA=' 'sha256-BBB='");
    expect(csp).not.toContain("nonce");
  });
});

describe("inline script hashes", () => {
  const sha = (text: string) => `sha256-${crypto.createHash("sha256").update(text).digest("base64")}`;

  it("hash each inline script's text exactly, skipping external and empty scripts", () => {
    const first = 'window.__remixContext = {"a":"<\\/b>"};';
    const second = '\n  import "/build/entry.client.js";\n';
    const html = `<html><head><script src="/build/x.js"></script></head><body><script>${first}</script><SCRIPT type="module" async="">${second}</SCRIPT><script></script></body></html>`;
    expect(inlineScriptHashes(html)).toEqual([sha(first), sha(second)]);
  });
});
