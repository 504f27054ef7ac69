import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { WorkerResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getWorker } from "~/models/employers/employer-view.server";

/** GET /api/employer/workers/{id} → one worker of the caller's organisation (another employer's is a 404); results only while they share them. */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "employer");
    return apiJson<WorkerResponse>(await getWorker(getDb(), user, pathId(params, "Worker")));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
