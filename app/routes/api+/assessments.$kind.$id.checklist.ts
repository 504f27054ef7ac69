import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { checklistMarksRequest, type AssessmentChecklistResponse } from "~/api/evidence-schemas";
import { pathAssessment } from "~/api/evidence-routes.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { checklistsForAssessment, markChecklist } from "~/models/standards/checklist.server";
import type { EvidenceAssessment } from "~/models/evidence.server";

async function answer(assessment: EvidenceAssessment, status = 200, only?: string): Promise<Response> {
  const rows = (await checklistsForAssessment(getDb(), assessment)).filter((r) => !only || r.checklist.id === only);
  return apiJson<AssessmentChecklistResponse[]>(rows, status);
}

/**
 * GET /api/assessments/{kind}/{id}/checklist: the course's observation checklists with this
 * assessment's marks (the learner, the assessor, admins).
 * POST `{checklist_id, marks: [{item_id, result, comment}]}`: the assessor marks every item of a
 * checklist reviewed before use, as on the evidence page (markChecklist); 200 with that checklist.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    return answer(await pathAssessment(user, params));
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer");
    const assessment = await pathAssessment(user, params);
    const input = parseInput(checklistMarksRequest, await readJsonBody(request));
    await markChecklist(getDb(), { assessment, ...input }, { id: user.id, client: clientAddress(request) });
    return answer(assessment, 200, input.checklist_id);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
