import { describe, expect, it } from "vitest";
import { parseWith } from "~/utils/validation";
import { loginSchema, registerFormSchema, registrationSchema } from "./auth";

const valid = { full_name: "Riley Cooper", email: "Riley@Example.com ", password: "secret12", confirm_password: "secret12" };

describe("registration form", () => {
  it("accepts the required fields alone, defaulting the account type to student", () => {
    const r = parseWith(registerFormSchema, valid);
    expect(r.success && r.data).toMatchObject({ email: "riley@example.com", role: "student", phone: null, address: null });
  });

  it("says 'Passwords do not match' beside the confirmation", () => {
    const r = parseWith(registerFormSchema, { ...valid, confirm_password: "secret13" });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.fieldErrors.confirm_password).toBe("Passwords do not match");
  });

  it("says 'Password must be at least 6 characters'", () => {
    const r = parseWith(registerFormSchema, { ...valid, password: "abc", confirm_password: "abc" });
    if (r.success) throw new Error("should fail");
    expect(r.fieldErrors.password).toBe("Password must be at least 6 characters");
  });

  it("names each missing required field", () => {
    const r = parseWith(registerFormSchema, {});
    if (r.success) throw new Error("should fail");
    expect(r.fieldErrors).toMatchObject({
      full_name: "Full name is required",
      email: "Email is required",
      password: "Password is required",
      confirm_password: "Please confirm your password",
    });
  });

  it("refuses a bad email, an unknown role, a future or impossible birth date and oversized text", () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ email: "not-an-email" }, "email"],
      [{ role: "superuser" }, "role"],
      [{ date_of_birth: "2999-01-01" }, "date_of_birth"],
      [{ date_of_birth: "2001-02-30" }, "date_of_birth"],
      [{ full_name: "x".repeat(201) }, "full_name"],
      [{ phone: "call me maybe" }, "phone"],
      [{ full_name: 42 }, "full_name"],
    ];
    for (const [patch, field] of cases) {
      const r = parseWith(registerFormSchema, { ...valid, ...patch });
      expect(r.success, JSON.stringify(patch)).toBe(false);
      if (!r.success) expect(Object.keys(r.fieldErrors)).toContain(field);
    }
  });

  it("the /api payload needs no confirmation, and an unknown field is never carried on (the /api answers it 422)", () => {
    const r = parseWith(registrationSchema, { full_name: "A B", email: "a@b.co", password: "secret12", is_admin: true });
    expect(r.success).toBe(true);
    if (r.success) expect(r.data).not.toHaveProperty("is_admin");
  });
});

describe("login form", () => {
  it("requires both fields and lower-cases the email", () => {
    const bad = parseWith(loginSchema, { email: "", password: "" });
    if (bad.success) throw new Error("should fail");
    expect(bad.fieldErrors).toEqual({ email: "Email is required", password: "Password is required" });
    const ok = parseWith(loginSchema, { email: " Student@Example.com", password: "x" });
    expect(ok.success && ok.data.email).toBe("student@example.com");
  });
});
