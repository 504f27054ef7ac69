import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { loginRequest } from "~/api/schemas";
import { issueApiToken } from "~/api/auth.server";
import { clientAddress } from "~/http/request-context.server";
import { SecondStepRequired, SecondStepSetUpRequired, signIn } from "~/auth/sign-in.server";
import { getDb } from "~/db.server";

/**
 * POST /api/auth/login `{email, password}` → 200 `{access_token, token_type: "bearer"}`.
 * The same sign-in check as the form (signIn): one message for an unknown email and a wrong
 * password (401), the account's state only to someone who knows the password (403), and
 * rate limits per account and per client (429 with Retry-After), and 503 with Retry-After
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
