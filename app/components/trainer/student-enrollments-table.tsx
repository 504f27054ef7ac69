import { Link } from "@remix-run/react";
import type { TrainerStudentRow } from "~/models/trainer-students.server";
import { ProgressBar, TableScroll } from "~/components/ui";
import { AssessmentStatusBadge, StatusBadge } from "~/components/status-badges";

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

/**
 * Students with their current enrolments: one row per enrolment, the student's name spanning
 * their rows. Progress and the latest assessment come from the database as they are.
 */
export function StudentEnrollmentsTable({ students, caption, withActions = false }: { students: TrainerStudentRow[]; caption: string; withActions?: boolean }) {
  return (
    <TableScroll label={caption}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-steel-200 text-xs uppercase tracking-wide text-steel-600">
            <th scope="col" className="py-2 pr-3 font-semibold">
              Student
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Course
            </th>
            <th scope="col" className="w-40 py-2 pr-3 font-semibold">
              Progress
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Last assessment
            </th>
            {withActions ? (
              <th scope="col" className="py-2 font-semibold">
                Actions
              </th>
            ) : null}
          </tr>
        </thead>
        {students.map((student) => (
          // One row group per student, so their name heads every row of theirs.
          <tbody key={student.id} className="border-b border-steel-100">
            {student.enrollments.map((e, i) => (
              <tr key={e.id}>
                {i === 0 ? (
                  <th scope="rowgroup" rowSpan={student.enrollments.length} className="py-3 pr-3 align-top font-normal">
                    <span className="block font-semibold text-steel-900">{student.full_name}</span>
                    <span className="block break-all text-xs text-steel-600">{student.email}</span>
                  </th>
                ) : null}
                <td className="py-3 pr-3 align-top">
                  <span className="block text-steel-900">{e.course.name}</span>
                  <span className="mt-1 inline-block">
                    <StatusBadge status={e.status} />
                  </span>
                </td>
                <td className="py-3 pr-3 align-top">
                  <ProgressBar value={e.progress_percentage} label={`${student.full_name}: ${e.course.name} progress`} />
                </td>
                <td className="py-3 pr-3 align-top">
                  <AssessmentStatusBadge status={e.last_assessment?.status ?? null} />
                  {e.last_assessment ? <span className="ml-1 text-xs text-steel-600">{e.last_assessment.assessment_type}</span> : null}
                </td>
                {withActions ? (
                  <td className="py-3 align-top">
                    <div className="flex flex-col gap-1 whitespace-nowrap">
                      <Link
                        to={`/trainer/assessments/new?enrollment=${e.id}`}
                        className={linkClass}
                        aria-label={`Record assessment for ${student.full_name}, ${e.course.name}`}
                      >
                        Record assessment
                      </Link>
                      <Link to={`/trainer/enrollments/${e.id}`} className={linkClass} aria-label={`Update progress for ${student.full_name}, ${e.course.name}`}>
                        Update progress
                      </Link>
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </TableScroll>
  );
}
