import { describe, expect, it } from "vitest";
import { ROLES, type Role } from "#db/schema";
import { parseWith } from "~/utils/validation";
import { registerFormSchema } from "./auth";
import { invitationPasswordSchema, workerNewAccountSchema } from "./employer";
import { passwordMinimum, passwordRule, passwordTooShort } from "./password-text";

/** The figure a sentence names ("At least 12 characters" -> 12). */
const figureIn = (text: string) => Number(/(\d+) characters/.exec(text)?.[1]);

/** A password of `length` characters that is not a common one. */
const passwordOf = (length: number) => "Kestrel-hoist-crane-rigger-dogman".slice(0, length);

describe("a password's hint and its refusal name the same minimum", () => {
  it("for every role, the rule shown beside the field and the message when it is too short", () => {
    for (const role of ROLES) {
      expect(figureIn(passwordRule(role)), role).toBe(passwordMinimum(role));
      expect(figureIn(passwordTooShort(role)), role).toBe(passwordMinimum(role));
    }
  });

  // each form that shows passwordRule(role) beside its password field, with the schema it is parsed with
  const forms: { name: string; role: Role; parse: (password: string) => ReturnType<typeof parseWith> }[] = [
    {
      name: "the employer's user's invitation",
      role: "employer",
      parse: (password) => parseWith(invitationPasswordSchema, { password, confirm_password: password }),
    },
    {
      name: "a worker's invitation to a booked seat (a new account)",
      role: "student",
      parse: (password) => parseWith(workerNewAccountSchema, { full_name: "Sam Lee", password, confirm_password: password, consent: "yes" }),
    },
    {
      name: "a learner's registration",
      role: "student",
      parse: (password) =>
        parseWith(registerFormSchema, { full_name: "Sam Lee", email: "sam@test.example", password, confirm_password: password, role: "student" }),
    },
  ];

  for (const form of forms) {
    it(form.name, () => {
      const minimum = figureIn(passwordRule(form.role));
      const short = form.parse(passwordOf(minimum - 1));
      expect(short.success).toBe(false);
      if (!short.success) {
        expect(short.fieldErrors.password).toBe(passwordTooShort(form.role));
        expect(figureIn(short.fieldErrors.password!)).toBe(minimum);
      }
      expect(form.parse(passwordOf(minimum))).toMatchObject({ success: true });
    });
  }
});
