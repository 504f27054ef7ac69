import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import { SubmitButton, TitledCard, TAP_LINK } from "~/components/ui";
import { cn } from "~/utils/cn";
import { EVIDENCE_ACCEPT } from "~/files/types";
import { EQUIVALENCE_LABELS, RECOGNITION_KIND_LABELS, RECOGNITION_STATUS_LABELS } from "~/schemas/recognition-text";
import type { Equivalence, RecognitionKind, RecognitionStatus } from "#db/schema-recognition";
import { formatDate, formatDateTime } from "~/utils/format";

export interface RecognitionView {
  kind: RecognitionKind;
  status: RecognitionStatus;
  student: { full_name: string };
  course: { name: string; unit_code: string; licence_class: string | null };
  statement: string;
  applied_on: string;
  authentication: { issuing_rto_code: string; document_number: string; checked_how: string; checked_on: string; checked_by: string | null } | null;
  equivalence: { kind: Equivalence; held_unit_code: string | null; mapping: string | null } | null;
  assessor: { full_name: string } | null;
  outcome_code: string | null;
  decided_on: string | null;
  decided_by: string | null;
  reasons: string | null;
  fee_invoice_id: string | null;
  credit_note_id: string | null;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold text-steel-700">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

/** One application as every role reads it: what was asked, how it was authenticated, the decision and its reasons. */
export function RecognitionDetails({ r }: { r: RecognitionView }) {
  return (
    <TitledCard title="The application">
      <dl className="grid gap-3 text-sm">
        <Row label="Learner">{r.student.full_name}</Row>
        <Row label="Unit">{`${r.course.unit_code} ${r.course.name}`}</Row>
        <Row label="Kind">{RECOGNITION_KIND_LABELS[r.kind]}</Row>
        <Row label="Status">{`${RECOGNITION_STATUS_LABELS[r.status]}${r.outcome_code ? ` (outcome ${r.outcome_code})` : ""}`}</Row>
        <Row label="Applied">{formatDate(r.applied_on)}</Row>
        <Row label="Statement">
          <p className="whitespace-pre-line">{r.statement}</p>
        </Row>
        {r.authentication ? (
          <Row label="Authenticated">
            {`RTO ${r.authentication.issuing_rto_code}, document ${r.authentication.document_number}, checked ${formatDate(r.authentication.checked_on)}${r.authentication.checked_by ? ` by ${r.authentication.checked_by}` : ""}: ${r.authentication.checked_how}`}
          </Row>
        ) : null}
        {r.equivalence ? (
          <Row label="Equivalence">
            {`${EQUIVALENCE_LABELS[r.equivalence.kind]}${r.equivalence.held_unit_code ? `: ${r.equivalence.held_unit_code}` : ""}${r.equivalence.mapping ? `. ${r.equivalence.mapping}` : ""}`}
          </Row>
        ) : null}
        {r.kind === "rpl" ? <Row label="Assessor">{r.assessor?.full_name ?? "Not assigned yet"}</Row> : null}
        {r.decided_on ? <Row label="Decided">{`${formatDate(r.decided_on)}${r.decided_by ? ` by ${r.decided_by}` : ""}`}</Row> : null}
        {r.reasons ? (
          <Row label="Reasons">
            <p className="whitespace-pre-line">{r.reasons}</p>
          </Row>
        ) : null}
      </dl>
    </TitledCard>
  );
}

export interface EvidenceItem {
  id: string;
  original_name: string;
  uploaded_at: string;
  uploaded_by: { full_name: string };
}

/** The application's evidence files (each downloads through the evidence store's checks) and, when allowed, the form to add more. */
export function RecognitionEvidence({ files, mayAdd, error }: { files: EvidenceItem[]; mayAdd: boolean; error?: string | null }) {
  return (
    <TitledCard title="Evidence">
      {files.length === 0 ? <p className="text-sm text-steel-600">No documents or photos yet.</p> : null}
      <ul className="space-y-2 text-sm" aria-label="Evidence files">
        {files.map((f) => (
          <li key={f.id} className="break-words">
            <a href={`/evidence/${f.id}/download`} className={cn(TAP_LINK, "font-semibold underline")}>
              {f.original_name}
            </a>{" "}
            <span className="text-steel-600">
              {formatDateTime(f.uploaded_at)} by {f.uploaded_by.full_name}
            </span>
          </li>
        ))}
      </ul>
      {mayAdd ? (
        <Form method="post" encType="multipart/form-data" className="mt-4 space-y-3">
          <div>
            <label htmlFor="recognition-files" className="mb-1 block text-sm font-semibold text-steel-800">
              Add documents and photos
            </label>
            <input
              id="recognition-files"
              name="files"
              type="file"
              multiple
              accept={EVIDENCE_ACCEPT}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "recognition-files-error recognition-files-hint" : "recognition-files-hint"}
              className="block min-h-11 w-full max-w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-steel-300 file:bg-white file:px-4 file:font-semibold"
            />
            <p id="recognition-files-hint" className="mt-1 text-xs text-steel-500">
              JPEG, PNG, HEIC, PDF or MP4, at most 25 MB each. Location data is removed from photos.
            </p>
            {error ? (
              <p id="recognition-files-error" className="mt-1 text-sm text-red-700" role="alert">
                {error}
              </p>
            ) : null}
          </div>
          <SubmitButton intent="upload" busyLabel="Uploading...">
            Upload evidence
          </SubmitButton>
        </Form>
      ) : null}
    </TitledCard>
  );
}
