import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { WORKER_CSV_COLUMNS, workerCsvRows } from "~/models/employer-view.server";
import { csvField } from "~/utils/csv";
import { organisationToday } from "~/utils/organisation-calendar";

/** GET /employer/workers.csv: the employer's workers, results only for those who share them. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  const rows = await workerCsvRows(getDb(), { id: user.id, role: user.role, client: clientAddress(request) });
  const body = `\uFEFF${[WORKER_CSV_COLUMNS.join(","), ...rows.map((r) => r.map(csvField).join(","))].join("\r\n")}\r\n`;
  return new Response(body, {
    headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="workers-${organisationToday()}.csv"`, "Cache-Control": "no-store" },
  });
}
