import { apiJson, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listRules } from "~/models/hrw/hrw-rules.server";
import { organisationToday } from "~/utils/organisation-calendar";

/** GET /api/admin/hrw/rules: each state's rules with their sources, as /admin/hrw/rules shows them (administrators). */
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const today = organisationToday();
    return apiJson({ today, rules: await listRules(getDb(), today) });
  },
});
export const loader = route;
export const action = route;
