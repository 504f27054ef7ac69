import { describe, expect, it } from "vitest";
import { parseWith } from "~/utils/validation";
import { assessmentSchema } from "./assessment";
import { registrationSchema } from "./auth";
import { courseCreateSchema } from "./course";
import { cleanSearchTerm, optionalText, requiredText, usi } from "./fields";

const registration = {
  full_name: "Kim Lee",
  email: "kim@test.example",
  password: "password123",
  role: "student",
};

const course = {
  unit_code: "RIIHAN301",
  name: "Operate elevating work platform",
  description: "One line.",
  tier: "tier_1",
  duration_hours: 8,
  price: 100,
  is_active: true,
  prerequisites: [],
  learning_outcomes: ["Plan the work"],
  assessment_criteria: [],
};

describe("stored text is clean", () => {
  it("stores names NFC-normalised", () => {
    const parsed = requiredText("Full name").parse("Zoe\u0308 Cafe\u0301");
    expect(parsed).toBe("Zoë Café");
    expect(parsed).toBe(parsed.normalize("NFC"));
  });

  it.each([
    ["a NUL", "Kim\u0000Lee"],
    ["a bell", "Kim\u0007Lee"],
    ["a line feed", "Kim\nLee"],
    ["a carriage return", "Kim\rLee"],
    ["a tab", "Kim\tLee"],
    ["DEL", "Kim\u007fLee"],
    ["a C1 control", "Kim\u0085Lee"],
  ])("refuses %s in a one-line field, naming the field", (_what, value) => {
    const result = parseWith(registrationSchema, { ...registration, full_name: value });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.fieldErrors.full_name).toBe("Full name must be a single line without control characters");
  });

  it("refuses unpaired surrogates and bytes that were not UTF-8 (read as U+FFFD), naming the field, and keeps real emoji", () => {
    for (const lone of ["\uD83C", "a\uDFD7b", "Bad \uFFFD Bytes", new TextDecoder().decode(new Uint8Array([0x33, 0x20, 0xff, 0xfe]))]) {
      const result = parseWith(registrationSchema, { ...registration, emergency_contact: lone });
      expect(result.success).toBe(false);
      if (!result.success) expect(result.fieldErrors.emergency_contact).toBe("Emergency contact contains characters that are not valid text");
    }
    expect(optionalText("Emergency contact").parse("Sam 🏗️👷‍♀️")).toBe("Sam 🏗️👷‍♀️");
  });

  it("allows line breaks in multi-line fields only (stored as \\n), never other controls", () => {
    const ok = parseWith(courseCreateSchema, { ...course, description: "First line\r\nSecond line\rThird" });
    expect(ok.success && ok.data.description).toBe("First line\nSecond line\nThird");
    const named = parseWith(courseCreateSchema, { ...course, name: "Operate\r\nplatform" });
    expect(named.success).toBe(false);
    if (!named.success) expect(named.fieldErrors.name).toBe("Course name must be a single line without control characters");
    const bell = parseWith(courseCreateSchema, { ...course, description: "Ring\u0007" });
    expect(bell.success).toBe(false);
    if (!bell.success) expect(bell.fieldErrors.description).toBe("Description must not contain control characters");
    const listEntry = parseWith(courseCreateSchema, { ...course, learning_outcomes: ["Plan\u0000"] });
    expect(listEntry.success).toBe(false);
    const address = parseWith(registrationSchema, { ...registration, address: "1 Crane St\nPerth WA" });
    expect(address.success && address.data.address).toBe("1 Crane St\nPerth WA");
  });

  it("refuses control characters in assessment feedback other than line breaks", () => {
    const base = { enrollment_id: crypto.randomUUID(), assessment_type: "Written", status: "in_progress", assessment_date: "2024-01-02" };
    expect(parseWith(assessmentSchema, { ...base, feedback: "Good\nwork" }).success).toBe(true);
    const bad = parseWith(assessmentSchema, { ...base, feedback: "Good\u0000work" });
    expect(bad.success).toBe(false);
    if (!bad.success) expect(bad.fieldErrors.feedback).toBe("Feedback must not contain control characters");
  });

  it("still says a missing required field is required", () => {
    const result = parseWith(registrationSchema, { ...registration, full_name: undefined });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.fieldErrors.full_name).toBe("Full name is required");
  });
});

describe("search terms", () => {
  it("become plain text whatever bytes arrive", () => {
    expect(cleanSearchTerm("ab\u0000cd")).toBe("ab cd");
    expect(cleanSearchTerm("\u0000\u0001")).toBe("");
    expect(cleanSearchTerm("x\uD800y")).toBe("x\uFFFDy");
    expect(cleanSearchTerm("e\u0301cole")).toBe("école");
    expect([...cleanSearchTerm("🏗️".repeat(80), 101)].length).toBeLessThanOrEqual(101);
    expect(cleanSearchTerm('"a" OR b* NEAR(c)')).toBe('"a" OR b* NEAR(c)');
  });
});

describe("usi field", () => {
  it("stores a USI trimmed and upper-cased, blank as null", () => {
    expect(usi.parse(" 2gf2ugxxv8 ")).toBe("2GF2UGXXV8");
    expect(usi.parse(" intoff")).toBe("INTOFF");
    expect(usi.parse("  ")).toBeNull();
    expect(usi.parse(undefined)).toBeNull();
    expect(usi.parse(null)).toBeNull();
  });

  it("refuses anything else with one message", () => {
    for (const bad of ["5U9HD88TA3", "HGDFSGYHIG", "2GF2UGXXV", "2GF2UGXXV8X", "x".repeat(10_000), 12, true, ["2GF2UGXXV8"]]) {
      const result = usi.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("Enter a valid USI (10 characters)");
    }
  });
});
