import { usiCleared } from "~/rules/usi";
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
  jsonResponse,
} from "./trainer.enrollments.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { StatusBadge, TierBadge } from "~/components/status-badges";
import { AssessmentTable } from "~/components/trainer/assessment-table";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { Alert, ButtonLink, CheckboxField, EmptyState, ErrorSummary, ProgressBar, SelectField, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { ENROLLMENT_STATUSES } from "#db/schema";
import { enrollmentUpdateSchema } from "~/schemas/enrollment-update";
import { uuid } from "~/schemas/fields";
import { formatDate, statusLabel } from "~/utils/format";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const ENROLLMENT_UPDATED = "Enrolment updated successfully";
const AWAITING_USI_NOTE = "The certificate waits until the student's USI is verified (see Awaiting USI under Certificates).";

/** The enrolment, or a 404 page inside the trainer frame. */
async function loadEnrollment(id: string | undefined) {
  const enrollment = id && uuid.safeParse(id).success ? await getEnrollmentForTrainer(getDb(), id) : null;
  if (!enrollment) throw jsonResponse("Enrolment not found", { status: 404 });
  return enrollment;
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

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

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
        <TitledCard title="Enrolment" className="lg:col-span-2">
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="font-semibold text-steel-600">Student</dt>
              <dd className="text-steel-900">
                {enrollment.student.full_name}
                <span className="block break-all text-xs text-steel-600">{enrollment.student.email}</span>
                {enrollment.student.is_active ? null : <span className="text-xs font-semibold text-red-700">Account inactive</span>}
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Course</dt>
              <dd className="text-steel-900">
                {enrollment.course.name} <TierBadge tier={enrollment.course.tier} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Status</dt>
              <dd>
                <StatusBadge status={enrollment.status} />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Progress</dt>
              <dd>
                <ProgressBar value={enrollment.progress_percentage} label="Course progress" />
              </dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Enrolled</dt>
              <dd className="text-steel-900">{formatDate(enrollment.enrollment_date)}</dd>
            </div>
            <div>
              {/* set by the training office on the enrolment; NCVER's report reads them */}
              <dt className="font-semibold text-steel-600">Planned start</dt>
              <dd className="text-steel-900">{formatDate(enrollment.planned_start_date, "Not set")}</dd>
            </div>
            <div>
              <dt className="font-semibold text-steel-600">Planned end</dt>
              <dd className="text-steel-900">{formatDate(enrollment.planned_end_date, "Not set")}</dd>
            </div>
            {enrollment.completion_date ? (
              <div>
                <dt className="font-semibold text-steel-600">Completed</dt>
                <dd className="text-steel-900">{formatDate(enrollment.completion_date)}</dd>
              </div>
            ) : null}
            <div>
              <dt className="font-semibold text-steel-600">Certificate</dt>
              <dd className="text-steel-900">
                {enrollment.certificate ? (
                  <>
                    <span className="font-semibold" data-testid="certificate-number">
                      {enrollment.certificate.certificate_number}
                    </span>
                    , issued {formatDate(enrollment.certificate.issue_date)}{" "}
                    <a href={`/certificates/${enrollment.certificate.id}/download`} className={linkClass} download>
                      Download PDF
                    </a>
                  </>
                ) : enrollment.status === "completed" ? (
                  <>
                    Not issued yet
                    {usiCleared(enrollment.student.usi_status) ? "" : " (USI not verified)"}:{" "}
                    <Link to="/trainer/certificates" className={linkClass}>
                      issue it under Certificates
                    </Link>
                  </>
                ) : (
                  "Issued when the enrolment is completed"
                )}
              </dd>
            </div>
          </dl>
        </TitledCard>

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
