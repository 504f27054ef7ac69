import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type DashboardStatsResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getDashboardStats } from "~/models/stats.server";

/** GET /api/dashboard/stats → the dashboard figures (trainers and administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "trainer", "admin");
    return apiJson<DashboardStatsResponse>(await getDashboardStats(getDb()));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
