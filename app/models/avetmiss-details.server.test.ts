import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { enrollmentDetailsSchema } from "~/schemas/avetmiss-details";
import { locationSchema } from "~/schemas/location";
import { studentPatchSchema } from "~/schemas/student";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeUser } from "../../tests/support/factories";
import { getAvetmissDetails, PRIOR_EDUCATION_TYPES_REQUIRED, updateEnrollmentDetails } from "./avetmiss-details.server";
import { createEnrollment } from "~/models/enrollment.server";
import { createLocation, defaultLocationId, LOCATION_IDENTIFIER_TAKEN, listLocations, updateLocation } from "~/models/location.server";
import { getStudentDetail, updateStudent } from "~/models/student.server";
import { registerUser } from "~/models/user.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const registration = (email: string, role: "student" | "trainer" = "student") => ({
  full_name: "Kim Lee",
  email,
  password: "Rigging-Kestrel-42",
  role,
  phone: null,
  address: null,
  date_of_birth: null,
  emergency_contact: null,
});

const blankForm = Object.fromEntries(
  [
    "sex",
    "address_building",
    "address_unit",
    "address_street_number",
    "address_street_name",
    "suburb",
    "postcode",
    "state",
    "country_of_birth",
    "language_at_home",
    "indigenous_status",
    "labour_force_status",
    "highest_school_level",
    "at_school",
    "disability",
    "prior_education",
    "survey_contact_status",
    "date_of_birth",
  ].map((k) => [k, ""]),
);

describe("student numbers", () => {
  it("are given to every new student, at most 10 characters, never twice; staff get none", async () => {
    const a = await registerUser(db, registration("num-a@test.example"));
    const b = await registerUser(db, registration("num-b@test.example"));
    const trainer = await registerUser(db, registration("num-t@test.example", "trainer"));
    expect(a.user.student_number).toMatch(/^S\d{6}$/);
    expect(b.user.student_number).not.toBe(a.user.student_number);
    expect(trainer.user.student_number).toBeNull();
    // a removed student's number is not handed out again
    await db.deleteFrom("events").where("subject_user_id", "=", b.user.id).execute();
    await db.deleteFrom("users").where("id", "=", b.user.id).execute();
    const c = await registerUser(db, registration("num-c@test.example"));
    expect(c.user.student_number).not.toBe(b.user.student_number);
    expect(Number(c.user.student_number!.slice(1))).toBeGreaterThan(Number(b.user.student_number!.slice(1)));
  });
});

describe("My enrolment details", () => {
  it("saves every answer as its code, and blank as not stated", async () => {
    const { id } = await makeUser(db);
    const input = enrollmentDetailsSchema.parse({
      ...blankForm,
      sex: "F",
      date_of_birth: "1990-05-06",
      address_street_number: "12",
      address_street_name: "Wharf Street",
      suburb: "Newcastle",
      postcode: "2300",
      state: "01",
      country_of_birth: "1101",
      language_at_home: "1201",
      indigenous_status: "4",
      labour_force_status: "01",
      highest_school_level: "12",
      at_school: "N",
      disability: "Y",
      disability_types: ["17", "12"],
      prior_education: "Y",
      prior_education_types: ["514"],
      survey_contact_status: "A",
    });
    await updateEnrollmentDetails(db, id, input);
    const details = await getAvetmissDetails(db, id);
    expect(details).toMatchObject({
      sex: "F",
      postcode: "2300",
      state: "01",
      disability_types: ["12", "17"],
      prior_education_types: ["514"],
      address_building: null,
    });
    const user = await db.selectFrom("users").select("date_of_birth").where("id", "=", id).executeTakeFirstOrThrow();
    expect(user.date_of_birth).toBe("1990-05-06");
  });

  it("keeps the type lists with their flags: none without a Yes, 'not specified' for a disability with no type", async () => {
    const { id } = await makeUser(db);
    await updateEnrollmentDetails(db, id, enrollmentDetailsSchema.parse({ ...blankForm, disability: "Y", disability_types: [] }));
    expect((await getAvetmissDetails(db, id))!.disability_types).toEqual(["99"]);
    await updateEnrollmentDetails(db, id, enrollmentDetailsSchema.parse({ ...blankForm, disability: "N", disability_types: ["11"] }));
    expect((await getAvetmissDetails(db, id))!.disability_types).toEqual([]);
    await expect(
      updateEnrollmentDetails(db, id, enrollmentDetailsSchema.parse({ ...blankForm, prior_education: "Y", prior_education_types: [] })),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { prior_education_types: PRIOR_EDUCATION_TYPES_REQUIRED } });
  });

  it("refuses codes outside the lists with a message naming the question", () => {
    const bad = enrollmentDetailsSchema.safeParse({ ...blankForm, sex: "Q", postcode: "20000", disability_types: ["42"] });
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message).join(" | ");
    expect(messages).toMatch(/Sex: choose one of the listed answers/);
    expect(messages).toMatch(/4-digit postcode/);
    expect(messages).toMatch(/Disability types/);
  });
});

describe("the office's edit (partial)", () => {
  it("changes only the details sent, and shows them in the student detail", async () => {
    const { id } = await makeUser(db);
    await updateStudent(db, id, studentPatchSchema.parse({ sex: "M", postcode: "2000" }), null);
    await updateStudent(db, id, studentPatchSchema.parse({ labour_force_status: "03" }), null);
    const detail = await getStudentDetail(db, id);
    expect(detail!.avetmiss).toMatchObject({ sex: "M", postcode: "2000", labour_force_status: "03", suburb: null });
    expect(detail!.student.student_number).toMatch(/^S\d{6}$/);
  });
});

describe("delivery locations", () => {
  it("are added and edited with unique identifiers; a new enrolment gets the first", async () => {
    expect(await defaultLocationId(db)).toBeNull();
    // a second apart: two made in the same millisecond tie on created_at, and the tie falls to the random id
    const first = await createLocation(
      db,
      locationSchema.parse({ identifier: "yard1", name: "Main yard", suburb: "Mayfield", postcode: "2304", state: "01" }),
      null,
      new Date(Date.now() - 1000),
    );
    expect(first).toMatchObject({ identifier: "YARD1", country: "1101" });
    await createLocation(db, locationSchema.parse({ identifier: "YARD2", name: "Second yard" }), null);
    await expect(createLocation(db, locationSchema.parse({ identifier: "Yard1", name: "Dup" }), null)).rejects.toMatchObject({
      status: 409,
      message: LOCATION_IDENTIFIER_TAKEN,
    });
    const edited = await updateLocation(db, first.id, locationSchema.parse({ identifier: "YARD1", name: "Main training yard", postcode: "2304" }), null);
    expect(edited.name).toBe("Main training yard");
    expect((await listLocations(db)).map((l) => l.identifier)).toEqual(["YARD1", "YARD2"]);
    expect(locationSchema.safeParse({ identifier: "TOO-LONG-IDENT", name: "x" }).success).toBe(false);

    const { id: studentId } = await makeUser(db);
    const course = await makeCourse(db);
    const enrollment = await createEnrollment(db, { studentId, courseId: course.id });
    const row = await db.selectFrom("enrollments").select("location_id").where("id", "=", enrollment.id).executeTakeFirstOrThrow();
    expect(row.location_id).toBe(first.id);
  });
});
