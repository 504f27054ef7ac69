import type { MetaFunction } from "@remix-run/node";
import { PageTitle } from "~/components/portal-shell";
import { EnrollmentCard } from "~/components/student/enrollment-card";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useStudentData } from "~/components/student/student-data";
import { ButtonLink, EmptyState } from "~/components/ui";

/** My Courses: every enrollment, from the layout's data (its loader guards the page). */
export default function StudentCourses() {
  const { enrollments } = useStudentData();
  return (
    <>
      <PageTitle
        title="My Courses"
        subtitle="Track your enrollments and progress"
        actions={
          <ButtonLink to="/courses" variant="secondary">
            Browse Courses
          </ButtonLink>
        }
      />
      {enrollments.length ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {enrollments.map((e) => (
            <li key={e.id} className="flex [&>*]:flex-1">
              <EnrollmentCard enrollment={e} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No Course Enrollments" action={<ButtonLink to="/courses">Browse Courses</ButtonLink>}>
          You have not enrolled in any courses yet.
        </EmptyState>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Courses | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
