import { describe, expect, it } from "vitest";
import { parseWith } from "~/utils/validation";
import { courseEditSchema } from "./course";
import { accreditationSchema, assessorLicenceSchema, bookingSchema, hrwReportQuery, licenceClass, prerequisiteCheckSchema } from "./hrw";
import { courseValidationSchema } from "./standards";

const LICENCE_CLASS_MESSAGE = "Choose a licence class from the list";

/** The message a schema gives `field` for `input`. */
function messageAt(schema: Parameters<typeof parseWith>[0], input: Record<string, unknown>, field: string): string | undefined {
  const parsed = parseWith(schema, input);
  if (parsed.success) return undefined;
  return parsed.fieldErrors[field];
}

describe("a licence class not on the list is named as one, in every form and /api call that takes one", () => {
  it("the class itself says what to choose", () => {
    expect(licenceClass.safeParse("ZZ").error?.issues[0]?.message).toBe(LICENCE_CLASS_MESSAGE);
  });

  it("a course's licence class (the course form and the /api course calls), which may be blank", () => {
    expect(messageAt(courseEditSchema.pick({ licence_class: true }), { licence_class: "ZZ" }, "licence_class")).toBe(LICENCE_CLASS_MESSAGE);
    expect(messageAt(courseEditSchema.pick({ licence_class: true }), { licence_class: 7 }, "licence_class")).toBe(LICENCE_CLASS_MESSAGE);
    expect(parseWith(courseEditSchema.pick({ licence_class: true }), { licence_class: "" })).toEqual({ success: true, data: { licence_class: null } });
    expect(parseWith(courseEditSchema.pick({ licence_class: true }), { licence_class: "CT" })).toEqual({ success: true, data: { licence_class: "CT" } });
  });

  it("a course's prerequisite classes, an accreditation's classes and a candidate's prerequisite licence", () => {
    expect(messageAt(courseEditSchema.pick({ licence_prerequisites: true }), { licence_prerequisites: ["ZZ"] }, "licence_prerequisites")).toBe(
      LICENCE_CLASS_MESSAGE,
    );
    const accreditation = { regulator: "VIC", number: "A-1", classes: ["ZZ"], starts_on: "2026-01-01", expires_on: "2027-01-01" };
    expect(messageAt(accreditationSchema, accreditation, "classes")).toBe(LICENCE_CLASS_MESSAGE);
    expect(messageAt(prerequisiteCheckSchema, { licence_class: "ZZ", licence_number: "1", expires_on: "2027-01-01" }, "licence_class")).toBe(
      LICENCE_CLASS_MESSAGE,
    );
  });
});

describe("the other optional fields of the licence forms say what is wrong, never zod's bare words", () => {
  it("a state, a licence expiry and a report's period", () => {
    expect(messageAt(bookingSchema.pick({ state: true }), { state: "XX" }, "state")).toBe("Choose a state or territory from the list");
    expect(messageAt(assessorLicenceSchema, { licence_expires_on: "2026-02-30" }, "licence_expires_on")).toBe("Enter a real date");
    expect(messageAt(hrwReportQuery, { from: "next week" }, "from")).toBe("Enter the date as YYYY-MM-DD");
    expect(parseWith(assessorLicenceSchema, { licence_number: "", licence_expires_on: "" })).toEqual({
      success: true,
      data: { licence_number: null, licence_expires_on: null },
    });
  });

  it("a course validation's optional days", () => {
    expect(messageAt(courseValidationSchema.pick({ next_due_on: true }), { next_due_on: "31/12/2027" }, "next_due_on")).toBe("Enter the date as YYYY-MM-DD");
  });
});
