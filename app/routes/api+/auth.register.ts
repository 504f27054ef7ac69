import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorFrom, apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { registerRequest } from "~/api/schemas";
import { clientAddress } from "~/http/request-context.server";
import { getDb } from "~/db.server";
import { registeredMessage, registerUser } from "~/models/user.server";

/**
 * POST /api/auth/register with the registration payload → 201
 * `{success: true, message}`. Every failure is `{success: false, message, detail}` (plus
 * `errors` per field): 400 malformed, 415 not JSON, 422 invalid, 409 email taken, 429 too many from one client and 503 busy (both with Retry-After). The same
 * schema and model as the registration form.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    try {
      const input = parseInput(registerRequest, await readJsonBody(request));
      const { pending } = await registerUser(getDb(), input, { client: clientAddress(request) });
      return apiJson({ success: true as const, message: registeredMessage(pending) }, 201);
    } catch (error) {
      const failed = apiErrorFrom(error);
      const body = (await failed.clone().json()) as { detail: string; errors?: Record<string, string> };
      return apiJson({ success: false as const, message: body.detail, ...body }, { status: failed.status, headers: failed.headers });
    }
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
