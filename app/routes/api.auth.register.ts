import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { registerFailureResponse, registerRequest, registerResponse } from "~/api/schemas";
import { clientAddress } from "~/http/request-context.server";
import { getDb } from "~/db.server";
import { registeredMessage, registerUser } from "~/models/user.server";
import { apiErrorFrom } from "~/utils/http.server";
import { type ApiOperation, TOO_LARGE } from "~/api/operation";

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

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/auth/register",
    operationId: "register",
    summary: "Create an account",
    description:
      "Students are active at once; trainers and administrators wait for an administrator's approval before they can sign in.",
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
];
