import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiError, apiJson, apiRoute, parseInput, queryObject, readJsonBody } from "~/api/http.server";
import { recognitionApplyRequest, type RecognitionResponse } from "~/api/recognition-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { applyForRecognition, listRecognitions } from "~/models/recognition/recognition.server";
import { recognitionListQuery } from "~/schemas/recognition";

/**
 * GET /api/recognition?kind=&status=&q= → the register as the caller's role reads it (a learner
 * their own, a trainer the RPLs they assess, admins all). POST → 201 with the application: a
 * learner for their own current enrolment, an administrator on a learner's behalf. A licence
 * unit is refused: the application is kept on the register with its reason, and the answer is a
 * 409 carrying the reason and the kept application's id, so no client reads a refusal as success.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const query = parseInput(recognitionListQuery, queryObject(request));
    return apiJson<RecognitionResponse[]>(await listRecognitions(getDb(), user, query));
  },
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "student", "admin");
    const input = parseInput(recognitionApplyRequest, await readJsonBody(request));
    const application = await applyForRecognition(getDb(), user, input, { id: user.id, client: clientAddress(request) });
    if (application.status === "refused") return apiError(409, application.reasons ?? "", { id: application.id });
    return apiJson<RecognitionResponse>(application, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
