import type { LoaderFunctionArgs } from "@remix-run/node";
import { queryObject } from "~/api/http.server";
import { requireRole } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { allImprovementActions, IMPROVEMENT_CSV_COLUMNS } from "~/models/standards/improvement.server";
import { improvementListQuery } from "~/schemas/improvement";
import { IMPROVEMENT_SOURCE_LABELS, IMPROVEMENT_STATUS_LABELS } from "~/schemas/improvement-text";
import { csvResponse } from "~/http/csv-response.server";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";

/**
 * GET /admin/improvements.csv with the register's filters: every matching action in the
 * register's order (administrators). Days are the organisation's (Australia/Sydney): due days as
 * kept, and the days an action was raised and closed read on its calendar. Named by its date.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const parsed = improvementListQuery.safeParse(queryObject(request));
  if (!parsed.success) {
    return new Response(`${parsed.error.issues[0]?.message ?? "Invalid filters"}\n`, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const today = organisationToday();
  const actions = await allImprovementActions(getDb(), parsed.data, today);
  const rows = actions.map((a) => ({
    id: a.id,
    source_type: IMPROVEMENT_SOURCE_LABELS[a.source_type],
    source_id: a.source_id,
    source: a.source_label,
    description: a.description,
    owner: a.owner.full_name,
    due_date: a.due_date,
    status: IMPROVEMENT_STATUS_LABELS[a.status],
    overdue: a.overdue ? "yes" : "no",
    action_taken: a.action_taken,
    closure_evidence: a.closure_evidence,
    closed_on: a.closed_at ? organisationDate(a.closed_at) : null,
    closed_by: a.closed_by?.full_name ?? null,
    raised_on: organisationDate(a.created_at),
  }));
  return csvResponse({ request, columns: IMPROVEMENT_CSV_COLUMNS, rows, filename: `improvement-register-${today}.csv` });
}
