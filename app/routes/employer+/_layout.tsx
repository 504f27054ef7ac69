import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/routes/employer+/_layout.server";
import { PortalShell, type PortalNavItem } from "~/components/portal-shell";

const NAV: PortalNavItem[] = [
  { to: "/employer/overview", label: "Dashboard" },
  { to: "/employer/bookings/new", label: "Book seats" },
  { to: "/employer/invoices", label: "Invoices" },
  { to: "/account/security", label: "Account security" },
];

/** Layout and guard for /employer/*: employers' users only, everyone else to /dashboard. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  return { user: { full_name: user.full_name, role: user.role } };
}

export default function EmployerLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <PortalShell portalName="Employer Portal" user={user} nav={NAV}>
      <Outlet />
    </PortalShell>
  );
}
