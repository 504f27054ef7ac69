import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { validationCompleteRequest, type ValidationPlanDetailResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { completeValidation, getValidationPlan } from "~/models/standards/validation.server";

/**
 * POST /api/admin/validation-plans/{id}/complete → completes the validation once every item has
 * its finding (409 naming how many are open); the course's next validation follows from its
 * rating. Administrators.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Validation plan");
    const input = parseInput(validationCompleteRequest, await readJsonBody(request, { optional: true }));
    const db = getDb();
    await completeValidation(db, id, input.summary, {
      id: admin.id,
      client: clientAddress(request),
    });
    return apiJson<ValidationPlanDetailResponse>((await getValidationPlan(db, id))!);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
