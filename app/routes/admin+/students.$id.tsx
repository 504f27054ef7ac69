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
  reissueCertificate,
  revokeCertificate,
  getStudentDetail,
  redirectWithFlash,
  answerForm,
  clientAddress,
} from "~/routes/admin+/students.$id.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/route-error";
import { AssessmentHistorySection, CertificateHistoryItem, EnrollmentsSection, Empty, FilesSection, Item } from "~/components/admin/student-record";
import { ActiveBadge } from "~/components/status-badges";
import { Alert, buttonClasses, Modal } from "~/components/ui";
import { LEARNER_DOCUMENT_MESSAGES, learnerDocumentSchema } from "~/schemas/learner-document";
import { useActionToast } from "~/components/toaster";
import { certificateChangeSchema } from "~/schemas/page-queries";
import { confirmationAnswer, requestConfirmed } from "~/utils/confirm";
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
  const confirmed = await requestConfirmed(request);
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

        <EnrollmentsSection enrollments={enrollments} />

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

        <FilesSection files={files} uploadFailure={failure && "values" in failure && failure.values.intent === "document" ? failure : null} />

        <AssessmentHistorySection assessments={assessments} />
      </div>
    </Modal>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && typeof data === "object" && "student" in data ? data.student.full_name : "Student Profile"} | Summit Crane & Rigging Training` },
];

export function ErrorBoundary() {
  return <RouteError title="Student Profile" message="Failed to load student details" modalCloseTo="/admin/students" />;
}
