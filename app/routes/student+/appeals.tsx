import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, decidedAssessmentsOf, listComplaints } from "~/routes/student+/appeals.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { TitledCard } from "~/components/ui";
import { KIND_LABELS, OUTCOME_LABELS, STATUS_LABELS } from "~/schemas/complaint-text";
import { formatDate } from "~/utils/format";

/** The learner's results, each with "Appeal this decision", and the complaints and appeals they lodged. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const [assessments, lodged] = await Promise.all([decidedAssessmentsOf(db, user.id), listComplaints(db, {}, { id: user.id, role: user.role })]);
  return { assessments, lodged };
}

export default function StudentAppeals() {
  const { assessments, lodged } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="Results and appeals" subtitle="If you disagree with an assessment decision, you can appeal it" />
      <div className="grid gap-6">
        <TitledCard title="My results">
          {assessments.length === 0 ? <p className="text-sm text-steel-600">No assessment decisions yet.</p> : null}
          <ul className="divide-y divide-steel-100">
            {assessments.map((a) => (
              <li key={`${a.kind}:${a.id}`} className="py-3 text-sm">
                <h3 className="font-semibold text-steel-900">
                  {a.title}: {a.result}
                </h3>
                <p className="text-steel-600">
                  {a.course}, decided {formatDate(a.decided_on)}
                  {a.assessor ? ` by ${a.assessor}` : ""}
                </p>
                {a.appeal && a.appeal.status !== "resolved" ? (
                  <p>
                    Appeal {a.appeal.reference}: {STATUS_LABELS[a.appeal.status]}
                  </p>
                ) : (
                  <>
                    {a.appeal ? (
                      <p>
                        Appeal {a.appeal.reference}: {a.appeal.outcome ? OUTCOME_LABELS[a.appeal.outcome] : STATUS_LABELS[a.appeal.status]}
                      </p>
                    ) : null}
                    <Link
                      to={`/student/appeals/${a.kind}/${a.id}`}
                      className="inline-flex min-h-11 items-center font-semibold underline"
                      aria-label={`Appeal this decision: ${a.title}`}
                    >
                      Appeal this decision
                    </Link>
                  </>
                )}
              </li>
            ))}
          </ul>
        </TitledCard>
        <TitledCard title="What I have lodged">
          {lodged.length === 0 ? <p className="text-sm text-steel-600">No complaints or appeals.</p> : null}
          <ul className="divide-y divide-steel-100">
            {lodged.map((c) => (
              <li key={c.id} className="py-3 text-sm">
                <p className="font-semibold">
                  {KIND_LABELS[c.kind]} {c.reference}: {c.outcome ? OUTCOME_LABELS[c.outcome] : STATUS_LABELS[c.status]}
                </p>
                <p className="text-steel-600">
                  Received {formatDate(c.received_at)}; resolve by {formatDate(c.resolve_by)}
                </p>
                {c.reasons ? <p className="whitespace-pre-line">Reasons: {c.reasons}</p> : null}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm">
            <Link to="/complaints/new" className="underline">
              Make a complaint
            </Link>
          </p>
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Results and appeals | Student Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Results and appeals" message="Failed to load your results" />;
}
