import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { RetentionResponse } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listDueForDestruction, listRetentionRules } from "~/models/retention.server";
import { organisationToday } from "~/utils/organisation-calendar";

/** GET /api/admin/retention → the retention rules and the evidence past its keep-until day, as /admin/retention lists them (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const db = getDb();
    const [rules, due] = await Promise.all([listRetentionRules(db), listDueForDestruction(db, organisationToday())]);
    return apiJson<RetentionResponse>({ rules, due }, { headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
