import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { organisationToday } from "~/utils/organisation-calendar";
import { AUDIT_CSV_COLUMNS, auditEntryView, auditRows } from "~/models/audit.server";
import { csvField } from "~/utils/csv";
import { auditQuery } from "~/schemas/audit";
import { queryObject } from "~/api/http.server";

/**
 * GET /admin/audit.csv with the filters of /admin/audit: every matching entry, oldest first, as
 * a CSV download (administrators). Written a batch at a time, so a long trail never sits whole
 * in memory.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const parsed = auditQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = auditRows(getDb(), parsed.data);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // The byte-order mark lets spreadsheet programs read the file as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${AUDIT_CSV_COLUMNS.join(",")}\r\n`));
    },
    async pull(controller) {
      const next = await rows.next();
      if (next.done) return controller.close();
      const entry = auditEntryView(next.value);
      const line = AUDIT_CSV_COLUMNS.map((c) => csvField(c === "fields" ? entry.fields.join(" ") : entry[c])).join(",");
      controller.enqueue(encoder.encode(`${line}\r\n`));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const date = organisationToday();
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-${date}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
