import { hrwAenRequest } from "~/api/hrw-schemas";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getCandidateChecks, recordCandidateCheck } from "~/models/hrw/hrw-candidate.server";
import { clientAddress } from "~/http/request-context.server";

/**
 * POST /api/hrw/candidates/{id}/aen {state, aen}: records the candidate's assessment enrolment
 * number for a regulator that asks for one (its format is the state's rule); the same model as
 * the candidate's checks page. Answers 201 with the candidate's numbers.
 */
const route = apiRoute({
  POST: async ({ request, params }) => {
    const trainer = await requireApiUser(request, "trainer");
    const id = pathId(params, "Candidate");
    const input = parseInput(hrwAenRequest, await readJsonBody(request));
    const db = getDb();
    await recordCandidateCheck(db, id, { kind: "aen", ...input }, { id: trainer.id, client: clientAddress(request) });
    return apiJson({ aens: (await getCandidateChecks(db, id))!.aens }, { status: 201 });
  },
});
export const loader = route;
export const action = route;
