import type { LoaderFunctionArgs } from "@remix-run/node";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { RECOGNITION_CSV_COLUMNS, recognitionCsvRow, recognitionRegisterRows } from "~/models/recognition/recognition.server";
import { recognitionListQuery } from "~/schemas/recognition";
import { csvResponse, mapRows } from "~/http/csv-response.server";
import { organisationToday } from "~/utils/organisation-calendar";

/**
 * GET /recognition.csv with the register's filters: each role's own view (a learner their own
 * applications, a trainer the RPLs they assess, administrators all), scoped by the model's query,
 * every application, read a batch at a time.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer", "student");
  const parsed = recognitionListQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = mapRows(recognitionRegisterRows(getDb(), user, parsed.data), recognitionCsvRow);
  return csvResponse({ request, columns: RECOGNITION_CSV_COLUMNS, rows, filename: `recognitions-${organisationToday()}.csv` });
}
