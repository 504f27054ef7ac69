import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { validationPlanRequest, type ValidationPlanResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { createValidationPlan, listValidationPlans } from "~/models/standards/validation.server";

/**
 * GET /api/admin/validation-plans → the plans; POST plans one (the /admin/validations form's
 * schema and model: every validator credentialed for the unit, else 409 with the reason).
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson<ValidationPlanResponse[]>(await listValidationPlans(getDb()), { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "admin");
    const input = parseInput(validationPlanRequest, await readJsonBody(request));
    const db = getDb();
    const { id } = await createValidationPlan(db, input, { id: user.id, client: clientAddress(request) });
    return apiJson<ValidationPlanResponse>(
      (await listValidationPlans(db)).find((p) => p.id === id)!,
      { status: 201 },
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
