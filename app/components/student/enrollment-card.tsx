import type { ReactNode } from "react";
import { Card, ProgressBar } from "~/components/ui";
import { formatDate, formatPrice } from "~/utils/format";
import { StatusBadge, TierBadge } from "~/components/status-badges";
import type { StudentEnrollmentData } from "./student-data";

/** One enrollment on My Courses: the course, where the student is, and what it cost. */
export function EnrollmentCard({ enrollment, children }: { enrollment: StudentEnrollmentData; children?: ReactNode }) {
  const { course } = enrollment;
  return (
    <Card className="flex flex-col p-5" aria-labelledby={`enrollment-${enrollment.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <TierBadge tier={course.tier} />
        <StatusBadge status={enrollment.status} />
      </div>
      <h2 id={`enrollment-${enrollment.id}`} className="mt-3 text-lg font-semibold text-steel-900">
        {course.name}
      </h2>
      <p className="text-xs font-medium uppercase tracking-wide text-steel-500">{course.unit_code}</p>
      <p className="mt-2 flex-1 text-sm text-steel-700">{course.description}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-steel-500">Duration</dt>
          <dd className="font-semibold text-steel-900">{course.duration_hours} hours</dd>
        </div>
        <div>
          <dt className="text-steel-500">Price</dt>
          <dd className="font-semibold text-steel-900">{formatPrice(course.price)}</dd>
        </div>
        <div>
          <dt className="text-steel-500">Enrolled on</dt>
          <dd className="font-semibold text-steel-900">{formatDate(enrollment.enrollment_date)}</dd>
        </div>
        {enrollment.completion_date ? (
          <div>
            <dt className="text-steel-500">Completed on</dt>
            <dd className="font-semibold text-steel-900">{formatDate(enrollment.completion_date)}</dd>
          </div>
        ) : null}
      </dl>
      <div className="mt-4">
        <p className="mb-1 text-sm font-medium text-steel-600">Progress</p>
        <ProgressBar value={enrollment.progress_percentage} label={`${course.name} progress`} />
      </div>
      {children}
    </Card>
  );
}

/** A compact enrollment row for the dashboard's Current Progress card. */
export function EnrollmentProgressRow({ enrollment }: { enrollment: StudentEnrollmentData }) {
  return (
    <li className="py-3 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-steel-900">{enrollment.course.name}</p>
        <div className="flex gap-2">
          <TierBadge tier={enrollment.course.tier} />
          <StatusBadge status={enrollment.status} />
        </div>
      </div>
      <div className="mt-2">
        <ProgressBar value={enrollment.progress_percentage} label={`${enrollment.course.name} progress`} />
      </div>
    </li>
  );
}
