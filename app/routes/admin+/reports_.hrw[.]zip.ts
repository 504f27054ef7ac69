import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { hrwAuditPack } from "~/models/hrw/hrw-audit-pack.server";
import { auditPackZip } from "~/pdf/hrw-audit-pack.server";
import { readAuditPackQuery } from "~/schemas/hrw";

/**
 * GET /admin/reports/hrw.zip?state=VIC&year=2025: a regulator's yearly audit pack, one zip
 * (administrators). The state's code is read in any case. A state or year that does not read
 * goes back to the audit page with what was asked, which shows why at the field, as the page's
 * form is where it was chosen.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const pack = readAuditPackQuery(new URL(request.url));
  if (!pack.success) {
    const asked = new URL(request.url).searchParams;
    return redirect(`/admin/reports/hrw?${new URLSearchParams({ state: asked.get("state") ?? "", year: asked.get("year") ?? "" })}`);
  }
  const zip = await auditPackZip(await hrwAuditPack(getDb(), pack.data.state, pack.data.year), env().RTO_NAME);
  return new Response(Buffer.from(zip), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="hrw-audit-pack-${pack.data.state}-${pack.data.year}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}
