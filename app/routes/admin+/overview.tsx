import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { accountDecisionSchema } from "~/schemas/page-queries";
import {
  requireRole,
  getDb,
  approveAccount,
  listPendingAccounts,
  rejectAccount,
  countAllCourses,
  countCompletedAwaitingCertificate,
  listCompletedAwaitingCertificate,
  getDashboardStats,
  listAttendanceAlerts,
  listRecentStudents,
  redirectWithFlash,
  answerForm,
  clientAddress,
  adminHrwAlerts,
  overdueImprovementCount,
  overdueImprovements,
  standardsPanel,
} from "~/routes/admin+/overview.server";
import { ActiveBadge, TIER_TITLES } from "~/components/status-badges";
import { RouteError } from "~/components/route-error";
import { RowActionButton } from "~/components/admin/row-action-button";
import { QuickActions } from "~/components/quick-actions";
import { PageTitle } from "~/components/portal-shell";
import { buttonClasses, EmptyState, StatCard, TAP_LINK, TitledCard, TableScroll } from "~/components/ui";
import { AwaitingUsiCard, DueDate } from "~/components/certificates-due";
import { AttendanceAlerts } from "~/components/admin/attendance-alerts";
import { formatDate, ROLE_LABELS } from "~/utils/format";
import { AdminHrwAlerts } from "~/components/hrw/hrw-ui";
import { ImprovementsOverdue } from "~/components/admin/improvements-overdue";
import { StandardsPanel } from "~/components/standards/standards-panel";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  // Stats, students and courses are independent reads: load them in parallel.
  const [stats, recentStudents, courseCount, pending, due, dueTotal, awaitingUsi, hrw] = await Promise.all([
    getDashboardStats(db),
    listRecentStudents(db, 5),
    countAllCourses(db),
    listPendingAccounts(db),
    listCompletedAwaitingCertificate(db, { limit: CERTIFICATES_DUE_SHOWN }),
    countCompletedAwaitingCertificate(db),
    listCompletedAwaitingCertificate(db, { limit: 100, usi: "awaiting" }),
    adminHrwAlerts(db),
  ]);
  return {
    stats,
    recentStudents: recentStudents.map((s) => ({ id: s.id, full_name: s.full_name, email: s.email, created_at: s.created_at, is_active: s.is_active })),
    courseCount,
    pending,
    due,
    dueTotal,
    awaitingUsi,
    // two absences in a row (docs/decisions/013-classes.md)
    attendanceAlerts: await listAttendanceAlerts(db, 5),
    hrw,
    improvementsOverdue: { count: await overdueImprovementCount(db), actions: await overdueImprovements(db, { limit: 3 }) },
    standards: await standardsPanel(db),
  };
}

const CERTIFICATES_DUE_SHOWN = 10;

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const actor = { id: admin.id, client: clientAddress(request) };
  return answerForm(request, {
    schema: accountDecisionSchema,
    // a body that is not a form names no action, like an empty one
    unreadable: "Unknown action",
    // the model refuses only an account no longer pending (decided in another tab, say)
    failed: ({ message, refusal }) =>
      redirectWithFlash("/admin/overview", { type: "error", message: refusal ? "That account is no longer waiting for approval" : message }),
    save: async ({ intent, user_id }) => {
      if (intent === "approve") await approveAccount(getDb(), user_id, actor);
      else await rejectAccount(getDb(), user_id, actor);
      return redirectWithFlash("/admin/overview", { type: "success", message: intent === "approve" ? "Account approved" : "Account rejected" });
    },
  });
}

export default function AdminOverview() {
  const { stats, recentStudents, courseCount, pending, due, dueTotal, awaitingUsi, hrw, attendanceAlerts, improvementsOverdue, standards } =
    useLoaderData<typeof loader>();
  const tiers = [
    { key: "tier_1" as const, count: stats.tier_1_completions },
    { key: "tier_2" as const, count: stats.tier_2_completions },
    { key: "tier_3" as const, count: stats.tier_3_completions },
  ];
  const maxTier = Math.max(1, ...tiers.map((t) => t.count));
  return (
    <>
      <PageTitle
        title="Administrator Dashboard"
        subtitle="Students, courses and compliance at a glance"
        actions={
          <a href="/admin/export.csv" download className={buttonClasses("secondary")}>
            Export Data
          </a>
        }
      />
      <AdminHrwAlerts hrw={hrw} />
      <AttendanceAlerts alerts={attendanceAlerts} />
      <ImprovementsOverdue {...improvementsOverdue} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Students" value={stats.total_students.toLocaleString("en-AU")} tone="steel" />
        <StatCard
          label="Active Enrolments"
          value={stats.active_enrollments.toLocaleString("en-AU")}
          tone="blue"
          hint={`${stats.total_enrollments.toLocaleString("en-AU")} enrolments in all`}
        />
        <StatCard label="Completed Courses" value={stats.completed_courses.toLocaleString("en-AU")} tone="green" />
        <StatCard label="Completion Rate" value={`${stats.completion_rate}%`} tone="hivis" hint={`${stats.active_courses} of ${courseCount} courses open`} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <TitledCard title="Tier Completion Breakdown" className="min-w-0 lg:col-span-2">
          <ul className="space-y-4">
            {tiers.map((t) => (
              <li key={t.key}>
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="font-semibold text-steel-800">{TIER_TITLES[t.key]}</span>
                  <span className="tabular-nums text-steel-700">
                    {t.count.toLocaleString("en-AU")} {t.count === 1 ? "completion" : "completions"}
                  </span>
                </div>
                <div aria-hidden className="mt-1 h-2.5 overflow-hidden rounded-full bg-steel-100">
                  <div className="h-full rounded-full bg-hivis-500" style={{ width: `${Math.round((t.count / maxTier) * 100)}%` }} />
                </div>
              </li>
            ))}
          </ul>
        </TitledCard>

        <QuickActions
          actions={[
            { to: "/admin/students", label: "Manage Students" },
            { to: "/admin/courses", label: "Manage Courses" },
            { to: "/admin/reports", label: "Compliance Reports" },
            { to: "/admin/export.csv", label: "Export student data (CSV)", download: true },
          ]}
        />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <TitledCard title={`Certificates due (${dueTotal})`} className="min-w-0">
          <p className="mb-3 text-sm text-steel-600">
            A certificate is due within 30 days of completion; overdue ones come first. Trainers issue them from their Certificates page.
          </p>
          {due.length === 0 ? (
            <EmptyState title="Nothing awaiting">Every completed enrolment has its certificate.</EmptyState>
          ) : (
            <ul className="divide-y divide-steel-100" aria-label="Completed enrolments awaiting a certificate, longest waiting first">
              {due.map((a) => (
                <li key={a.enrollment_id} className="py-2 text-sm">
                  <Link to={`/admin/students/${a.student.id}`} className={`${TAP_LINK} font-semibold text-steel-900 hover:underline`}>
                    {a.student.full_name}
                  </Link>{" "}
                  · {a.course.name} · <DueDate awaiting={a} />
                </li>
              ))}
            </ul>
          )}
          {dueTotal > due.length ? (
            <p className="mt-3 text-sm text-steel-600">
              Showing the {due.length} longest waiting of {dueTotal}.
            </p>
          ) : null}
        </TitledCard>
        <AwaitingUsiCard awaitingUsi={awaitingUsi} fixHref={(id) => `/admin/students/${id}/edit`} className="min-w-0" />
        <StandardsPanel rows={standards} className="min-w-0" />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-3">
        <TitledCard
          title="Recent Students"
          className="min-w-0 lg:col-span-2"
          actions={
            <Link to="/admin/students" className="text-sm font-semibold text-hivis-800 underline-offset-4 hover:underline">
              View all students
            </Link>
          }
        >
          {recentStudents.length === 0 ? (
            <EmptyState title="No students yet" />
          ) : (
            <TableScroll label="Recent students">
              <table className="w-full min-w-[32rem] text-left text-sm">
                <thead className="text-xs uppercase tracking-wide text-steel-600">
                  <tr>
                    <th scope="col" className="px-4 py-2 sm:px-2">
                      Name
                    </th>
                    <th scope="col" className="px-2 py-2">
                      Email
                    </th>
                    <th scope="col" className="px-2 py-2">
                      Joined
                    </th>
                    <th scope="col" className="px-2 py-2">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-steel-100">
                  {recentStudents.map((s) => (
                    <tr key={s.id}>
                      <td className="px-4 py-2 font-semibold text-steel-900 sm:px-2">
                        <Link to={`/admin/students/${s.id}`} className={`${TAP_LINK} hover:underline`}>
                          {s.full_name}
                        </Link>
                      </td>
                      <td className="break-all px-2 py-2 text-steel-700">{s.email}</td>
                      <td className="whitespace-nowrap px-2 py-2 text-steel-700">{formatDate(s.created_at)}</td>
                      <td className="px-2 py-2">
                        <ActiveBadge active={s.is_active} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </TitledCard>

        <TitledCard title="Pending Approvals">
          {pending.length === 0 ? (
            <p className="text-sm text-steel-600">No accounts are waiting for approval.</p>
          ) : (
            <ul className="divide-y divide-steel-100" aria-label="Accounts awaiting approval">
              {pending.map((a) => (
                <li key={a.id} className="py-3 first:pt-0 last:pb-0">
                  <p className="font-semibold text-steel-900">{a.full_name}</p>
                  <p className="break-all text-sm text-steel-600">{a.email}</p>
                  <p className="text-xs text-steel-500">
                    {ROLE_LABELS[a.role]} · requested {formatDate(a.created_at)}
                  </p>
                  <Form method="post" action="/admin/overview" className="mt-2 flex gap-2">
                    <input type="hidden" name="user_id" value={a.id} />
                    <RowActionButton intent="approve" recordField="user_id" recordId={a.id} busyLabel="Approving..." aria-label={`Approve ${a.full_name}`}>
                      Approve
                    </RowActionButton>
                    <RowActionButton
                      intent="reject"
                      recordField="user_id"
                      recordId={a.id}
                      variant="secondary"
                      busyLabel="Rejecting..."
                      aria-label={`Reject ${a.full_name}`}
                    >
                      Reject
                    </RowActionButton>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Administrator Dashboard | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Administrator Dashboard" message="Failed to load dashboard data" />;
}
