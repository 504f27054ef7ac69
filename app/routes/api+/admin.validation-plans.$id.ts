import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { ValidationPlanDetailResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getValidationPlan } from "~/models/standards/validation.server";
import { notFound } from "~/utils/errors";

/** GET /api/admin/validation-plans/{id} → the plan with its sample (seed, population) and the finding on each item. Administrators. */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const plan = await getValidationPlan(getDb(), pathId(params, "Validation plan"));
    if (!plan) throw notFound("Validation plan");
    return apiJson<ValidationPlanDetailResponse>(plan);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
