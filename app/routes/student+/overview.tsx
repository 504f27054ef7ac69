import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  countCertificatesForStudent,
  getStudentEnrollmentCounts,
  nextSessionForStudent,
  upcomingRecognitionSessions,
  candidateHrwDeadlines,
  waitlistForStudent,
} from "~/routes/student+/overview.server";
import { QuickActions } from "~/components/quick-actions";
import { PageTitle } from "~/components/portal-shell";
import { TierBadge } from "~/components/status-badges";
import { EnrollmentProgressRow } from "~/components/student/enrollment-card";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useStudentData } from "~/components/student/student-data";
import { ButtonLink, EmptyState, StatCard, TitledCard } from "~/components/ui";
import { NextSessionCard } from "~/components/student/next-session";
import { UpcomingRplSessions } from "~/components/recognition/upcoming-rpl-sessions";
import { firstName, formatDate } from "~/utils/format";
import { CandidateLicenceDeadlines } from "~/components/hrw/hrw-ui";
import { SeatOffers } from "~/components/class-choice";

/** The dashboard shows the 3 latest enrollments and 2 latest certificates. */
const RECENT_ENROLLMENTS = 3;
const RECENT_CERTIFICATES = 2;

/** The counters, computed in SQL; the lists come from the layout. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const [counts, certificates, hrw, waitlists, nextSession, rplSessions] = await Promise.all([
    getStudentEnrollmentCounts(db, user.id),
    countCertificatesForStudent(db, user.id),
    candidateHrwDeadlines(db, user.id),
    waitlistForStudent(db, user.id),
    nextSessionForStudent(db, user.id),
    upcomingRecognitionSessions(db, user.id),
  ]);
  // a seat held on a waitlist runs out: the dashboard leads with it
  const offers = waitlists.filter((w) => w.status === "offered");
  return { name: firstName(user.full_name), counts, certificates, hrw, offers, nextSession, rplSessions };
}

const linkClass = "text-sm font-semibold text-hivis-800 underline-offset-4 hover:underline";

export default function StudentOverview() {
  const { name, counts, certificates: certificateCount, hrw, offers, nextSession, rplSessions } = useLoaderData<typeof loader>();
  const { enrollments, certificates } = useStudentData();
  return (
    <>
      <PageTitle title={`Welcome back, ${name}!`} subtitle="Your training at a glance" />
      <NextSessionCard session={nextSession} />
      <UpcomingRplSessions sessions={rplSessions} />
      <SeatOffers offers={offers} showCourse />
      <CandidateLicenceDeadlines hrw={hrw} />

      <h2 className="sr-only">Summary</h2>
      <ul className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        <li>
          <StatCard label="Total Enrolments" value={counts.total} tone="steel" />
        </li>
        <li>
          <StatCard label="Completed Courses" value={counts.completed} tone="green" />
        </li>
        <li>
          <StatCard label="In Progress" value={counts.in_progress} tone="blue" />
        </li>
        <li>
          <StatCard label="Certificates" value={certificateCount} tone="hivis" />
        </li>
      </ul>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <TitledCard
          title="Current Progress"
          className="lg:col-span-2"
          actions={
            enrollments.length > RECENT_ENROLLMENTS ? (
              <Link to="/student/courses" className={linkClass}>
                View All Courses
              </Link>
            ) : null
          }
        >
          {enrollments.length ? (
            <ul className="divide-y divide-steel-100">
              {enrollments.slice(0, RECENT_ENROLLMENTS).map((e) => (
                <EnrollmentProgressRow key={e.id} enrollment={e} />
              ))}
            </ul>
          ) : (
            <EmptyState title="No course enrolments yet" action={<ButtonLink to="/courses">Browse Courses</ButtonLink>}>
              Enrol in a course to start tracking your progress here.
            </EmptyState>
          )}
        </TitledCard>

        <QuickActions
          actions={[
            { to: "/courses", label: "Browse Courses" },
            { to: "/student/certificates", label: "View Certificates" },
            { to: "/student/profile", label: "View Profile" },
          ]}
        />

        <TitledCard
          title="Recent Certificates"
          className="lg:col-span-3"
          actions={
            certificates.length > RECENT_CERTIFICATES ? (
              <Link to="/student/certificates" className={linkClass}>
                View All Certificates
              </Link>
            ) : null
          }
        >
          {certificates.length ? (
            <ul className="grid gap-3 sm:grid-cols-2">
              {certificates.slice(0, RECENT_CERTIFICATES).map((c) => (
                <li key={c.id} className="rounded-md border border-steel-200 p-4">
                  <div className="flex items-start justify-between gap-2">
                    <p className="font-semibold text-steel-900">{c.course.unit_title}</p>
                    <TierBadge tier={c.tier_achieved} />
                  </div>
                  <p className="mt-1 font-mono text-sm text-steel-700">{c.certificate_number}</p>
                  <p className="text-sm text-steel-600">Issued {formatDate(c.issue_date)}</p>
                </li>
              ))}
            </ul>
          ) : (
            <EmptyState title="No Certificates Yet">Complete a course to earn your first certificate.</EmptyState>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Student Dashboard | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
