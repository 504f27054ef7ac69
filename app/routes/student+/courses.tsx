import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, attendanceForStudent, classesOfStudent, waitlistForStudent } from "~/routes/student+/courses.server";
import { ClassOnCard, MyWaitlists } from "~/components/student/class-on-card";
import { SeatOffers } from "~/components/class-choice";
import { PageTitle } from "~/components/portal-shell";
import { EnrollmentCard } from "~/components/student/enrollment-card";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useStudentData } from "~/components/student/student-data";
import { ButtonLink, EmptyState } from "~/components/ui";

/** The classes, attendance and waitlist places beside the layout's enrolments (docs/decisions/013-classes.md). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const [classes, attendance, waitlists] = await Promise.all([
    classesOfStudent(db, user.id),
    attendanceForStudent(db, user.id),
    waitlistForStudent(db, user.id),
  ]);
  return { classes, attendance, waitlists };
}

/** My Courses: every enrollment, from the layout's data (its loader guards the page). */
export default function StudentCourses() {
  const { enrollments } = useStudentData();
  const { classes, attendance, waitlists } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="My Courses"
        subtitle="Track your enrolments and progress"
        actions={
          <>
            <ButtonLink to="/student/calendar" variant="secondary">
              Calendar feed
            </ButtonLink>
            <ButtonLink to="/courses" variant="secondary">
              Browse Courses
            </ButtonLink>
          </>
        }
      />
      <SeatOffers offers={waitlists} showCourse />
      <MyWaitlists entries={waitlists} />
      {enrollments.length ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {enrollments.map((e) => (
            <li key={e.id} className="flex [&>*]:flex-1">
              <EnrollmentCard enrollment={e}>
                <ClassOnCard cls={classes[e.id]} attendance={attendance[e.id]} />
                {e.status === "enrolled" || e.status === "in_progress" ? (
                  <Link to={`/student/recognition?enrollment=${e.id}`} className="mt-3 inline-flex min-h-11 items-center text-sm font-semibold underline">
                    Already hold this unit? Apply for credit transfer or RPL<span className="sr-only"> for {e.course.unit_code}</span>
                  </Link>
                ) : null}
              </EnrollmentCard>
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No Course Enrolments" action={<ButtonLink to="/courses">Browse Courses</ButtonLink>}>
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
