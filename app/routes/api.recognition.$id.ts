import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import type { RecognitionResponse } from "~/api/recognition-schemas";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { getRecognition } from "~/models/recognition.server";

/** GET /api/recognition/{id} → one application: its learner, its assessor or an administrator (else 404). */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer", "admin");
    return apiJson<RecognitionResponse>(await getRecognition(getDb(), user, pathId(params, "Application")));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
