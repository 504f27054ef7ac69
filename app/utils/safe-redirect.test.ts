import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

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
    "",
  ])("refuses %j", (target) => {
    expect(safeRedirect(target)).toBe("/dashboard");
  });
});
