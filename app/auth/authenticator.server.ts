import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { getDb } from "~/db.server";
import type { PublicUser } from "~/models/user.server";
import { loginSchema } from "~/schemas/auth";
import { isDomainError } from "~/utils/errors";
import { formToObject, parseWith, type FieldErrors } from "~/utils/validation";
import { clientAddress } from "~/http/request-context.server";
import { SecondStepRequired, signIn } from "./sign-in.server";

/** Why a sign-in form was refused, with the field messages and the email to keep. */
export class LoginFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly retryAfterSeconds?: number,
    /** the password was right and this account's second step comes next */
    readonly secondStepUserId?: string,
  ) {
    super(message);
    this.name = "LoginFailure";
  }
}

/** remix-auth v4 keeps no session: it returns the user and the app commits its own session. */
export const authenticator = new Authenticator<PublicUser>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const parsed = parseWith(loginSchema, formToObject(form));
    if (!parsed.success) throw new LoginFailure(400, parsed.message, parsed.fieldErrors);
    try {
      return await signIn(getDb(), { ...parsed.data, code: undefined, client: clientAddress(request), via: "form" });
    } catch (error) {
      if (error instanceof SecondStepRequired) throw new LoginFailure(401, error.message, {}, undefined, error.userId);
      if (isDomainError(error)) throw new LoginFailure(error.status, error.message, {}, error.retryAfterSeconds);
      throw error;
    }
  }),
  "form",
);
