import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { CertificateHistoryEntry } from "~/models/certificates/certificate.server";
import type { StudentDetail } from "~/models/student.server";
import { ModalSection } from "~/components/admin/modal-section";
import { StatusBadge, TierBadge } from "~/components/status-badges";
import { Badge, buttonClasses, ConfirmAction, ErrorSummary, ProgressBar, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { EVIDENCE_ACCEPT } from "~/files/types";
import { formatDate } from "~/utils/format";

/**
 * Parts of a student's record as the office reads it (app/routes/admin+/students.$id.tsx): a
 * labelled value, an empty list's line, the document upload, and a certificate's history entry
 * with its reissue and revoke steps.
 */

export function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-semibold text-steel-600">{label}</dt>
      <dd className="break-words text-sm text-steel-900">{children}</dd>
    </div>
  );
}

export function Empty({ children }: { children: string }) {
  return <p className="rounded-md bg-steel-50 px-3 py-4 text-center text-sm text-steel-600">{children}</p>;
}

export type Failure = { error: string; fieldErrors: Record<string, string | undefined>; values: Record<string, string> };

const DOCUMENT_FIELDS = ["description", "file"] as const;

/** The office adds one of the learner's documents: the file (typed from its bytes) and what it is. */
export function DocumentUpload({ failure }: { failure: Failure | null }) {
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
export function CertificateHistoryItem({
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

/** The learner's enrolments, each with its progress and a link to its planned dates. */
export function EnrollmentsSection({ enrollments }: { enrollments: StudentDetail["enrollments"] }) {
  return (
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
  );
}

/** The learner's files, each to download, and the office's upload of another. */
export function FilesSection({ files, uploadFailure }: { files: StudentDetail["files"]; uploadFailure: Failure | null }) {
  return (
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
      <DocumentUpload failure={uploadFailure} />
    </ModalSection>
  );
}

/** The learner's unit assessments, newest first, each with its evidence and declarations. */
export function AssessmentHistorySection({ assessments }: { assessments: StudentDetail["assessments"] }) {
  return (
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
              <Link to={`/admin/evidence/unit/${a.id}`} className="inline-flex min-h-11 items-center text-sm font-semibold underline">
                Evidence and declarations
                <span className="sr-only">{` for ${a.course_name}, ${a.assessment_type}, ${formatDate(a.assessment_date)}`}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </ModalSection>
  );
}
