import { describe, expect, it } from "vitest";
import { COUNTRIES, LANGUAGES, labelOf } from "./avetmiss-codes";

describe("the ABS classifications as data", () => {
  it("every country of SACC, each code once", () => {
    expect(COUNTRIES).toHaveLength(255);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    expect(COUNTRIES.every((c) => /^\d{4}$/.test(c.code))).toBe(true);
    expect(COUNTRIES[0]).toEqual({ code: "1101", label: "Australia" });
    for (const [code, name] of [
      ["1201", "New Zealand"],
      ["2102", "England"],
      ["6101", "China (excludes SARs and Taiwan)"],
      ["7103", "India"],
      ["5204", "Philippines"],
      ["5105", "Vietnam"],
      ["8104", "United States of America"],
      ["4111", "South Sudan"],
      ["3216", "Kosovo"],
    ]) {
      expect(labelOf(COUNTRIES, code)).toBe(name);
    }
    expect(COUNTRIES.some((c) => c.code === "9999")).toBe(false);
  });

  it("every language of ASCL with its broad groups, each code once", () => {
    expect(LANGUAGES).toHaveLength(381);
    expect(new Set(LANGUAGES.map((c) => c.code)).size).toBe(LANGUAGES.length);
    expect(LANGUAGES[0]).toEqual({ code: "1201", label: "English only" });
    for (const [code, name] of [
      ["7104", "Mandarin"],
      ["7101", "Cantonese"],
      ["4202", "Arabic"],
      ["6302", "Vietnamese"],
      ["2401", "Italian"],
      ["2201", "Greek"],
      ["9701", "Auslan"],
      ["8924", "Kriol"],
      ["8714", "Pitjantjatjara"],
    ]) {
      expect(labelOf(LANGUAGES, code)).toBe(name);
    }
    expect(LANGUAGES.some((c) => c.code === "9999")).toBe(false);
  });
});
