import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getEnrollmentReview,
  overrideReview,
  enrollmentReviewFor,
  clientAddress,
  getDb,
  PLANNED_DATES_UPDATED,
  setPlannedDates,
  getEnrollmentForTrainer,
  answerForm,
  redirectWithFlash,
  foundOr404,
  formIntent,
} from "~/routes/admin+/enrollments.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { StatusBadge } from "~/components/status-badges";
import { useActionToast } from "~/components/toaster";
import { Card, ErrorSummary, SelectField, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { ReviewResult } from "~/components/review/review-parts";
import { reviewOverrideSchema } from "~/schemas/review";
import { REVIEW_OUTCOME_LABELS, REVIEW_OUTCOMES, REVIEW_OVERRIDDEN, REVIEW_STATUS_LABELS, reviewSummary } from "~/schemas/review-text";
import { plannedDatesSchema } from "~/schemas/enrollment-update";
import { formatDate } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/**
 * An enrolment as the training office sees it for reporting: its state and the planned start
 * and end that NAT00120 reports. The readiness list links here when an activity's dates do not
 * fit its outcome (an in-progress enrolment planned to end inside the collection year, say).
 */
function loadEnrollment(id: string | undefined) {
  return foundOr404(id, (enrollmentId) => getEnrollmentForTrainer(getDb(), enrollmentId), "Enrolment not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const enrollment = await loadEnrollment(params.id);
  const review = await getEnrollmentReview(getDb(), enrollment.id);
  return { enrollment, review: review ? (enrollmentReviewFor(admin, review) as typeof review) : null };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const enrollment = await loadEnrollment(params.id);
  const here = `/admin/enrollments/${enrollment.id}`;
  const intent = await formIntent(request);
  if (intent === "review-override") {
    return answerForm(request, {
      schema: reviewOverrideSchema,
      input: (form) => ({ outcome: form.get("outcome") ?? "", reason: form.get("reason") ?? "" }),
      save: async (change) => {
        await overrideReview(getDb(), { enrollmentId: enrollment.id, change, actor: { id: admin.id, client: clientAddress(request) } });
        return redirectWithFlash(`${here}#review`, { type: "success", message: REVIEW_OVERRIDDEN });
      },
    });
  }
  return answerForm(request, {
    schema: plannedDatesSchema,
    requires: ["planned_start_date", "planned_end_date"],
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      const { changed } = await setPlannedDates(getDb(), {
        enrollmentId: enrollment.id,
        start: input.planned_start_date,
        end: input.planned_end_date,
        actorId: admin.id,
      });
      return redirectWithFlash(
        here,
        changed ? { type: "success", message: PLANNED_DATES_UPDATED } : { type: "info", message: "Nothing to change: these are the planned dates already." },
      );
    },
  });
}

export default function AdminEnrollment() {
  const { enrollment, review } = useLoaderData<typeof loader>();
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
            <ErrorSummary failure={data} only={["planned_start_date", "planned_end_date"]} />
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
      {review ? (
        <Card className="mt-6 scroll-mt-4 p-5 sm:p-6">
          <section id="review" aria-labelledby="review-title" className="space-y-4">
            <h2 id="review-title" className="text-lg font-bold text-steel-900">
              Pre-enrolment review
            </h2>
            <p className="text-sm text-steel-800">{`${REVIEW_STATUS_LABELS[review.status]} \u00b7 ${reviewSummary(review.outcome, review.support)}`}</p>
            {review.override ? (
              <p className="text-sm text-steel-800">{`Outcome set by staff on ${formatDate(review.override.at)}: ${review.override.reason}`}</p>
            ) : null}
            {review.attempts.map((a, i) => (
              <ReviewResult key={a.id} result={a} title={i === 0 ? "Latest attempt" : "Earlier attempt"} />
            ))}
            <Form method="post" noValidate className="space-y-4" key={`review-${data?.submittedAt ?? "initial"}`}>
              <ErrorSummary failure={data} only={["outcome", "reason"]} />
              <SelectField
                label="Outcome"
                name="outcome"
                defaultValue={v.outcome ?? review.outcome ?? ""}
                error={errors.outcome}
                placeholder="Choose the outcome"
                options={REVIEW_OUTCOMES.map((o) => ({ value: o, label: REVIEW_OUTCOME_LABELS[o] }))}
              />
              <TextAreaField
                label="Reason"
                name="reason"
                rows={3}
                defaultValue={v.reason ?? ""}
                error={errors.reason}
                hint="Kept with the enrolment and in the audit trail"
              />
              <SubmitButton intent="review-override" busyLabel="Saving...">
                Override the outcome
              </SubmitButton>
            </Form>
          </section>
        </Card>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Enrolment | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Enrolment" message="Failed to load the enrolment" />;
}
