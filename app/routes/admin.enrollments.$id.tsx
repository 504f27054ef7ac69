import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { StatusBadge } from "~/components/status-badges";
import { useActionToast } from "~/components/toaster";
import { Card, ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import { getDb } from "~/db.server";
import { PLANNED_DATES_UPDATED, setPlannedDates } from "~/models/enrollment.server";
import { getEnrollmentForTrainer } from "~/models/trainer-students.server";
import { plannedDatesSchema } from "~/schemas/enrollment-update";
import { answerForm } from "~/utils/form-action.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { formatDate } from "~/utils/format";
import { foundOr404 } from "~/utils/http.server";

/**
 * An enrolment as the training office sees it for reporting: its state and the planned start
 * and end that NAT00120 reports. The readiness list links here when an activity's dates do not
 * fit its outcome (an in-progress enrolment planned to end inside the collection year, say).
 */
function loadEnrollment(id: string | undefined) {
  return foundOr404(id, (enrollmentId) => getEnrollmentForTrainer(getDb(), enrollmentId), "Enrolment not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return { enrollment: await loadEnrollment(params.id) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const enrollment = await loadEnrollment(params.id);
  const here = `/admin/enrollments/${enrollment.id}`;
  return answerForm(request, {
    schema: plannedDatesSchema,
    requires: ["planned_start_date", "planned_end_date"],
    unreadable: "The form could not be read; please try again",
    invalid: "Please correct the highlighted fields",
    save: async (input) => {
      const { changed } = await setPlannedDates(getDb(), {
        enrollmentId: enrollment.id,
        start: input.planned_start_date,
        end: input.planned_end_date,
        actorId: admin.id,
      });
      return redirectWithFlash(here, changed ? { type: "success", message: PLANNED_DATES_UPDATED } : { type: "info", message: "Nothing to change: these are the planned dates already." });
    },
  });
}

export default function AdminEnrollment() {
  const { enrollment } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const errors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  return (
    <>
      <PageTitle
        title="Enrolment"
        subtitle={`${enrollment.student.full_name} \u00b7 ${enrollment.course.unit_code} ${enrollment.course.name}`}
        actions={
          <Link to={`/admin/students/${enrollment.student.id}`} className="font-semibold text-hivis-800 underline underline-offset-2">
            Back to the student
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="p-5 sm:p-6">
          <h2 className="mb-3 text-lg font-bold text-steel-900">State</h2>
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="font-semibold text-steel-600">Status</dt>
              <dd>
                <StatusBadge status={enrollment.status} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Enrolled</dt>
              <dd className="text-steel-900">{formatDate(enrollment.enrollment_date)}</dd>
            </div>
            {enrollment.completion_date ? (
              <div>
                <dt className="font-semibold text-steel-600">Completed</dt>
                <dd className="text-steel-900">{formatDate(enrollment.completion_date)}</dd>
              </div>
            ) : null}
          </dl>
        </Card>
        <Card className="p-5 sm:p-6">
          <h2 className="mb-3 text-lg font-bold text-steel-900">Planned dates</h2>
          <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
            <ErrorSummary failure={data} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label="Planned start"
                name="planned_start_date"
                type="date"
                required
                defaultValue={v.planned_start_date ?? enrollment.planned_start_date ?? ""}
                error={errors.planned_start_date}
              />
              <TextField
                label="Planned end"
                name="planned_end_date"
                type="date"
                required
                defaultValue={v.planned_end_date ?? enrollment.planned_end_date ?? ""}
                error={errors.planned_end_date}
                hint="An enrolment still in progress at the end of a year is reported as continuing only when it is planned to end in a later year"
              />
            </div>
            <SubmitButton busyLabel="Saving...">Save planned dates</SubmitButton>
          </Form>
        </Card>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Enrolment | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Enrolment" message="Failed to load the enrolment" />;
}
