import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  answerRecognitionUpload,
  isMultipart,
  recognitionDecisions,
  getRecognition,
  recognitionEvidence,
  listRefereeRequests,
  listRecognitionSessions,
  formFailure,
  readOrRefuse,
} from "~/routes/student+/recognition_.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RecognitionDetails, RecognitionEvidence } from "~/components/recognition/recognition-details";
import { RecognitionHistory } from "~/components/recognition/recognition-history";
import { CompetencySessions, RefereeReports } from "~/components/recognition/rpl-steps";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { TitledCard } from "~/components/ui";
import { organisationToday } from "~/utils/organisation-calendar";
import { FORM_UNREADABLE } from "~/utils/form-text";

/**
 * One of the learner's own applications: its status, the decision's reasons, its evidence (they
 * add more while it waits) and, once decided by an assessor or staff member, the way to appeal
 * through the appeals. For an RPL, the competency sessions booked and the third-party reports
 * asked for (who was asked and whether it arrived, not what the referee wrote). Another
 * learner's, or an unknown one, is not found.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const r = await readOrRefuse(() => getRecognition(db, user, params.id ?? ""));
  const rpl = r.kind === "rpl";
  const [files, decisions, referees, sessions] = await Promise.all([
    recognitionEvidence(db, user, r.id),
    recognitionDecisions(db, r),
    rpl ? listRefereeRequests(db, user, r.id) : Promise.resolve([]),
    rpl ? listRecognitionSessions(db, user, r.id) : Promise.resolve([]),
  ]);
  return { r, files, decisions, referees, sessions, today: organisationToday() };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  const r = await readOrRefuse(() => getRecognition(getDb(), user, params.id ?? ""));
  if (!isMultipart(request)) return formFailure(FORM_UNREADABLE);
  return answerRecognitionUpload(request, user, r.id, `/student/recognition/${r.id}`);
}

export default function StudentRecognitionItem() {
  const { r, files, decisions, referees, sessions, today } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const appealable = r.status !== "applied" && (r.assessor !== null || r.decided_by !== null);
  return (
    <>
      <PageTitle
        title={r.kind === "rpl" ? `RPL: ${r.course.unit_code}` : `Credit transfer: ${r.course.unit_code}`}
        actions={
          <Link to="/student/recognition" className="underline">
            Back to my applications
          </Link>
        }
      />
      <div className="grid gap-6">
        <RecognitionDetails r={r} />
        <RecognitionHistory decisions={decisions} waiting={r.status === "applied"} />
        {r.fee_invoice_id ? (
          <p className="text-sm">
            The RPL assessment fee is on{" "}
            <Link to="/student/invoices" className="font-semibold underline">
              your invoices
            </Link>
            .
          </p>
        ) : null}
        <RecognitionEvidence
          files={files}
          mayAdd={r.status === "applied"}
          error={data?.fieldErrors?.files ?? (data?.values?.intent === "upload" ? data.error : null)}
        />
        {r.kind === "rpl" && sessions.length ? <CompetencySessions sessions={sessions} manage={false} today={today} /> : null}
        {r.kind === "rpl" && referees.length ? <RefereeReports requests={referees} mayRequest={false} /> : null}
        {appealable ? (
          <TitledCard title="Disagree with the decision?">
            <p className="text-sm">You can appeal it: someone other than the person who decided it looks at it again.</p>
            <Link to={`/student/appeals/recognition/${r.id}`} className="mt-2 inline-flex min-h-11 items-center font-semibold underline">
              Appeal this decision
            </Link>
          </TitledCard>
        ) : null}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Application | Credit transfer and RPL" }];

export function ErrorBoundary() {
  return <RouteError title="Credit transfer and RPL" message="This application could not be found" />;
}
