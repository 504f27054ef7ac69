import { describe, expect, it } from "vitest";
import { z } from "zod";
import { withFormToken } from "./form-token";
import { answerForm, type FormFailure } from "~/utils/form-action.server";
import { FORM_TOKEN_FIELD, FORM_TOKEN_MISSING } from "~/utils/form-token";

const form = (fields: Record<string, string>) => new Request("http://localhost/x", { method: "POST", body: new URLSearchParams(fields) });
const schema = withFormToken(z.object({ reference: z.string().min(1, "Enter the reference") }));
const TOKEN = "0b6f5d0e-8a51-4b8e-9d38-0d6c1c1f2a7e";

/** The page data and status of a failure answerForm gave. */
const failure = (answer: unknown) => {
  const { data, init } = answer as { data: FormFailure; init: { status: number } };
  return { status: init.status, error: data.error, fieldErrors: data.fieldErrors, toast: data.toast };
};

describe("answerForm with a one-time token", () => {
  it("refuses a form without its token (an old page) with a 400 above the form, before its fields, and never saves", async () => {
    let saved = false;
    const answer = await answerForm(form({ reference: "" }), { schema, save: async () => (saved = true) });
    expect(failure(answer)).toEqual({ status: 400, error: FORM_TOKEN_MISSING, fieldErrors: {}, toast: { type: "error", message: FORM_TOKEN_MISSING } });
    expect(saved).toBe(false);
    const forged = await answerForm(form({ reference: "EFT 1", [FORM_TOKEN_FIELD]: "not-a-token" }), { schema, save: async () => (saved = true) });
    expect(failure(forged).error).toBe(FORM_TOKEN_MISSING);
    expect(saved).toBe(false);
  });

  it("with its token: the fields' errors as ever, and the model is given the token", async () => {
    const invalid = await answerForm(form({ reference: "", [FORM_TOKEN_FIELD]: TOKEN }), { schema, save: async () => "saved" });
    expect(failure(invalid)).toMatchObject({ status: 400, fieldErrors: { reference: "Enter the reference" } });
    expect(await answerForm(form({ reference: "EFT 1", [FORM_TOKEN_FIELD]: TOKEN }), { schema, save: async (input) => input })).toEqual({
      reference: "EFT 1",
      [FORM_TOKEN_FIELD]: TOKEN,
    });
  });
});
