import { apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type ApiOperation, err, FORBIDDEN, UNAUTHENTICATED } from "~/api/operation";
import { requireApiUser } from "~/auth/api.server";
import { avetmissYearQuery } from "~/schemas/page-queries";
import { avetmissZipResponse } from "~/utils/avetmiss-download.server";
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
    await recordAvetmissExport(getDb(), { actor: { id: user.id, client: clientAddress(request) }, year });
    return avetmissZipResponse(year);
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
      "Administrators. The NCVER VET Provider Collection files for the calendar year (NAT00010, NAT00020, NAT00030, NAT00060, NAT00080, NAT00085, NAT00090, NAT00100, NAT00120 and NAT00130, fixed-width ASCII with CRLF line ends) as avetmiss-YYYY.zip. A year with no activity gives valid empty files.",
    tags: ["admin"],
    access: "required",
    query: avetmissYearQuery,
    responses: {
      200: { description: "avetmiss-YYYY.zip, as an attachment", zip: true },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("The year is missing or not four digits"),
    },
  },
];
