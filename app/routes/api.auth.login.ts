import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { loginRequest, tokenResponse } from "~/api/schemas";
import { issueApiToken } from "~/auth/api.server";
import { clientAddress } from "~/http/request-context.server";
import { REQUEST_LIMITS } from "~/auth/request-limits.server";
import { SecondStepRequired, SecondStepSetUpRequired, signIn } from "~/auth/sign-in.server";
import { apiError } from "~/utils/http.server";
import { getDb } from "~/db.server";
import { type ApiOperation, err, INVALID, MALFORMED, TOO_LARGE, WRONG_TYPE } from "~/api/operation";

/**
 * POST /api/auth/login `{email, password}` → 200 `{access_token, token_type: "bearer"}`.
 * The same sign-in check as the form (signIn): one message for an unknown email and a wrong
 * password (401), the account's state only to someone who knows the password (403), and
 * request limits per account and per client (429 with Retry-After), and 503 with Retry-After
 * when too many passwords are being checked at once.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const input = parseInput(loginRequest, await readJsonBody(request));
    const db = getDb();
    let user;
    try {
      user = await signIn(db, { ...input, client: clientAddress(request), via: "api" });
    } catch (error) {
      if (error instanceof SecondStepRequired) throw apiError(401, error.message, { mfa_required: true });
      if (error instanceof SecondStepSetUpRequired) throw apiError(403, error.message, { mfa_setup_required: true });
      throw error;
    }
    const token = await issueApiToken(db, user.id);
    return apiJson({ access_token: token, token_type: "bearer" as const });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
const { signInAccount, signInClient } = REQUEST_LIMITS;

export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/auth/login",
    operationId: "login",
    summary: "Sign in and receive an access token",
    description:
      "Checks the email and password, and for an account with two-step sign-in the `code` (6 digits from the authenticator, or a recovery code): without it the answer is 401 with `mfa_required: true`. An administrator who has not set up two-step sign-in (required outside the demo) gets 403 with `mfa_setup_required: true` and sets it up in the browser first. An unknown email and a wrong password get the same 401. " +
      `At most ${signInAccount.limit} wrong passwords are evaluated per account per ${signInAccount.windowMinutes} minutes (a client that signed in to the account before has a request limit of its own), and ${signInClient.limit} per client; the rest get 429 with Retry-After.`,
    tags: ["auth"],
    access: "public",
    body: loginRequest,
    bodyRequired: true,
    responses: {
      200: { description: "Signed in; send the token as `Authorization: Bearer <token>` (valid 24 hours)", schema: tokenResponse },
      400: MALFORMED,
      401: err("Invalid email or password, a wrong code, or a code needed (`mfa_required: true`)"),
      403: err("The account is awaiting approval, was not approved, or is inactive; or an administrator must set up two-step sign-in first (`mfa_setup_required: true`)"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
      429: err("Too many sign-in attempts; see Retry-After"),
      503: err("Too many passwords are being checked at once; see Retry-After"),
    },
  },
];
