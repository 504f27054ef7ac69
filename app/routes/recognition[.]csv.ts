import type { LoaderFunctionArgs } from "@remix-run/node";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { listRecognitions, RECOGNITION_CSV_COLUMNS, recognitionCsvRow } from "~/models/recognition.server";
import { recognitionListQuery } from "~/schemas/recognition";
import { csvField } from "~/utils/csv";
import { organisationToday } from "~/utils/organisation-calendar";

/**
 * GET /recognition.csv with the register's filters: each role's own view (a learner their own
 * applications, a trainer the RPLs they assess, administrators all), scoped by the model's query.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer", "student");
  const parsed = recognitionListQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const items = await listRecognitions(getDb(), user, parsed.data);
  const encoder = new TextEncoder();
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // The byte-order mark lets spreadsheet programs read the file as UTF-8.
      controller.enqueue(encoder.encode(`\uFEFF${RECOGNITION_CSV_COLUMNS.join(",")}\r\n`));
    },
    pull(controller) {
      const item = items[next++];
      if (!item) return controller.close();
      const row = recognitionCsvRow(item);
      controller.enqueue(encoder.encode(`${RECOGNITION_CSV_COLUMNS.map((c) => csvField(row[c])).join(",")}\r\n`));
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="recognitions-${organisationToday()}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
