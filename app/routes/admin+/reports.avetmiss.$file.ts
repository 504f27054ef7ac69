import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { NAT_FILES, type NatFileName } from "~/avetmiss/nat-files";
import { badYear, natFileResponse, reportYear } from "~/route-helpers/avetmiss-download.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { recordAvetmissExport } from "~/models/audit.server";
import { fileNotFound } from "~/route-helpers/file-refusal.server";

/** GET /admin/reports/avetmiss/NAT000NN.txt?year=YYYY: one NAT file of the year (administrators). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin");
  const file = /^(NAT\d{5})\.txt$/.exec(params.file ?? "")?.[1];
  if (!file || !(NAT_FILES as readonly string[]).includes(file)) {
    throw fileNotFound("No such AVETMISS file");
  }
  const { year, error } = reportYear(new URL(request.url));
  if (year === null) return badYear(error);
  const response = await natFileResponse(year, file as NatFileName);
  if (response.ok) await recordAvetmissExport(getDb(), { actor: { id: user.id, client: clientAddress(request) }, year, file });
  return response;
}
