import { apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type ApiOperation, err, FORBIDDEN, UNAUTHENTICATED } from "~/api/operation";
import { requireApiUser } from "~/auth/api.server";
import { avetmissYearQuery } from "~/schemas/page-queries";
import { avetmissZipResponse } from "~/avetmiss/download.server";
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

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/avetmiss",
    operationId: "exportAvetmiss",
    summary: "AVETMISS report for a year (zip)",
    description:
      "Administrators. The NCVER VET Provider Collection files for the calendar year (NAT00010, NAT00020, NAT00030, NAT00060, NAT00080, NAT00085, NAT00090, NAT00100, NAT00120 and NAT00130, fixed-width ASCII with CRLF line ends) as avetmiss-YYYY.zip. A year with no training activity is a 404 with its reason (there is nothing to lodge); a year outside 1980-2099 is a 422.",
    tags: ["admin"],
    access: "required",
    query: avetmissYearQuery,
    responses: {
      200: { description: "avetmiss-YYYY.zip, as an attachment", zip: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No training activity in that year: nothing to report"),
      422: err("The year is missing, not four digits, or outside 1980-2099"),
    },
  },
];
