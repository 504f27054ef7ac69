import { Link } from "@remix-run/react";
import type { TrainerEnrollmentDetail } from "~/models/trainer-students.server";
import { usiCleared } from "~/rules/usi";
import { StatusBadge, TierBadge } from "~/components/status-badges";
import { ProgressBar, TitledCard, TAP_LINK } from "~/components/ui";
import { cn } from "~/utils/cn";
import { formatDate } from "~/utils/format";

export const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

/**
 * An enrolment as the trainer updating it reads it (app/routes/trainer+/enrollments.$id.tsx): the
 * learner, the course, its status and progress, its planned dates and its certificate.
 */
export function EnrollmentSummaryCard({ enrollment }: { enrollment: TrainerEnrollmentDetail }) {
  return (
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
                <a href={`/certificates/${enrollment.certificate.id}/download`} className={cn(TAP_LINK, linkClass)} download>
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
  );
}
