import { describe, expect, it } from "vitest";
import { applyListIntent, cleanList, courseCreateSchema, courseEditSchema, courseFormInput, coursePatchSchema, parseListIntent } from "./course";
import { studentFormInput, studentPatchSchema, studentUpdateSchema } from "./student";
import { parseWith } from "~/utils/validation";

function form(entries: Array<[string, string]>) {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

describe("student schemas", () => {
  it("the partial schema leaves out what is not sent (no defaults, no nulls)", () => {
    expect(studentPatchSchema.parse({})).toEqual({});
    expect(studentPatchSchema.parse({ is_active: false })).toEqual({ is_active: false });
    expect(studentPatchSchema.parse({ phone: "" })).toEqual({ phone: null });
  });

  it("the form turns the Active checkbox into a boolean", () => {
    const base: Array<[string, string]> = [
      ["full_name", "Pat Lee"],
      ["email", "PAT@x.example"],
      ["phone", ""],
      ["address", ""],
      ["date_of_birth", ""],
      ["emergency_contact", ""],
      ["license_number", ""],
    ];
    expect(studentUpdateSchema.parse(studentFormInput(form([...base, ["is_active", "on"]])))).toMatchObject({ is_active: true, email: "pat@x.example" });
    expect(studentUpdateSchema.parse(studentFormInput(form(base)))).toMatchObject({ is_active: false, phone: null });
  });

  it("requires a name and a valid email", () => {
    const result = parseWith(
      studentUpdateSchema,
      studentFormInput(
        form([
          ["full_name", " "],
          ["email", "nope"],
        ]),
      ),
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.fieldErrors.full_name).toBe("Full name is required");
      expect(result.fieldErrors.email).toBe("Enter a valid email address");
    }
  });
});

describe("course schemas", () => {
  it("parses numbers as decimals and refuses blank, zero hours, negative or non-numeric values by name", () => {
    const base = { name: "N", description: "D", learning_outcomes: [], assessment_criteria: [] };
    const ok = courseEditSchema.parse({ ...base, duration_hours: "16", price: "12.345" });
    expect(ok).toMatchObject({ duration_hours: 16, price: 12.35 });
    expect(courseEditSchema.parse({ ...base, duration_hours: 7.5, price: 0 })).toMatchObject({ duration_hours: 7.5, price: 0 });
    const messages = (input: Record<string, unknown>) => {
      const result = parseWith(coursePatchSchema, input);
      return result.success ? null : result.fieldErrors;
    };
    // a cleared box used to be read as 0: a unit of no nominal hours, free of charge
    expect(messages({ duration_hours: "" })).toEqual({ duration_hours: "Duration is required" });
    expect(messages({ price: "  " })).toEqual({ price: "Price is required" });
    expect(messages({ duration_hours: null, price: null })).toEqual({ duration_hours: "Duration is required", price: "Price is required" });
    expect(messages({ duration_hours: 0 })).toEqual({ duration_hours: "Duration must be more than 0" });
    expect(messages({ duration_hours: "0.0" })).toEqual({ duration_hours: "Duration must be more than 0" });
    expect(messages({ duration_hours: "-3", price: "abc" })).toEqual({ duration_hours: "Duration cannot be negative", price: "Price must be a number" });
    expect(messages({ duration_hours: "12 hours", price: true })).toEqual({ duration_hours: "Duration must be a number", price: "Price must be a number" });
    expect(messages({ price: -1 })).toEqual({ price: "Price cannot be negative" });
    expect(messages({ price: "1e9" })).toEqual({ price: "Price must be a number" });
    expect(messages({ duration_hours: 10_001 })).toEqual({ duration_hours: "Duration must be at most 10,000" });
    expect(messages({ price: "0" })).toBeNull();
  });

  it("takes the unit's official title: trimmed, blank as none, at most NAT00060's 100 characters", () => {
    expect(coursePatchSchema.parse({ official_title: "  Licence to perform dogging " })).toEqual({ official_title: "Licence to perform dogging" });
    expect(coursePatchSchema.parse({ official_title: "   " })).toEqual({ official_title: null });
    expect(coursePatchSchema.parse({ official_title: null })).toEqual({ official_title: null });
    expect(
      courseEditSchema.parse({ name: "N", description: "D", duration_hours: 1, price: 1, learning_outcomes: [], assessment_criteria: [] }).official_title ??
        null,
    ).toBeNull();
    const long = parseWith(coursePatchSchema, { official_title: "x".repeat(101) });
    expect(long.success ? null : long.fieldErrors).toEqual({ official_title: "Official unit title must be at most 100 characters" });
    const twoLines = parseWith(coursePatchSchema, { official_title: "Licence\nto dog" });
    expect(twoLines.success ? null : twoLines.fieldErrors.official_title).toBe("Official unit title must be a single line without control characters");
    expect(parseWith(coursePatchSchema, { official_title: 42 }).success).toBe(false);
  });

  it("the partial schema keeps only what is sent (the toggle sends only is_active)", () => {
    expect(coursePatchSchema.parse({ is_active: false })).toEqual({ is_active: false });
    expect(coursePatchSchema.parse({})).toEqual({});
    expect(parseWith(coursePatchSchema, { is_active: "yes" }).success).toBe(false);
  });

  it("drops blank list entries before saving", () => {
    expect(cleanList(["  a ", "", "   ", "b"])).toEqual(["a", "b"]);
    const parsed = coursePatchSchema.parse({ learning_outcomes: ["x", " "], assessment_criteria: [""] });
    expect(parsed).toEqual({ learning_outcomes: ["x"], assessment_criteria: [] });
  });

  it("reads repeated inputs as lists, one entry or none included", () => {
    const one = courseFormInput(
      form([
        ["name", "N"],
        ["learning_outcomes", "only"],
        ["assessment_criteria_present", "1"],
        ["intent", "save"],
      ]),
    );
    expect(one).toEqual({ name: "N", learning_outcomes: ["only"], assessment_criteria: [] });
    const many = courseFormInput(
      form([
        ["learning_outcomes", "a"],
        ["learning_outcomes", "b"],
        ["is_active_present", "1"],
      ]),
    );
    expect(many).toEqual({ learning_outcomes: ["a", "b"], is_active: false });
    expect(
      courseFormInput(
        form([
          ["is_active", "on"],
          ["is_active_present", "1"],
        ]),
      ),
    ).toEqual({ is_active: true });
  });

  it("validates a whole new course with readable messages", () => {
    const result = parseWith(
      courseCreateSchema,
      courseFormInput(
        form([
          ["unit_code", "bad code!"],
          ["tier", "tier_9"],
          ["is_active_present", "1"],
        ]),
      ),
    );
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.fieldErrors.unit_code).toBe("Unit code may use only letters and digits");
      expect(result.fieldErrors.tier).toBe("Tier must be Tier 1, Tier 2 or Tier 3");
      expect(result.fieldErrors.name).toBe("Course name is required");
      expect(result.fieldErrors.description).toBe("Description is required");
    }
  });
});

describe("list buttons without JavaScript", () => {
  it("reads the intent of each add and remove button", () => {
    expect(parseListIntent("add-outcome")).toEqual({ list: "learning_outcomes", op: "add" });
    expect(parseListIntent("remove-criterion-2")).toEqual({ list: "assessment_criteria", op: "remove", index: 2 });
    expect(parseListIntent("add-prerequisite")).toEqual({ list: "prerequisites", op: "add" });
    expect(parseListIntent("save")).toBeNull();
    expect(parseListIntent("remove-outcome")).toBeNull();
    expect(parseListIntent("add-outcome-1")).toBeNull();
    expect(parseListIntent(null)).toBeNull();
  });

  it("adds a blank entry or removes the one asked for", () => {
    expect(applyListIntent(["a", "b"], { op: "add" })).toEqual(["a", "b", ""]);
    expect(applyListIntent(["a", "b", "c"], { op: "remove", index: 1 })).toEqual(["a", "c"]);
    expect(applyListIntent(["a"], { op: "remove", index: 5 })).toEqual(["a"]);
  });
});
