import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import {
  requireRole,
  getDb,
  markNotificationsRead,
  NOTIFICATION_PAGE_SIZE,
  notificationsPage,
  redirectWithFlash,
} from "~/routes/student+/notifications.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { Badge, Card, EmptyState, Pagination, SubmitButton, TAP_LINK } from "~/components/ui";
import { pageQuery } from "~/schemas/page-queries";
import { formatDateTime } from "~/utils/format";

export const NOTIFICATIONS_READ = "All notifications marked as read";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const { page } = pageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  // the page size travels with the data: a .server module's constant is not in the browser bundle
  return { ...(await notificationsPage(getDb(), user.id, page)), pageSize: NOTIFICATION_PAGE_SIZE };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  await markNotificationsRead(getDb(), user.id);
  return redirectWithFlash("/student/notifications", { type: "success", message: NOTIFICATIONS_READ });
}

/** What a notification is about, and where the student sees it. */
const KINDS: Record<string, { label: string; to: string; link: string }> = {
  enrollment: { label: "Enrolment", to: "/student/courses", link: "View My Courses" },
  assessment: { label: "Assessment", to: "/student/courses", link: "View My Courses" },
  attendance: { label: "Attendance", to: "/student/courses", link: "View My Courses" },
  certificate: { label: "Certificate", to: "/student/certificates", link: "View My Certificates" },
  user: { label: "Account", to: "/student/profile", link: "View My Profile" },
};
const TYPE_LABELS: Record<string, string> = {
  "enrollment.created": "New enrolment",
  "enrollment.status": "Status change",
  "enrollment.progress": "Progress update",
  "enrollment.completed": "Course completed",
  "enrollment.reopened": "Status change",
  "assessment.recorded": "Assessment result",
  "attendance.day": "Attendance",
  "certificate.issued": "Certificate issued",
  "account.created": "Welcome",
  "profile.updated": "Profile updated",
  "student.updated": "Profile updated",
};

/** The student's recent events (enrolments, status changes, certificates issued), newest first. */
export default function StudentNotifications() {
  const { notifications, total, unread, page, pages, pageSize } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <PageTitle
        title="Notifications"
        subtitle={unread ? `${unread} unread` : "You are all caught up"}
        actions={
          unread ? (
            <Form method="post">
              <SubmitButton variant="secondary" busyLabel="Marking...">
                Mark all as read
              </SubmitButton>
            </Form>
          ) : null
        }
      />
      {notifications.length > 0 ? (
        <Card>
          <ul className="divide-y divide-steel-100">
            {notifications.map((n) => {
              const kind = KINDS[n.entity_type];
              return (
                <li key={n.id} className={n.unread ? "flex gap-3 bg-hivis-50/60 px-4 py-4 sm:px-5" : "flex gap-3 px-4 py-4 sm:px-5"}>
                  <span
                    aria-hidden
                    className={n.unread ? "mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-hivis-500" : "mt-1.5 h-2.5 w-2.5 shrink-0 rounded-full bg-steel-200"}
                  />
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <p className="text-xs font-semibold uppercase tracking-wide text-steel-500">{TYPE_LABELS[n.type] ?? kind?.label ?? "Update"}</p>
                      {n.unread ? <Badge tone="amber">New</Badge> : null}
                    </div>
                    <p className="mt-1 font-medium text-steel-900">{n.message}</p>
                    <p className="mt-1 flex flex-wrap gap-x-3 text-sm text-steel-600">
                      <time dateTime={n.created_at}>{formatDateTime(n.created_at)}</time>
                      {kind ? (
                        <Link to={kind.to} className={`${TAP_LINK} font-semibold text-hivis-800 underline-offset-4 hover:underline`}>
                          {kind.link}
                        </Link>
                      ) : null}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        </Card>
      ) : null}
      {total > 0 ? (
        <Pagination
          label="Notifications"
          one="notification"
          page={page}
          pageCount={pages}
          pageSize={pageSize}
          total={total}
          pathname="/student/notifications"
          search={location.search}
        />
      ) : (
        <EmptyState title="No notifications yet">Enrolments, progress and certificates will appear here.</EmptyState>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Notifications | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
