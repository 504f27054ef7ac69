import { describe, expect, it } from "vitest";
import { formatAbn, isAbn, normaliseAbn } from "./abn";

/** ABNs published by their holders on the Australian Business Register. */
const PUBLISHED = {
  "Australian Taxation Office": "51 824 753 556",
  "Telstra Corporation": "33 051 775 556",
  "BHP Group": "49 004 028 077",
  "Commonwealth Bank of Australia": "48 123 123 124",
  "Qantas Airways": "16 009 661 901",
};

describe("ABN check digits", () => {
  it.each(Object.entries(PUBLISHED))("accepts the ABN of %s", (_name, abn) => {
    expect(isAbn(abn)).toBe(true);
    expect(isAbn(normaliseAbn(abn))).toBe(true);
  });

  it("refuses a published ABN with one digit changed, or two swapped", () => {
    expect(isAbn("51 824 753 557")).toBe(false);
    expect(isAbn("15 824 753 556")).toBe(false);
    expect(isAbn("33 051 775 565")).toBe(false);
  });

  it("refuses the wrong length, letters and other marks", () => {
    expect(isAbn("5182475355")).toBe(false);
    expect(isAbn("518247535560")).toBe(false);
    expect(isAbn("5182475355a")).toBe(false);
    expect(isAbn("51-824-753-556")).toBe(false);
    expect(isAbn("")).toBe(false);
  });

  it("writes the digits in the register's groups", () => {
    expect(formatAbn("51824753556")).toBe("51 824 753 556");
  });
});
