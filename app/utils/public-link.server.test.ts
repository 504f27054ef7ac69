import { describe, expect, it } from "vitest";
import { invitationLink, linkOrigin, passwordResetLink, publicLink } from "./public-link.server";

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

  it("carry a reset's or an invitation's token under the same rule, encoded", () => {
    expect(invitationLink(at("http://localhost:3000/employer/bookings/new"), "a/b c", "/invitation", undefined)).toBe(
      "http://localhost:3000/invitation/a%2Fb%20c",
    );
    expect(invitationLink(at("http://127.0.0.1:3103/admin/employers/1"), "tok", "/employer-invitation", undefined)).toBe(
      "http://127.0.0.1:3103/employer-invitation/tok",
    );
    expect(invitationLink(at("http://evil.example/employer/bookings/new"), "tok", "/invitation", undefined)).toBeNull();
    expect(invitationLink(at("http://evil.example/x"), "tok", "/invitation", "https://portal.example.com/")).toBe("https://portal.example.com/invitation/tok");
    expect(passwordResetLink(at("http://evil.example/forgot-password"), "tok", undefined)).toBeNull();
    expect(passwordResetLink(at("http://[::1]:3000/forgot-password"), "tok", undefined)).toBe("http://[::1]:3000/reset-password/tok");
  });
});
