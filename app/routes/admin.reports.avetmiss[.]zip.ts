import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { avetmissZipResponse, badYear, reportYear } from "~/avetmiss/download.server";

/** GET /admin/reports/avetmiss.zip?year=YYYY: the year's ten NAT files as avetmiss-YYYY.zip (administrators). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const { year, error } = reportYear(new URL(request.url));
  return year === null ? badYear(error) : avetmissZipResponse(year);
}
