import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/routes/admin+/_layout.server";
import { PortalShell, type PortalNavItem } from "~/components/portal-shell";

const NAV: PortalNavItem[] = [
  { to: "/admin/overview", label: "Dashboard" },
  { to: "/admin/students", label: "Students" },
  { to: "/admin/courses", label: "Courses" },
  { to: "/admin/staff", label: "Staff" },
  { to: "/admin/locations", label: "Locations" },
  { to: "/admin/employers", label: "Employers" },
  { to: "/admin/reports", label: "Reports" },
  { to: "/admin/finance", label: "Finance" },
  { to: "/admin/mail", label: "Mail" },
  { to: "/admin/webhooks", label: "Webhooks" },
  { to: "/admin/audit", label: "Audit" },
  { to: "/admin/checklists", label: "Checklists" },
  { to: "/admin/retention", label: "Retention" },
  { to: "/admin/complaints", label: "Complaints" },
  { to: "/admin/recognition", label: "Recognition" },
  { to: "/admin/improvements", label: "Improvements" },
  { to: "/admin/questionnaires", label: "Questionnaires" },
  { to: "/admin/review-questions", label: "Review questions" },
  { to: "/admin/credentials", label: "Credentials" },
  { to: "/admin/validations", label: "Validation" },
];

/** Layout and guard for /admin/*: admins only, everyone else to /dashboard. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin");
  return { user: { full_name: user.full_name, role: user.role } };
}

export default function AdminLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <PortalShell portalName="Administrator Portal" user={user} nav={NAV}>
      <Outlet />
    </PortalShell>
  );
}
