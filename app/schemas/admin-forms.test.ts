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
    const result = parseWith(studentUpdateSchema, studentFormInput(form([["full_name", " "], ["email", "nope"]])));
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.fieldErrors.full_name).toBe("Full name is required");
      expect(result.fieldErrors.email).toBe("Enter a valid email address");
    }
  });
});

describe("course schemas", () => {
  it("parses numbers as decimals, blank as 0, and refuses negative or non-numeric values", () => {
    const ok = courseEditSchema.parse({ name: "N", description: "D", duration_hours: "", price: "12.345", learning_outcomes: [], assessment_criteria: [] });
    expect(ok).toMatchObject({ duration_hours: 0, price: 12.35 });
    expect(courseEditSchema.parse({ name: "N", description: "D", duration_hours: 7.5, price: 0, learning_outcomes: [], assessment_criteria: [] }).duration_hours).toBe(7.5);
    const bad = parseWith(courseEditSchema, { name: "N", description: "D", duration_hours: "-3", price: "abc", learning_outcomes: [], assessment_criteria: [] });
    expect(bad.success).toBe(false);
    if (!bad.success) {
      expect(bad.fieldErrors.duration_hours).toBe("Duration cannot be negative");
      expect(bad.fieldErrors.price).toBe("Price must be a number");
    }
    const negativeJson = parseWith(coursePatchSchema, { price: -1 });
    expect(negativeJson.success).toBe(false);
    const huge = parseWith(coursePatchSchema, { price: "1e9" });
    expect(huge.success).toBe(false);
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
    const one = courseFormInput(form([["name", "N"], ["learning_outcomes", "only"], ["assessment_criteria_present", "1"], ["intent", "save"]]));
    expect(one).toEqual({ name: "N", learning_outcomes: ["only"], assessment_criteria: [] });
    const many = courseFormInput(form([["learning_outcomes", "a"], ["learning_outcomes", "b"], ["is_active_present", "1"]]));
    expect(many).toEqual({ learning_outcomes: ["a", "b"], is_active: false });
    expect(courseFormInput(form([["is_active", "on"], ["is_active_present", "1"]]))).toEqual({ is_active: true });
  });

  it("validates a whole new course with readable messages", () => {
    const result = parseWith(courseCreateSchema, courseFormInput(form([["unit_code", "bad code!"], ["tier", "tier_9"], ["is_active_present", "1"]])));
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
