import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { returnPath, safeRedirect, withReturn } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps a path of this site with its query", () => {
    expect(safeRedirect("/student/courses")).toBe("/student/courses");
    expect(safeRedirect("/enroll/abc?x=1")).toBe("/enroll/abc?x=1");
  });

  it.each([
    "//evil.example/x",
    "/\\evil.example",
    "/\\/evil.example",
    "/student/courses\\..\\x",
    "https://evil.example",
    "evil.example",
    "/student/courses;x",
    "/student/courses\r\nSet-Cookie: x=1",
    "/student/\ncourses",
    "/student/\tcourses",
    "/x\u0000",
    "/ //evil.example",
    "/..//evil.example",
    "/a/..//x",
    "/%2e%2e//x",
    "/%2E%2E//evil.example/path",
    "/./..//x",
    "/a/b/../..//x?y=1",
    "//evil.com",
    "https://evil.com",
    "/\\evil.com",
    "\\/evil.com",
    "%2F%2Fevil.com",
    "/%2e%2e/%2e%2e//evil.com",
    "javascript:alert(1)",
    " /enroll/x",
    "",
  ])("refuses %j", (target) => {
    expect(safeRedirect(target)).toBe("/dashboard");
  });

  it("whatever the target, the answer resolves to this site", () => {
    const pieces = fc.constantFrom("/", "//", "..", ".", "%2e", "%2E", "\\", "evil.example", "a", "?", "#", "@", ":", "%2f", "%5c");
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const target = parts.join("");
        const answer = safeRedirect(target);
        expect(new URL(answer, "http://site.example/some/page").origin).toBe("http://site.example");
        expect(answer.startsWith("//")).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("returnPath and withReturn: where a visitor goes back to after registering and signing in", () => {
  it("carries a course's enrolment page through the sign-in pages", () => {
    expect(returnPath("/enroll/abc")).toBe("/enroll/abc");
    expect(withReturn("/register", returnPath("/enroll/abc"))).toBe("/register?redirectTo=%2Fenroll%2Fabc");
    expect(withReturn("/login", "/enroll/abc")).toBe("/login?redirectTo=%2Fenroll%2Fabc");
  });

  it.each([null, "", "/dashboard", "//evil.com", "https://evil.com", "/\\evil.com", "%2F%2Fevil.com", "/%2e%2e//evil.com", "/x\r\nLocation: https://evil.com"])(
    "carries nothing for %j, so the pages' links stay plain",
    (target) => {
      expect(returnPath(target)).toBeNull();
      expect(withReturn("/login", returnPath(target))).toBe("/login");
    },
  );

  it("an encoded host stays a path of this site", () => {
    // decoded once by URLSearchParams, `%2F%2Fevil.com` is `//evil.com` and refused; encoded twice it is a harmless path
    expect(returnPath(new URLSearchParams("redirectTo=%2F%2Fevil.com").get("redirectTo"))).toBeNull();
    expect(returnPath(new URLSearchParams("redirectTo=%2F%5Cevil.com").get("redirectTo"))).toBeNull();
    const twice = returnPath(new URLSearchParams("redirectTo=%2F%252F%252Fevil.com").get("redirectTo"));
    expect(twice).toBe("/%2F%2Fevil.com");
    expect(new URL(twice!, "http://site.example/").origin).toBe("http://site.example");
  });
});
