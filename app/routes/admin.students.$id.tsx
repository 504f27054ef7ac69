import {
  foundOr404,
  requireRole,
  isMultipart,
  addLearnerDocument,
  answerUploadForm,
  getDb,
  prepareCertificatePdf,
  getCertificateForViewer,
  listCertificateHistory,
  type CertificateHistoryEntry,
  reissueCertificate,
  revokeCertificate,
  getStudentDetail,
  redirectWithFlash,
  answerForm,
  clientAddress,
} from "./admin.students.$id.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { RouteError } from "~/components/route-error";
import { ActiveBadge, StatusBadge, TierBadge } from "~/components/status-badges";
import { Alert, Badge, buttonClasses, ConfirmAction, ErrorSummary, Modal, ProgressBar, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { EVIDENCE_ACCEPT } from "~/files/types";
import { LEARNER_DOCUMENT_MESSAGES, learnerDocumentSchema } from "~/schemas/learner-document";
import { useActionToast } from "~/components/toaster";
import { certificateChangeSchema } from "~/schemas/page-queries";
import { confirmationAnswer, isConfirmed } from "~/utils/confirm";
import { notFound } from "~/utils/errors";
import { ModalSection } from "~/components/admin/modal-section";
import { enrollmentDetailRows } from "~/avetmiss/enrollment-detail-rows";
import { EnrollmentDetailsList } from "~/components/student/enrollment-details";
import { formatDate, formatDateTime } from "~/utils/format";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const shownTo = { id: admin.id, client: clientAddress(request) };
  const detail = await foundOr404(params.id, (id) => getStudentDetail(getDb(), id, shownTo), "Student not found");
  return { ...detail, history: await listCertificateHistory(getDb(), detail.student.id) };
}

/**
 * Upload one of the learner's documents (multipart: the file and its description), or revoke
 * (with a reason) or reissue one of this student's certificates. A certificate of another
 * student is "not found" here, as an unknown one is; the model refuses revoking twice and
 * reissuing a revoked or replaced certificate. A reissued certificate is mailed like any issue.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const student = await foundOr404(params.id, (id) => getStudentDetail(getDb(), id), "Student not found");
  const here = `/admin/students/${student.student.id}${new URL(request.url).search}`;
  // the learner's documents form is multipart for its file (the certificate forms are not)
  if (isMultipart(request)) {
    return answerUploadForm(request, {
      schema: learnerDocumentSchema,
      save: async (document, upload) => {
        const added = await addLearnerDocument(getDb(), {
          studentId: student.student.id,
          document,
          upload,
          actor: { id: admin.id, client: clientAddress(request) },
        });
        return redirectWithFlash(here, { type: "success", message: LEARNER_DOCUMENT_MESSAGES.uploaded(added.filename) });
      },
    });
  }
  const confirmed = isConfirmed(
    await request
      .clone()
      .formData()
      .catch(() => null),
  );
  return answerForm(request, {
    schema: certificateChangeSchema,
    requires: ["intent", "certificate_id"],
    unreadable: "Choose Revoke or Reissue for a certificate",
    save: async (input) => {
      const db = getDb();
      const certificate = await getCertificateForViewer(db, input.certificate_id, admin);
      if (!certificate || certificate.student_id !== student.student.id) throw notFound("Certificate");
      if (input.intent === "revoke") {
        // revoking is asked twice: the first post (reason given) answers with the question
        // (only one that can be revoked: the model refuses the rest at once)
        if (!confirmed && certificate.status === "valid") return { ...confirmationAnswer("revoke"), certificate_id: certificate.id, reason: input.reason };
        await revokeCertificate(db, { certificateId: certificate.id, reason: input.reason, actorId: admin.id, client: clientAddress(request) });
        return redirectWithFlash(here, { type: "success", message: `Certificate ${certificate.certificate_number} revoked` });
      }
      const replacement = await reissueCertificate(db, { certificateId: certificate.id, actorId: admin.id, client: clientAddress(request) });
      void prepareCertificatePdf(db, replacement.id);
      return redirectWithFlash(here, {
        type: "success",
        message: `Certificate ${certificate.certificate_number} reissued as ${replacement.certificate_number}`,
      });
    },
  });
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold text-steel-600">{label}</dt>
      <dd className="break-words text-sm text-steel-900">{children}</dd>
    </div>
  );
}

function Empty({ children }: { children: string }) {
  return <p className="rounded-md bg-steel-50 px-3 py-4 text-center text-sm text-steel-600">{children}</p>;
}

export default function StudentProfile() {
  const { student, usi_held_by, avetmiss, enrollments, history, files, assessments, summary } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const { search } = useLocation();
  useActionToast(failure && "toast" in failure ? failure : undefined);
  return (
    <Modal title="Student Profile" closeTo={`/admin/students${search}`} size="lg">
      <div className="space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-xl font-bold text-steel-900">{student.full_name}</p>
            <p className="text-sm text-steel-600">
              Student no.: <span className="font-mono">{student.student_number ?? "None"}</span>
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Link to={`/admin/audit?${new URLSearchParams({ person: student.id })}`} className={buttonClasses("ghost", "sm")}>
              Audit entries<span className="sr-only"> for {student.full_name}</span>
            </Link>
            <Link to={`/admin/students/${student.id}/edit${search}`} preventScrollReset className={buttonClasses("secondary", "sm")}>
              Edit<span className="sr-only"> {student.full_name}</span>
            </Link>
          </div>
        </div>

        {student.usi_claimed ? (
          <Alert tone="info">
            <strong>USI held by another person.</strong> This learner gave the USI <span className="font-mono">{student.usi_claimed}</span>, which is recorded
            for{" "}
            {usi_held_by ? (
              <Link to={`/admin/students/${usi_held_by.id}${search}`} className="font-semibold underline">
                {usi_held_by.full_name} ({usi_held_by.student_number ?? "no student no."})
              </Link>
            ) : (
              "another person"
            )}
            . Check both with the USI Registry, then record the right USI on each profile (Edit).
          </Alert>
        ) : null}

        <div className="grid gap-5 sm:grid-cols-2">
          <ModalSection title="Contact Information">
            <dl className="space-y-2">
              <Item label="Email">{student.email}</Item>
              <Item label="Phone">{student.phone ?? "Not provided"}</Item>
              <Item label="Address">{student.address ?? "Not provided"}</Item>
              <Item label="Date of birth">{formatDate(student.date_of_birth, "Not provided")}</Item>
              <Item label="Emergency contact">{student.emergency_contact ?? "Not provided"}</Item>
            </dl>
          </ModalSection>
          <ModalSection title="Account Status">
            <dl className="space-y-2">
              <Item label="Status">
                <ActiveBadge active={student.is_active} />
              </Item>
              <Item label="Member since">{formatDate(student.created_at)}</Item>
              <Item label="Last login">{formatDateTime(student.last_login)}</Item>
              <Item label="Licence">{student.license_number ?? "None"}</Item>
            </dl>
          </ModalSection>
        </div>

        <ModalSection title="Enrolment details (AVETMISS)">
          <EnrollmentDetailsList rows={enrollmentDetailRows(avetmiss)} />
        </ModalSection>

        <ModalSection title="Summary">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ["Total enrolments", summary.total_enrollments],
              ["Completed courses", summary.completed_courses],
              ["Certificates", summary.total_certificates],
              ["Average progress", `${summary.avg_progress}%`],
            ].map(([label, value]) => (
              <div key={label} className="rounded-md bg-steel-50 p-3">
                <dt className="text-xs font-semibold text-steel-600">{label}</dt>
                <dd className="text-2xl font-bold tabular-nums text-steel-900">{value}</dd>
              </div>
            ))}
          </dl>
        </ModalSection>

        <ModalSection title="Enrolments">
          {enrollments.length === 0 ? (
            <Empty>No enrolments found</Empty>
          ) : (
            <ul className="space-y-3">
              {enrollments.map((e) => (
                <li key={e.id} className="rounded-md border border-steel-200 p-3">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="font-semibold text-steel-900">{e.course.name}</p>
                    <div className="flex gap-2">
                      <TierBadge tier={e.course.tier} />
                      <StatusBadge status={e.status} />
                    </div>
                  </div>
                  <p className="mt-1 text-xs text-steel-600">
                    Enrolled {formatDate(e.enrollment_date)}
                    {e.completion_date ? ` · Completed ${formatDate(e.completion_date)}` : ""}{" "}
                    <Link to={`/admin/enrollments/${e.id}`} className="font-semibold text-hivis-800 underline underline-offset-2">
                      Planned dates<span className="sr-only"> for {e.course.name}</span>
                    </Link>
                  </p>
                  <div className="mt-2">
                    <ProgressBar value={e.progress_percentage} label={`Progress in ${e.course.name}`} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </ModalSection>

        <ModalSection title="Certificates">
          {history.length === 0 ? (
            <Empty>No certificates issued</Empty>
          ) : (
            <ul className="divide-y divide-steel-100">
              {history.map((c) => (
                <CertificateHistoryItem
                  key={c.id}
                  certificate={c}
                  studentName={student.full_name}
                  failure={failure && "values" in failure && failure.values.certificate_id === c.id ? failure : null}
                  revoking={failure && "confirm" in failure && failure.certificate_id === c.id ? failure.reason : null}
                />
              ))}
            </ul>
          )}
        </ModalSection>

        <ModalSection title="Files">
          {files.length === 0 ? (
            <Empty>No files uploaded</Empty>
          ) : (
            <ul className="divide-y divide-steel-100">
              {files.map((f) => (
                <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div className="min-w-0">
                    <p className="break-words text-sm font-semibold text-steel-900">{f.filename}</p>
                    <p className="text-xs text-steel-600">
                      {f.description ? `${f.description} · ` : ""}
                      {f.file_type} · Uploaded {formatDate(f.upload_date)}
                    </p>
                  </div>
                  {f.download_url ? (
                    <a href={f.download_url} download className={buttonClasses("secondary", "sm")}>
                      Download<span className="sr-only"> {f.filename}</span>
                    </a>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          <DocumentUpload failure={failure && "values" in failure && failure.values.intent === "document" ? failure : null} />
        </ModalSection>

        <ModalSection title="Assessment History">
          {assessments.length === 0 ? (
            <Empty>No assessments recorded</Empty>
          ) : (
            <ul className="space-y-2">
              {assessments.map((a) => (
                <li key={a.id} className="rounded-md border border-steel-200 p-3">
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <p className="text-sm font-semibold text-steel-900">
                      {a.course_name} · {a.assessment_type}
                    </p>
                    <StatusBadge status={a.status} />
                  </div>
                  <p className="mt-1 text-xs text-steel-600">
                    {formatDate(a.assessment_date)}
                    {a.score !== null ? ` · Score ${a.score}${a.max_score !== null ? ` / ${a.max_score}` : ""}` : ""}
                  </p>
                  {a.feedback ? <p className="mt-1 text-sm text-steel-700">{a.feedback}</p> : null}
                  <Link
                    to={`/admin/evidence/unit/${a.id}`}
                    className="inline-flex min-h-11 items-center text-sm font-semibold underline"
                    aria-label={`Evidence for ${a.course_name}, ${a.assessment_type}, ${formatDate(a.assessment_date)}`}
                  >
                    Evidence and declarations
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </ModalSection>
      </div>
    </Modal>
  );
}

type Failure = { error: string; fieldErrors: Record<string, string | undefined>; values: Record<string, string> };

const DOCUMENT_FIELDS = ["description", "file"] as const;

/** The office adds one of the learner's documents: the file (typed from its bytes) and what it is. */
function DocumentUpload({ failure }: { failure: Failure | null }) {
  const { pathname, search } = useLocation();
  const errors = failure?.fieldErrors ?? {};
  return (
    <Form
      method="post"
      action={`${pathname}${search}`}
      encType="multipart/form-data"
      noValidate
      preventScrollReset
      className="mt-3 space-y-3 rounded-md border border-steel-200 p-3"
    >
      <h4 className="text-sm font-semibold text-steel-900">Upload a document</h4>
      {failure ? (
        <ErrorSummary
          failure={{ error: failure.error, fieldErrors: Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => !!e[1])) }}
          only={DOCUMENT_FIELDS}
        />
      ) : null}
      <TextField
        label="Description"
        name="description"
        required
        maxLength={200}
        hint="What it is, e.g. White Card, photo ID, licence"
        defaultValue={failure?.values.description ?? ""}
        error={errors.description}
      />
      <TextField
        label="File"
        name="file"
        type="file"
        required
        accept={EVIDENCE_ACCEPT}
        hint="JPEG, PNG, HEIC, PDF or MP4, at most 25 MB"
        error={errors.file}
        className="max-w-full"
      />
      <SubmitButton intent="document" busyLabel="Uploading..." variant="secondary" size="sm">
        Upload document
      </SubmitButton>
    </Form>
  );
}

const CERTIFICATE_STATE = {
  valid: { tone: "green", label: "Valid" },
  revoked: { tone: "red", label: "Revoked" },
  replaced: { tone: "grey", label: "Replaced" },
} as const;

/** Revoking a certificate, asked twice: whose certificate, and what revoking does. */
function revokeStep(c: CertificateHistoryEntry, studentName: string, confirming: boolean, fields: Record<string, string>, reasonField?: ReactNode) {
  return (
    <ConfirmAction
      intent="revoke"
      fields={fields}
      trigger={
        <>
          Revoke certificate<span className="sr-only"> {c.certificate_number}</span>
        </>
      }
      triggerSize="sm"
      triggerClassName="mt-2 space-y-2"
      triggerFields={reasonField}
      title={`Revoke certificate ${c.certificate_number}?`}
      confirmLabel="Yes, revoke it"
      busyLabel="Revoking..."
      keepLabel="Keep the certificate"
      confirming={confirming}
    >
      {(typed) => (
        <>
          <p>{`${studentName}'s certificate ${c.certificate_number} for ${c.course.name} stops being valid: anyone who checks it is told it was revoked and when. This cannot be undone; a new certificate can be issued later.`}</p>
          {typed.reason?.trim() ? <p>Reason, kept on the record for staff: {typed.reason.trim()}</p> : null}
        </>
      )}
    </ConfirmAction>
  );
}

/**
 * One certificate of the student's history: who issued it, and for a revoked or replaced one
 * when, by whom, why and by which number. A certificate in force can be reissued, or revoked
 * with a reason (the reason box sits in a disclosure, so a revocation is never one click).
 */
function CertificateHistoryItem({
  certificate: c,
  studentName,
  failure,
  revoking,
}: {
  certificate: CertificateHistoryEntry;
  studentName: string;
  failure: Failure | null;
  /** the reason typed, while the action asks to confirm revoking this certificate */
  revoking: string | null;
}) {
  const { pathname, search } = useLocation();
  const state = CERTIFICATE_STATE[c.status];
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div>
          <p className="font-mono text-sm font-semibold text-steel-900">
            {c.certificate_number} <Badge tone={state.tone}>{state.label}</Badge>
          </p>
          <p className="text-xs text-steel-600">
            {c.course.name} · <TierBadge tier={c.tier_achieved} /> · Issued {formatDate(c.issue_date)}
            {c.issued_by_name ? ` by ${c.issued_by_name}` : ""}
            {c.replaces_number ? ` · Replaces ${c.replaces_number}` : ""}
          </p>
          {c.status === "revoked" ? (
            <p className="text-xs text-steel-700">
              Revoked {formatDate(c.revoked_at)}
              {c.revoked_by_name ? ` by ${c.revoked_by_name}` : ""}: {c.revocation_reason}
            </p>
          ) : null}
          {c.status === "replaced" ? (
            <p className="text-xs text-steel-700">
              Replaced {formatDate(c.replaced_at)} by {c.replaced_by_number}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to={`/admin/audit?${new URLSearchParams({ subject: c.id })}`} className={buttonClasses("ghost", "sm")}>
            Audit entries<span className="sr-only"> for certificate {c.certificate_number}</span>
          </Link>
          <a href={`/certificates/${c.id}/download`} download className={buttonClasses("secondary", "sm")}>
            Download PDF<span className="sr-only"> for certificate {c.certificate_number}</span>
          </a>
        </div>
      </div>
      {failure ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {failure.error}
        </p>
      ) : null}
      {c.status === "valid" ? (
        <div className="flex flex-wrap items-start gap-3">
          <Form method="post" action={`${pathname}${search}`} preventScrollReset>
            <input type="hidden" name="certificate_id" value={c.id} />
            <SubmitButton intent="reissue" busyLabel="Reissuing..." variant="secondary" size="sm">
              Reissue<span className="sr-only"> certificate {c.certificate_number}</span>
            </SubmitButton>
          </Form>
          {revoking !== null ? (
            <div className="w-full">{revokeStep(c, studentName, true, { certificate_id: c.id, reason: revoking })}</div>
          ) : (
            <details className="min-w-64 flex-1" open={failure?.values.intent === "revoke" || undefined}>
              <summary className="cursor-pointer text-sm font-semibold text-red-800">
                Revoke<span className="sr-only"> certificate {c.certificate_number}</span>
              </summary>
              {revokeStep(
                c,
                studentName,
                false,
                { certificate_id: c.id },
                <TextAreaField
                  label={`Reason for revoking ${c.certificate_number}`}
                  name="reason"
                  rows={2}
                  maxLength={500}
                  required
                  defaultValue={failure?.values.reason ?? ""}
                  error={failure?.fieldErrors.reason}
                />,
              )}
            </details>
          )}
        </div>
      ) : null}
    </li>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && typeof data === "object" && "student" in data ? data.student.full_name : "Student Profile"} | Summit Crane & Rigging Training` },
];

export function ErrorBoundary() {
  return <RouteError title="Student Profile" message="Failed to load student details" modalCloseTo="/admin/students" />;
}
