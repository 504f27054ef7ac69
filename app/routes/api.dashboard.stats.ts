import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type DashboardStatsResponse, dashboardStatsResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getDashboardStats } from "~/models/stats.server";
import { type ApiOperation, FORBIDDEN, UNAUTHENTICATED } from "~/api/operation";

/** GET /api/dashboard/stats → the dashboard figures (trainers and administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "trainer", "admin");
    return apiJson<DashboardStatsResponse>(await getDashboardStats(getDb()));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/dashboard/stats",
    operationId: "getDashboardStats",
    summary: "Dashboard figures",
    description: "Trainers and administrators.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The figures", schema: dashboardStatsResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
    },
  },
];
