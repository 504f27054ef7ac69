import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation } from "@remix-run/react";
import {
  requireRole,
  getDb,
  countAssessmentsByStatus,
  countPendingAssessments,
  listAssessments,
  listPendingAssessments,
} from "~/routes/trainer+/assessments.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { AssessmentStatusBadge } from "~/components/status-badges";
import { AssessmentTable } from "~/components/trainer/assessment-table";
import { LiveSearchForm } from "~/components/trainer/live-search";
import { ButtonLink, Card, EmptyState, Pagination, TAP_LINK, TitledCard } from "~/components/ui";
import { ASSESSMENT_STATUSES } from "#db/schema";
import { PENDING_ASSESSMENT_DEFINITION } from "~/schemas/assessment-text";
import { assessmentListQuery } from "~/schemas/page-queries";
import { cn } from "~/utils/cn";
import { statusLabel } from "~/utils/format";

const PAGE_SIZE = 20;
const PENDING_SHOWN = 10;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const params = new URL(request.url).searchParams;
  const query = assessmentListQuery.parse({
    q: params.get("q") ?? "",
    status: params.get("status") || null,
    page: params.get("page") ?? 1,
  });
  const db = getDb();
  const [counts, list, pending, pendingTotal] = await Promise.all([
    countAssessmentsByStatus(db),
    listAssessments(db, { search: query.q, status: query.status, page: query.page, pageSize: PAGE_SIZE }),
    listPendingAssessments(db, { limit: PENDING_SHOWN }),
    countPendingAssessments(db),
  ]);
  return { query, counts, list, pending, pendingTotal, viewerId: user.id };
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

const STATUS_CARDS = [
  { status: "passed", border: "border-l-green-600" },
  { status: "failed", border: "border-l-red-600" },
  { status: "in_progress", border: "border-l-blue-600" },
  { status: "resubmission", border: "border-l-hivis-500" },
] as const;

export default function TrainerAssessments() {
  const { query, counts, list, pending, pendingTotal, viewerId } = useLoaderData<typeof loader>();
  const location = useLocation();
  const filtered = Boolean(query.q || query.status);
  return (
    <>
      <PageTitle
        title="Assessments"
        subtitle="Results on record, and the enrolments waiting on an assessor"
        actions={<ButtonLink to="/trainer/assessments/new">Record assessment</ButtonLink>}
      />

      <section aria-labelledby="by-status" className="mb-6">
        <h2 id="by-status" className="mb-3 text-lg font-semibold text-steel-900">
          Assessments by status <span className="text-sm font-normal text-steel-600">({counts.total} in all)</span>
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STATUS_CARDS.map(({ status, border }) => (
            <li key={status}>
              <Link
                to={`/trainer/assessments?status=${status}`}
                aria-current={query.status === status ? "true" : undefined}
                className={cn(
                  "block rounded-lg border border-l-4 border-steel-200 bg-white p-4 shadow-sm hover:bg-steel-50",
                  border,
                  query.status === status && "ring-2 ring-hivis-500",
                )}
              >
                <span className="block text-sm font-medium text-steel-600">{statusLabel(status)}</span>
                <span className="mt-1 block text-3xl font-bold tabular-nums text-steel-900" data-testid={`count-${status}`}>
                  {counts[status]}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <TitledCard title={`Waiting on an assessor (${pendingTotal})`} className="mb-6">
        <p id="pending" className="mb-3 text-sm text-steel-600">
          {PENDING_ASSESSMENT_DEFINITION}
        </p>
        {pending.length ? (
          <ul className="divide-y divide-steel-100">
            {pending.map((p) => (
              <li key={p.enrollment_id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span>
                  <span className="font-semibold text-steel-900">{p.student.full_name}</span>
                  <span className="text-steel-700"> &middot; {p.course_name}</span> <AssessmentStatusBadge status={p.latest_status} />
                </span>
                <Link
                  to={`/trainer/assessments/new?enrollment=${p.enrollment_id}`}
                  className={cn(TAP_LINK, linkClass)}
                  aria-label={`Record assessment for ${p.student.full_name}, ${p.course_name}`}
                >
                  Record assessment
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <EmptyState title="Nothing waiting">Every current enrolment has its assessment marked.</EmptyState>
        )}
        {pendingTotal > pending.length ? (
          <p className="mt-3 text-sm text-steel-600">
            Showing the {pending.length} longest waiting; find the rest under{" "}
            <Link to="/trainer/students" className={linkClass}>
              My Students
            </Link>
            .
          </p>
        ) : null}
      </TitledCard>

      <Card className="p-4 sm:p-5">
        <h2 className="mb-3 text-base font-semibold text-steel-900">Assessment records</h2>
        <LiveSearchForm action="/trainer/assessments" label="Search assessments" placeholder="Student or course" value={query.q}>
          <div>
            <label htmlFor="assessment-status-filter" className="mb-1 block text-sm font-semibold text-steel-800">
              Status
            </label>
            <select
              id="assessment-status-filter"
              name="status"
              defaultValue={query.status ?? ""}
              key={query.status ?? ""}
              className="block rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm sm:text-sm"
            >
              <option value="">All statuses</option>
              {ASSESSMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          </div>
        </LiveSearchForm>
        <div className="mt-4">
          {list.items.length ? (
            <>
              <AssessmentTable
                assessments={list.items}
                columns={["student", "course", "type", "status", "score", "date", "assessor", "evidence"]}
                evidenceOf={viewerId}
                caption="Assessments, newest first"
                className="min-w-[48rem]"
              />
              <Pagination
                label="Assessments"
                one="assessment"
                page={list.page}
                pageCount={list.pageCount}
                pageSize={list.pageSize}
                total={list.total}
                totalCapped={list.totalCapped}
                pathname="/trainer/assessments"
                search={location.search}
              />
            </>
          ) : (
            <EmptyState title={filtered ? "No assessments found" : "No assessments recorded"}>
              {filtered ? "No assessment matches this search." : "Recorded assessments appear here."}
            </EmptyState>
          )}
        </div>
      </Card>

      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Assessments | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
