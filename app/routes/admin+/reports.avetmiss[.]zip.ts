import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { avetmissZipResponse, badYear, reportYear } from "~/route-helpers/avetmiss-download.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { recordAvetmissExport } from "~/models/audit.server";

/** GET /admin/reports/avetmiss.zip?year=YYYY: the year's ten NAT files as avetmiss-YYYY.zip (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin");
  const { year, error } = reportYear(new URL(request.url));
  if (year === null) return badYear(error);
  const response = await avetmissZipResponse(year);
  // only a report that left the portal is an export (a year with no activity answers 404)
  if (response.ok) await recordAvetmissExport(getDb(), { actor: { id: user.id, client: clientAddress(request) }, year });
  return response;
}
