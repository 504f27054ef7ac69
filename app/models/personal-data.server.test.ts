import { describe, expect, it } from "vitest";
import { candidateChecksFor, CONTACT_FIELDS, personFor, roleReadsField, SENSITIVE_FIELDS } from "./personal-data.server";
import type { PublicUser } from "./user.server";

const person: PublicUser = {
  id: "s-1",
  email: "pat@example.com",
  full_name: "Pat Lee",
  phone: "0412 345 678",
  address: "1 Hook St",
  date_of_birth: "1999-01-02",
  emergency_contact: "Sam 0400 000 000",
  license_number: "HRW123",
  is_active: true,
  created_at: null,
  last_login: null,
  role: "student",
  usi: "INDIV",
  usi_verified_at: "2026-01-01T00:00:00.000Z",
  usi_claimed: null,
  student_number: "S000009",
};

describe("which fields each reader may see", () => {
  it("a trainer reads the contact fields and where the USI stands, nothing sensitive", () => {
    const seen = personFor({ id: "t-1", role: "trainer" }, person);
    expect(Object.keys(seen).sort()).toEqual([...CONTACT_FIELDS, "usi_status"].sort());
    expect(seen).toMatchObject({ usi_status: "exempt", phone: "0412 345 678", student_number: "S000009" });
    for (const field of SENSITIVE_FIELDS) expect(roleReadsField("trainer", field), field).toBe(false);
    expect(roleReadsField("trainer", "email")).toBe(true);
  });

  it("the person and administrators read the whole record", () => {
    expect(personFor({ id: "a-1", role: "admin" }, person)).toBe(person);
    expect(personFor({ id: "s-1", role: "student" }, person)).toBe(person);
    expect(personFor({ id: "s-2", role: "student" }, person)).not.toHaveProperty("usi");
    for (const field of SENSITIVE_FIELDS) expect(roleReadsField("admin", field)).toBe(true);
  });
});

describe("a high-risk work candidate's checks", () => {
  const checks = {
    candidate: { id: "cand-1", full_name: "Mia Nguyen", email: "mia@test.example" },
    age: { date_of_birth: "2008-11-28", checked_by: "Sam Whitfield", checked_at: "2026-11-01T00:00:00.000Z" },
    identity: null,
    prerequisites: [
      {
        licence_class: "DG" as const,
        licence_number: "DG-NSW-5521903",
        expires_on: "2029-01-01",
        checked_by: "Sam Whitfield",
        checked_at: "2026-11-01T00:00:00.000Z",
      },
    ],
    aens: [],
  };

  it("a trainer reads whether the candidate is of age and each licence's class and expiry, never the date of birth or licence number", () => {
    const view = candidateChecksFor({ id: "trainer-1", role: "trainer" }, checks, "2026-11-27");
    expect(JSON.stringify(view)).not.toMatch(/2008-11-28|DG-NSW-5521903/);
    expect(view.age).toEqual({ adult: false, checked_by: "Sam Whitfield", checked_at: "2026-11-01T00:00:00.000Z" });
    expect(candidateChecksFor({ id: "trainer-1", role: "trainer" }, checks, "2026-11-28").age).toMatchObject({ adult: true });
    expect(view.prerequisites).toEqual([
      { licence_class: "DG", expires_on: "2029-01-01", checked_by: "Sam Whitfield", checked_at: "2026-11-01T00:00:00.000Z" },
    ]);
  });

  it("an administrator reads them whole", () => {
    expect(candidateChecksFor({ id: "admin-1", role: "admin" }, checks, "2026-11-27")).toBe(checks);
  });
});
