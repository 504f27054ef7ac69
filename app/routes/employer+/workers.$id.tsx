import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole, getDb, getWorker, readOrRefuse } from "~/routes/employer+/workers.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { TitledCard, TAP_LINK } from "~/components/ui";
import { cn } from "~/utils/cn";
import { classDates } from "~/schemas/class-text";
import { CONSENT_LABELS, CONSENT_MISSING, WORKER_STATE_LABELS } from "~/schemas/employer-text";
import { formatDate } from "~/utils/format";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  // an unknown id, or another organisation's worker, is the page's 404, never a server error
  return { worker: await readOrRefuse(() => getWorker(getDb(), user, params.id ?? "")) };
}

export default function WorkerPage() {
  const { worker } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title={worker.full_name} subtitle={`${worker.course}, ${classDates(worker.start_date, worker.end_date)}`} />
      <TitledCard title="Enrolment">
        <dl className="grid gap-2 text-sm sm:grid-cols-2">
          <dt className="font-semibold">State</dt>
          <dd>{WORKER_STATE_LABELS[worker.state]}</dd>
          <dt className="font-semibold">Progress</dt>
          <dd>{worker.enrollment ? `${worker.enrollment.progress_percentage}%` : "Not enrolled yet"}</dd>
          <dt className="font-semibold">Attendance</dt>
          <dd>
            {worker.attendance.present} present, {worker.attendance.late} late, {worker.attendance.absent} absent of {worker.attendance.sessions} sessions
          </dd>
          <dt className="font-semibold">Results shared</dt>
          <dd>{CONSENT_LABELS[worker.consent]}</dd>
        </dl>
      </TitledCard>
      <TitledCard title="Results" className="mt-6">
        {worker.results === null ? (
          <p className="text-sm">{CONSENT_MISSING}</p>
        ) : (
          <div className="space-y-3 text-sm">
            {worker.results.statements.length === 0 ? <p>No statement of attainment yet.</p> : null}
            {worker.results.statements.map((s) => (
              <p key={s.id}>
                <a href={`/certificates/${s.id}/download`} className={cn(TAP_LINK, "font-semibold text-hivis-800 underline")}>
                  Download statement of attainment {s.certificate_number}
                </a>{" "}
                (issued {formatDate(s.issue_date)})
              </p>
            ))}
            {worker.results.nsas.length ? (
              <p className="text-steel-700">
                An <abbr title="Notice of Satisfactory Assessment">NSA</abbr> (Notice of Satisfactory Assessment) shows the worker passed the high risk work
                licence assessment; they use it to apply for the licence.
              </p>
            ) : null}
            {worker.results.nsas.map((n) => (
              <p key={n.nsa_number}>
                {n.licence_class} NSA {n.nsa_number}, {formatDate(n.nsa_date)}
              </p>
            ))}
            {worker.results.deadlines.map((d) => (
              <p key={d.licence_class}>
                Apply for the {d.licence_class} licence {d.apply_where} by {formatDate(d.deadline)}
              </p>
            ))}
          </div>
        )}
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Worker | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Worker" message="Worker not found" />;
}
