import { apiRoute, parseInput, queryObject } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { avetmissYearQuery } from "~/schemas/page-queries";
import { avetmissZipResponse } from "~/route-helpers/avetmiss-download.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { recordAvetmissExport } from "~/models/audit.server";

/**
 * GET /api/admin/avetmiss?year=YYYY: the year's AVETMISS report, the same avetmiss-YYYY.zip
 * the reports page downloads (administrators). A year that is not four digits is a 422.
 */
const route = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "admin");
    const { year } = parseInput(avetmissYearQuery, queryObject(request));
    const response = await avetmissZipResponse(year, true);
    // only a report that left the portal is an export (a year with no activity answers 404)
    if (response.ok) await recordAvetmissExport(getDb(), { actor: { id: user.id, client: clientAddress(request) }, year });
    return response;
  },
});
export const loader = route;
export const action = route;
