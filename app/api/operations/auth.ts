import { type ApiOperation, BODY_FAILURES, err, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "../operation";
import { RATE_LIMITS } from "~/security/rate-limits.server";
import { loginRequest, logoutRequest, registerFailureResponse, registerRequest, registerResponse, tokenResponse, userResponse } from "../schemas";

const { signInAccount, signInClient } = RATE_LIMITS;

/** How the OpenAPI document describes the auth calls. */
export const authOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/api/auth/login",
    operationId: "login",
    summary: "Sign in and receive an access token",
    description:
      "Checks the email and password, and for an account with two-step sign-in the `code` (6 digits from the authenticator, or a recovery code): without it the answer is 401 with `mfa_required: true`. An administrator who has not set up two-step sign-in (required outside the demo) gets 403 with `mfa_setup_required: true` and sets it up in the browser first. An unknown email and a wrong password get the same 401. " +
      `At most ${signInAccount.limit} wrong passwords are evaluated per account per ${signInAccount.windowMinutes} minutes (a client that signed in to the account before has a rate limit of its own), and ${signInClient.limit} per client; the rest get 429 with Retry-After.`,
    tags: ["auth"],
    access: "public",
    body: loginRequest,
    bodyRequired: true,
    responses: {
      ...BODY_FAILURES,
      200: { description: "Signed in; send the token as `Authorization: Bearer <token>` (valid 24 hours)", schema: tokenResponse },
      401: err("Invalid email or password, a wrong code, or a code needed (`mfa_required: true`)"),
      403: err(
        "The account is awaiting approval, was not approved, or is inactive; or an administrator must set up two-step sign-in first (`mfa_setup_required: true`)",
      ),
      429: err("Too many sign-in attempts; see Retry-After"),
      503: err("Too many passwords are being checked at once; see Retry-After"),
    },
  },
  {
    method: "post",
    path: "/api/auth/register",
    operationId: "register",
    summary: "Create an account",
    description: "Students are active at once; trainers and administrators wait for an administrator's approval before they can sign in.",
    tags: ["auth"],
    access: "public",
    body: registerRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Account created", schema: registerResponse },
      400: { description: "Malformed JSON or a body that is not a JSON object", schema: registerFailureResponse },
      409: { description: "An account with this email already exists", schema: registerFailureResponse },
      413: TOO_LARGE,
      415: { description: "The body is not sent as application/json", schema: registerFailureResponse },
      422: { description: "Invalid or unknown fields; `errors` names each one", schema: registerFailureResponse },
      429: { description: "Too many registrations from this client; see Retry-After", schema: registerFailureResponse },
      503: { description: "Too many passwords are being hashed at once; see Retry-After", schema: registerFailureResponse },
    },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    operationId: "logout",
    summary: "Sign out",
    description:
      'Revokes the bearer token sent (or ends the browser session when called with the session cookie). With `{"everywhere": true}` every session and token of the user ends.',
    tags: ["auth"],
    access: "required",
    body: logoutRequest,
    bodyRequired: false,
    responses: {
      204: { description: "Signed out" },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
  {
    method: "get",
    path: "/api/auth/me",
    operationId: "getCurrentUser",
    summary: "The signed-in user",
    description: "Any signed-in user. Never contains a password hash or token.",
    tags: ["auth"],
    access: "required",
    responses: { 200: { description: "The user", schema: userResponse }, 401: UNAUTHENTICATED },
  },
];
