import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PortalShell, type PortalNavItem } from "~/components/portal-shell";

const NAV: PortalNavItem[] = [
  { to: "/student/overview", label: "Dashboard" },
  { to: "/student/courses", label: "My Courses" },
  { to: "/student/certificates", label: "My Certificates" },
  { to: "/student/profile", label: "My Profile" },
];

/** Layout and guard for /student/*: students only, everyone else to /dashboard. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return json({ user: { full_name: user.full_name, role: user.role } });
}

export default function StudentLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <PortalShell portalName="Student Portal" user={user} nav={NAV}>
      <Outlet />
    </PortalShell>
  );
}
