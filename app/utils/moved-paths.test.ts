import { describe, expect, it } from "vitest";
import { MOVED_PATHS, movedPath } from "./moved-paths";

describe("moved addresses", () => {
  it("sends the old enrolment-details address to its new one, keeping the query string", () => {
    expect(movedPath(new URL("https://portal.example/student/profile/enrolment"))).toBe("/student/profile/enrollment");
    expect(movedPath(new URL("https://portal.example/student/profile/enrolment/?from=mail"))).toBe("/student/profile/enrollment?from=mail");
  });

  it("leaves every other address alone", () => {
    expect(movedPath(new URL("https://portal.example/student/profile/enrolments"))).toBeNull();
    expect(movedPath(new URL("https://portal.example/"))).toBeNull();
  });

  it("never sends an address to another old one or to itself (no redirect loops)", () => {
    for (const [from, to] of Object.entries(MOVED_PATHS)) {
      expect(to).not.toBe(from);
      expect(MOVED_PATHS[to]).toBeUndefined();
      expect(to.startsWith("/") && !to.startsWith("//")).toBe(true);
    }
  });
});
