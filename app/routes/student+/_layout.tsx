import type { LoaderFunctionArgs } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Outlet, useLoaderData, useNavigation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { requireRole, getDb, listCertificatesForStudent, listEnrollmentsForStudent, countUnreadNotifications } from "~/routes/student+/_layout.server";
import { Logo } from "~/components/logo";
import { PortalShell, type PortalNavItem } from "~/components/portal-shell";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { NotificationsButton } from "~/components/student/notifications-button";
import { buttonClasses, Spinner } from "~/components/ui";

const NAV: PortalNavItem[] = [
  { to: "/student/overview", label: "Dashboard" },
  { to: "/student/courses", label: "My Courses" },
  { to: "/student/certificates", label: "My Certificates" },
  { to: "/student/invoices", label: "My Invoices" },
  { to: "/student/employers", label: "Employer Bookings" },
  { to: "/student/evidence", label: "My Evidence" },
  { to: "/student/appeals", label: "Results & Appeals" },
  { to: "/student/recognition", label: "Credit transfer & RPL" },
  { to: "/student/profile", label: "My Profile" },
];

/**
 * Layout and guard for /student/*: students only, everyone else to /dashboard. Loads the
 * student's enrollments and certificates in parallel for every page under it.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const [enrollments, certificates, unreadNotifications] = await Promise.all([
    listEnrollmentsForStudent(db, user.id),
    listCertificatesForStudent(db, user.id),
    countUnreadNotifications(db, user.id),
  ]);
  return {
    user: { full_name: user.full_name, role: user.role },
    enrollments,
    certificates,
    unreadNotifications,
  };
}

/**
 * Every navigation inside the portal reloads the lists, so they always agree with the counters
 * each page computes at the same moment.
 */
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

export default function StudentLayout() {
  const { user, unreadNotifications } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <PortalShell portalName="Student Portal" user={user} nav={NAV} extras={<NotificationsButton unread={unreadNotifications} />}>
      {navigation.state === "loading" ? (
        <div className="mb-4">
          <Spinner label="Loading student data" />
        </div>
      ) : null}
      <Outlet />
    </PortalShell>
  );
}

/** The layout itself failed, so there is no user to frame the page with: a plain frame. */
export function ErrorBoundary() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return (
    <div className="min-h-screen bg-steel-50">
      <header className="bg-steel-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            <Logo inverse />
            <span className="rounded bg-white/10 px-2 py-1 text-xs font-semibold uppercase tracking-wide text-steel-100">Student Portal</span>
          </div>
          <form method="post" action="/logout">
            <button type="submit" className={buttonClasses("inverse", "sm")}>
              Sign out
            </button>
          </form>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        <RouteError title="Student Portal" message={STUDENT_LOAD_ERROR} />
      </main>
    </div>
  );
}
