import type { LoaderFunctionArgs } from "@remix-run/node";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { ANNUAL_SUMMARY_COLUMNS, annualSummaryRows } from "~/models/standards/questionnaire.server";
import { annualQuery } from "~/schemas/questionnaire";
import { csvResponse } from "~/http/csv-response.server";

/**
 * GET /admin/questionnaires/annual.csv?audience=&year=: the annual summary of one questionnaire,
 * a row per question with the calendar year's aggregates (administrators). CSV, because the
 * figures are copied into the regulator's own summary form (docs/decisions/031).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const parsed = annualQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid request"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const rows = await annualSummaryRows(getDb(), parsed.data);
  return csvResponse({ request, columns: ANNUAL_SUMMARY_COLUMNS, rows, filename: `${parsed.data.audience}-questionnaire-summary-${parsed.data.year}.csv` });
}
