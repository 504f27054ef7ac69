import { apiJson, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { assessorCurrency } from "~/models/hrw/hrw-currency.server";
import { organisationToday } from "~/utils/organisation-calendar";

/** GET /api/hrw/currency: the signed-in assessor's currency per state and class, from the portal's records. */
const route = apiRoute({
  GET: async ({ request }) => {
    const trainer = await requireApiUser(request, "trainer");
    const today = organisationToday();
    return apiJson({ today, currency: await assessorCurrency(getDb(), trainer.id, today) });
  },
});
export const loader = route;
export const action = route;
