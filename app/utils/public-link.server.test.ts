import { describe, expect, it } from "vitest";
import { linkOrigin, publicLink } from "./public-link.server";

describe("links that leave the portal", () => {
  const at = (url: string) => new Request(url);

  it("use APP_URL when set, whatever host the request named", () => {
    expect(publicLink(at("http://evil.example/x"), "/verify/ABC", "https://portal.example.com/")).toBe("https://portal.example.com/verify/ABC");
    expect(linkOrigin(null, "https://portal.example.com")).toBe("https://portal.example.com");
  });

  it("without APP_URL use the request's origin only when it is loopback", () => {
    expect(linkOrigin(at("http://localhost:3000/a"), undefined)).toBe("http://localhost:3000");
    expect(linkOrigin(at("http://127.0.0.1:3103/a"), undefined)).toBe("http://127.0.0.1:3103");
    expect(linkOrigin(at("http://[::1]:3000/a"), undefined)).toBe("http://[::1]:3000");
    expect(linkOrigin(at("http://portal.example.com/a"), undefined)).toBeNull();
    expect(linkOrigin(at("http://localhost.evil.example/a"), undefined)).toBeNull();
    expect(linkOrigin(null, undefined)).toBeNull();
  });
});
