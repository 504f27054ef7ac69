import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { validationFindingRequest, type ValidationPlanDetailResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getValidationPlan, recordFinding } from "~/models/standards/validation.server";

/**
 * POST /api/admin/validation-plans/{id}/findings → records (or corrects) the finding and action on
 * one item of the sample, until the validation is completed (then 409). Administrators.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Validation plan");
    const input = parseInput(validationFindingRequest, await readJsonBody(request));
    const db = getDb();
    await recordFinding(db, id, input, {
      id: admin.id,
      client: clientAddress(request),
    });
    return apiJson<ValidationPlanDetailResponse>((await getValidationPlan(db, id))!);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
