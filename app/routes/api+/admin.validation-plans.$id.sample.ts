import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { ValidationPlanDetailResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { drawSample, getValidationPlan } from "~/models/standards/validation.server";

/**
 * POST /api/admin/validation-plans/{id}/sample → draws the plan's sample once, from a seed the
 * portal records (drawn already, or fewer completed assessments than the size: 409). Administrators.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Validation plan");
    const db = getDb();
    await drawSample(db, id, { id: admin.id, client: clientAddress(request) });
    return apiJson<ValidationPlanDetailResponse>((await getValidationPlan(db, id))!);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
