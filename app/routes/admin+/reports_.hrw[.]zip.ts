import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { hrwAuditPack } from "~/models/hrw/hrw-audit-pack.server";
import { auditPackZip } from "~/pdf/hrw-audit-pack.server";
import { readAuditPackQuery } from "~/schemas/hrw";
import { redirectWithFlash } from "~/utils/flash.server";

/**
 * GET /admin/reports/hrw.zip?state=VIC&year=2025: a regulator's yearly audit pack, one zip
 * (administrators). A state or year that does not read goes back to the audit page with the
 * message, as the page's form is where it was chosen.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const pack = readAuditPackQuery(new URL(request.url));
  if (!pack.success) return redirectWithFlash("/admin/reports/hrw", { type: "error", message: pack.message });
  const zip = await auditPackZip(await hrwAuditPack(getDb(), pack.data.state, pack.data.year), env().RTO_NAME);
  return new Response(Buffer.from(zip), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="hrw-audit-pack-${pack.data.state}-${pack.data.year}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}
