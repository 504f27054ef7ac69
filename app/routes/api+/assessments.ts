import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { assessmentRequest, type AssessmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getAssessment, recordAssessment } from "~/models/assessment.server";
import { clientAddress } from "~/http/request-context.server";

/**
 * POST /api/assessments → 201 with the recorded assessment. Trainers and administrators; the
 * trainer's Record Assessment form's schema and model (recordAssessment), so the rules are the
 * same: a current enrolment of an active student, a score within the max score, feedback for a
 * fail, a date neither in the future nor before the training began.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const input = parseInput(assessmentRequest, await readJsonBody(request));
    const db = getDb();
    const { id } = await recordAssessment(db, { ...input, actorId: user.id, client: clientAddress(request) });
    return apiJson<AssessmentResponse>((await getAssessment(db, id))!, { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
