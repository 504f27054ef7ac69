import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { WorkerListResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listWorkers } from "~/models/employers/employer-view.server";

/** GET /api/employer/workers → every worker named on the caller's organisation's bookings; results only for those who share them. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "employer");
    return apiJson<WorkerListResponse>({ workers: await listWorkers(getDb(), user) });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
