import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { requireRole } from "~/auth/guards.server";
import { ModalRouteError } from "~/components/admin/admin-modal-error";
import { ActiveBadge, StatusBadge, TierBadge } from "~/components/status-badges";
import { buttonClasses, Modal, ProgressBar } from "~/components/ui";
import { getDb } from "~/db.server";
import { getStudentDetail } from "~/models/student.server";
import { uuid } from "~/schemas/fields";
import { ModalSection } from "~/components/admin/modal-section";
import { formatDate, formatDateTime } from "~/utils/format";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const id = uuid.safeParse(params.id);
  const detail = id.success ? await getStudentDetail(getDb(), id.data) : null;
  if (!detail) throw json("Student not found", { status: 404 });
  return json(detail);
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
  const { student, enrollments, certificates, files, assessments, summary } = useLoaderData<typeof loader>();
  const { search } = useLocation();
  return (
    <Modal title="Student Profile" closeTo={`/admin/students${search}`} size="lg">
      <div className="space-y-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <p className="text-xl font-bold text-steel-900">{student.full_name}</p>
            <p className="text-sm text-steel-600">
              Student ID: <span className="font-mono">{student.id.slice(-8)}</span>
            </p>
          </div>
          <Link to={`/admin/students/${student.id}/edit${search}`} preventScrollReset className={buttonClasses("secondary", "sm")}>
            Edit<span className="sr-only"> {student.full_name}</span>
          </Link>
        </div>

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
              <Item label="License">{student.license_number ?? "None"}</Item>
            </dl>
          </ModalSection>
        </div>

        <ModalSection title="Summary">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ["Total enrollments", summary.total_enrollments],
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

        <ModalSection title="Enrollments">
          {enrollments.length === 0 ? (
            <Empty>No enrollments found</Empty>
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
                    {e.completion_date ? ` · Completed ${formatDate(e.completion_date)}` : ""}
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
          {certificates.length === 0 ? (
            <Empty>No certificates issued</Empty>
          ) : (
            <ul className="divide-y divide-steel-100">
              {certificates.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <div>
                    <p className="font-mono text-sm font-semibold text-steel-900">{c.certificate_number}</p>
                    <p className="text-xs text-steel-600">
                      {c.course.name} · <TierBadge tier={c.tier_achieved} /> · Issued {formatDate(c.issue_date)}
                    </p>
                  </div>
                  <a href={`/api/certificates/${c.id}/download`} download className={buttonClasses("secondary", "sm")}>
                    Download PDF<span className="sr-only"> for certificate {c.certificate_number}</span>
                  </a>
                </li>
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
                <li key={f.id} className="py-2">
                  <p className="text-sm font-semibold text-steel-900">{f.filename}</p>
                  <p className="text-xs text-steel-600">
                    {f.description ? `${f.description} · ` : ""}
                    {f.file_type} · Uploaded {formatDate(f.upload_date)}
                  </p>
                </li>
              ))}
            </ul>
          )}
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
                </li>
              ))}
            </ul>
          )}
        </ModalSection>
      </div>
    </Modal>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data && typeof data === "object" && "student" in data ? data.student.full_name : "Student Profile"} | Summit Crane & Rigging Training` },
];

export function ErrorBoundary() {
  return <ModalRouteError title="Student Profile" message="Failed to load student details" closeTo="/admin/students" />;
}
