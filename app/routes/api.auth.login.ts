import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { loginRequest } from "~/api/schemas";
import { issueApiToken } from "~/auth/api.server";
import { clientAddress } from "~/auth/request-context.server";
import { signIn } from "~/auth/sign-in.server";
import { THROTTLE_WINDOW_MINUTES } from "~/auth/throttle.server";
import { getDb } from "~/db.server";
import { isDomainError } from "~/utils/errors";
import { apiError } from "~/utils/http.server";

/**
 * POST /api/auth/login `{email, password}` → 200 `{access_token, token_type: "bearer"}`.
 * The same sign-in check as the form (signIn): one message for an unknown email and a wrong
 * password (401), the account's state only to someone who knows the password (403), and
 * throttling per email and per client (429 with Retry-After).
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const input = parseInput(loginRequest, await readJsonBody(request));
    const db = getDb();
    let user;
    try {
      user = await signIn(db, { ...input, client: clientAddress(request) });
    } catch (error) {
      if (isDomainError(error) && error.status === 429) {
        const throttled = apiError(429, error.message);
        throttled.headers.set("Retry-After", String(THROTTLE_WINDOW_MINUTES * 60));
        return throttled;
      }
      throw error;
    }
    const token = await issueApiToken(db, user.id);
    return apiJson({ access_token: token, token_type: "bearer" as const });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
