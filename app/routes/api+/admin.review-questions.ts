import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { reviewQuestionRequest } from "~/api/review-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { addReviewQuestion, listReviewGroups, listReviewQuestions } from "~/models/review.server";

/** GET /api/admin/review-questions → the bank and the groups' thresholds; POST → 201 with the question added (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const db = getDb();
    return apiJson({ questions: await listReviewQuestions(db), groups: await listReviewGroups(db) }, { headers: { "Cache-Control": "no-store" } });
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(reviewQuestionRequest, await readJsonBody(request));
    return apiJson(await addReviewQuestion(getDb(), input, { id: admin.id, client: clientAddress(request) }), { status: 201 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
