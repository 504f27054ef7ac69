import path from "node:path";
import { describe, expect, it } from "vitest";
import { assetFile } from "./static-assets.server";

describe("assetFile: which /build/ paths the brotli step may read", () => {
  const dir = path.resolve("build/client");

  it("names a script or stylesheet under the client build", () => {
    expect(assetFile("/build/_shared/chunk-ABC.js", dir)).toBe(path.join(dir, "_shared/chunk-ABC.js"));
    expect(assetFile("/build/_assets/tailwind-X.css", dir)).toBe(path.join(dir, "_assets/tailwind-X.css"));
  });

  it("refuses anything else: other types, other prefixes, climbing out, empty or undecodable parts", () => {
    for (const url of [
      "/build/manifest.json",
      "/favicon.svg",
      "/build/../index.js",
      "/build/%2e%2e/secret.js",
      "/build//x.js",
      "/build/%E0%A4%A.js",
      "/other/x.js",
    ]) {
      expect(assetFile(url, dir), url).toBeNull();
    }
  });
});
