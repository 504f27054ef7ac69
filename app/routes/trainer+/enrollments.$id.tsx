import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  listAssessments,
  getEnrollmentForTrainer,
  updateEnrollmentProgress,
  prepareCertificatePdf,
  answerForm,
  redirectWithFlash,
  foundOr404,
} from "~/routes/trainer+/enrollments.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { AssessmentTable } from "~/components/trainer/assessment-table";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { EnrollmentSummaryCard, linkClass } from "~/components/trainer/enrollment-summary";
import { Alert, ButtonLink, CheckboxField, EmptyState, ErrorSummary, SelectField, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { ENROLLMENT_STATUSES } from "#db/schema";
import { enrollmentUpdateSchema } from "~/schemas/enrollment-update";
import { statusLabel } from "~/utils/format";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const ENROLLMENT_UPDATED = "Enrolment updated successfully";
const AWAITING_USI_NOTE = "The certificate waits until the student's USI is verified (see Awaiting USI under Certificates).";

/** The enrolment, or a 404 page inside the trainer frame. */
function loadEnrollment(id: string | undefined) {
  return foundOr404(id, (found) => getEnrollmentForTrainer(getDb(), found), "Enrolment not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "trainer");
  const enrollment = await loadEnrollment(params.id);
  const assessments = await listAssessments(getDb(), { enrollmentId: enrollment.id, pageSize: 100 });
  return { enrollment, assessments: assessments.items };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const enrollment = await loadEnrollment(params.id);
  const here = `/trainer/enrollments/${enrollment.id}`;
  return answerForm(request, {
    schema: enrollmentUpdateSchema,
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      const result = await updateEnrollmentProgress(getDb(), { enrollmentId: enrollment.id, ...input, actorId: user.id });
      if (!result.changed) {
        const message =
          result.enrollment.status === "completed"
            ? "Nothing to change: this enrolment is already completed."
            : "Nothing to change: the enrolment already has this progress and status.";
        return redirectWithFlash(here, { type: "info", message });
      }
      if (result.awaitingUsi) return redirectWithFlash(here, { type: "success", message: `${ENROLLMENT_UPDATED}. ${AWAITING_USI_NOTE}` });
      if (!result.issuedCertificate) return redirectWithFlash(here, { type: "success", message: ENROLLMENT_UPDATED });
      void prepareCertificatePdf(getDb(), result.issuedCertificate.id);
      const message = `${ENROLLMENT_UPDATED}. Certificate ${result.issuedCertificate.certificate_number} issued.`;
      return redirectWithFlash(here, { type: "success", message });
    },
  });
}

export default function UpdateEnrollment() {
  const { enrollment, assessments } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const current = enrollment.status === "enrolled" || enrollment.status === "in_progress";
  const withdrawn = enrollment.status === "withdrawn";
  return (
    <>
      <PageTitle
        title="Update progress"
        subtitle={`${enrollment.student.full_name} \u00b7 ${enrollment.course.name}`}
        actions={
          <Link to="/trainer/students" className={linkClass}>
            Back to My Students
          </Link>
        }
      />
      <div className="grid gap-6 lg:grid-cols-5">
        <EnrollmentSummaryCard enrollment={enrollment} />

        <TitledCard title="Change progress and status" className="lg:col-span-3">
          {enrollment.status === "completed" ? (
            <Alert tone="info">This enrolment is completed and cannot be reopened: its certificate stands.</Alert>
          ) : (
            <Form method="post" noValidate className="space-y-4">
              <ErrorSummary failure={data} />
              {withdrawn ? (
                <Alert tone="info">This enrolment is withdrawn. It is only reinstated if you tick &ldquo;Reopen this withdrawn enrolment&rdquo;.</Alert>
              ) : null}
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Progress (%)"
                  name="progress"
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  step={1}
                  required
                  defaultValue={v.progress ?? String(enrollment.progress_percentage)}
                  error={errors.progress}
                  hint="Whole number from 0 to 100"
                />
                <SelectField
                  label="Status"
                  name="status"
                  required
                  defaultValue={v.status ?? enrollment.status}
                  error={errors.status}
                  options={ENROLLMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
                />
              </div>
              {withdrawn ? (
                <CheckboxField
                  label="Reopen this withdrawn enrolment"
                  name="reopen"
                  defaultChecked={v.reopen === "on"}
                  error={errors.reopen}
                  hint="Needed to move a withdrawn enrolment back to enrolled or in progress"
                />
              ) : null}
              <ul className="list-disc space-y-1 pl-5 text-xs text-steel-600">
                <li>Enrolled means not started, so its progress is 0%.</li>
                <li>
                  Completing needs a passed latest assessment; it sets progress to 100%, records the completion date and issues the certificate. A completed
                  enrollment cannot be reopened.
                </li>
                <li>Withdrawing keeps the progress reached so far.</li>
              </ul>
              <div className="flex flex-wrap gap-2">
                <SubmitButton busyLabel="Saving...">Save changes</SubmitButton>
              </div>
            </Form>
          )}
        </TitledCard>
      </div>

      <TitledCard
        title="Assessments for this enrolment"
        className="mt-6"
        actions={
          current ? (
            <ButtonLink to={`/trainer/assessments/new?enrollment=${enrollment.id}`} size="sm">
              Record assessment
            </ButtonLink>
          ) : null
        }
      >
        {assessments.length ? (
          <AssessmentTable
            assessments={assessments}
            columns={["date", "type", "status", "score", "assessor", "feedback"]}
            caption="Assessments for this enrolment, newest first"
            className="min-w-[36rem]"
          />
        ) : (
          <EmptyState title="No assessments recorded">Record an assessment before completing this enrolment.</EmptyState>
        )}
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Update progress | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
