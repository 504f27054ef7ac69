import { z } from "zod";

/** Building blocks shared by every form and /api payload. */

export const requiredText = (label: string, max = 200) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Optional text: blank becomes null so stored data never holds empty strings. */
export const optionalText = (label: string, max = 200) =>
  z
    .string({ message: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

export const email = z
  .string({ message: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(254, "Email must be at most 254 characters")
  .pipe(z.email("Enter a valid email address"))
  .transform((v) => v.toLowerCase());

export const phone = z
  .string({ message: "Phone must be text" })
  .trim()
  .max(40, "Phone must be at most 40 characters")
  .refine((v) => v === "" || /^[0-9+()\-\s.]{6,40}$/.test(v), "Enter a valid phone number")
  .nullish()
  .transform((v) => (v ? v : null));

/** A calendar date (YYYY-MM-DD) in the past, for a person old enough to be a learner. */
export const dateOfBirth = z
  .string({ message: "Date of birth must be a date" })
  .trim()
  .refine((v) => v === "" || /^\d{4}-\d{2}-\d{2}$/.test(v), "Enter the date as YYYY-MM-DD")
  .refine((v) => {
    if (v === "") return true;
    const d = new Date(`${v}T00:00:00Z`);
    if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) return false;
    const year = d.getUTCFullYear();
    return year >= 1900 && d.getTime() < Date.now();
  }, "Enter a real date of birth in the past")
  .nullish()
  .transform((v) => (v ? v : null));

export const password = z
  .string({ message: "Password is required" })
  .min(1, "Password is required")
  .min(6, "Password must be at least 6 characters")
  .max(200, "Password must be at most 200 characters");

export const uuid = z.string().uuid("Not a valid id");

/** A checkbox: present ("on"/"true") is true, absent is false; JSON booleans pass through. */
export const checkbox = z
  .union([z.boolean(), z.string()])
  .optional()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1");
