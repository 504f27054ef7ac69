import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  listPendingAssessments,
  listCompletedAwaitingCertificate,
  listTrainerStudents,
  getTrainerStats,
  trainerHrwAlerts,
} from "~/routes/trainer+/overview.server";
import { QuickActions } from "~/components/quick-actions";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { StudentEnrollmentsTable } from "~/components/trainer/student-enrollments-table";
import { EmptyState, StatCard, TAP_LINK, TitledCard } from "~/components/ui";
import { PENDING_ASSESSMENT_DEFINITION } from "~/schemas/assessment-text";
import { TrainerHrwAlerts } from "~/components/hrw/hrw-ui";
import { firstName, formatDate, statusLabel } from "~/utils/format";

/** The overview shows the first 8 students; the full list is one link away. */
const OVERVIEW_STUDENTS = 8;
const TASKS_EACH = 5;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const db = getDb();
  const [stats, students, pending, awaiting, hrw] = await Promise.all([
    getTrainerStats(db),
    listTrainerStudents(db, { pageSize: OVERVIEW_STUDENTS }),
    listPendingAssessments(db, { limit: TASKS_EACH }),
    listCompletedAwaitingCertificate(db, { limit: TASKS_EACH }),
    trainerHrwAlerts(db, user.id),
  ]);
  return { name: firstName(user.full_name), stats, students: students.students, pending, awaiting, hrw };
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

export default function TrainerOverview() {
  const { name, stats, students, pending, awaiting, hrw } = useLoaderData<typeof loader>();
  const moreTasks = stats.pending_assessments - pending.length + (stats.awaiting_certificates - awaiting.length);
  return (
    <>
      <PageTitle title={`Welcome back, ${name}!`} subtitle="Your students, assessments and certificates" />
      <TrainerHrwAlerts hrw={hrw} />

      <section aria-labelledby="figures" className="mb-6">
        <h2 id="figures" className="sr-only">
          Figures
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard label="My Students" value={stats.my_students} hint="Active students with a current enrolment" tone="steel" />
          <StatCard label="Pending Assessments" value={stats.pending_assessments} hint={PENDING_ASSESSMENT_DEFINITION} tone="hivis" />
          <StatCard
            label="Certificates Issued"
            value={stats.certificates_issued}
            hint={
              stats.awaiting_certificates
                ? `${stats.awaiting_certificates} completed ${stats.awaiting_certificates === 1 ? "enrolment" : "enrolments"} awaiting a certificate`
                : "All completed enrolments are certified"
            }
            tone="green"
          />
          <StatCard label="Active Courses" value={stats.active_courses} hint="Courses open for enrolment" tone="blue" />
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-3">
        <TitledCard
          title="My Students"
          className="lg:col-span-2"
          actions={
            <Link to="/trainer/students" className={linkClass}>
              View all students
            </Link>
          }
        >
          {students.length ? (
            <StudentEnrollmentsTable students={students} caption={`The first ${OVERVIEW_STUDENTS} students by name, with their current courses`} />
          ) : (
            <EmptyState title="No current students">Students appear here once they enrol in a course.</EmptyState>
          )}
        </TitledCard>

        <div className="space-y-6">
          <QuickActions
            actions={[
              { to: "/trainer/assessments/new", label: "Record an assessment", primary: true },
              { to: "/trainer/assessments", label: "Review assessments" },
              { to: "/trainer/certificates", label: "Issue certificates" },
            ]}
          />

          <TitledCard title="Pending Tasks">
            {pending.length || awaiting.length ? (
              <ul className="space-y-3 text-sm">
                {pending.map((p) => (
                  <li key={`a-${p.enrollment_id}`} className="rounded-md border border-steel-100 p-3">
                    <p className="font-semibold text-steel-900">
                      {p.latest_status === null ? "First assessment due" : p.latest_status === "resubmission" ? "Resubmission to mark" : "Assessment to mark"}
                    </p>
                    <p className="text-steel-700">
                      {p.student.full_name} &middot; {p.course_name}
                    </p>
                    <p className="text-xs text-steel-600">
                      {statusLabel(p.enrollment_status)}, {p.progress_percentage}% complete
                    </p>
                    <Link
                      to={`/trainer/assessments/new?enrollment=${p.enrollment_id}`}
                      className={`${TAP_LINK} ${linkClass} mt-1`}
                      aria-label={`Record assessment for ${p.student.full_name}, ${p.course_name}`}
                    >
                      Record assessment
                    </Link>
                  </li>
                ))}
                {awaiting.map((a) => (
                  <li key={`c-${a.enrollment_id}`} className="rounded-md border border-steel-100 p-3">
                    <p className="font-semibold text-steel-900">Certificate to issue</p>
                    <p className="text-steel-700">
                      {a.student.full_name} &middot; {a.course.name}
                    </p>
                    <p className="text-xs text-steel-600">Completed {formatDate(a.completion_date)}</p>
                    <Link to="/trainer/certificates" className={`${TAP_LINK} ${linkClass} mt-1`}>
                      Go to certificates
                    </Link>
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState title="Nothing pending">No assessments to mark and no certificates to issue.</EmptyState>
            )}
            {moreTasks > 0 ? (
              <p className="mt-3 text-sm text-steel-600">
                And {moreTasks} more: see{" "}
                <Link to="/trainer/assessments" className={linkClass}>
                  assessments
                </Link>{" "}
                and{" "}
                <Link to="/trainer/certificates" className={linkClass}>
                  certificates
                </Link>
                .
              </p>
            ) : null}
          </TitledCard>
        </div>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Trainer Dashboard | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
