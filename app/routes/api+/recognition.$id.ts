import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { RecognitionDetailResponse } from "~/api/recognition-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { recognitionDecisions } from "~/models/recognition/recognition-decisions.server";
import { getRecognition } from "~/models/recognition/recognition.server";

/** GET /api/recognition/{id} → one application with its decisions: its learner, its assessor or an administrator (else 404). */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    const db = getDb();
    const r = await getRecognition(db, user, pathId(params, "Application"));
    return apiJson<RecognitionDetailResponse>({ ...r, decisions: await recognitionDecisions(db, r) });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
