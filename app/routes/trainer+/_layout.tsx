import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/routes/trainer+/_layout.server";
import { PortalShell, type PortalNavItem } from "~/components/portal-shell";

const NAV: PortalNavItem[] = [
  { to: "/trainer/overview", label: "Dashboard" },
  { to: "/trainer/students", label: "Students" },
  { to: "/trainer/classes", label: "Classes" },
  { to: "/trainer/assessments", label: "Assessments" },
  { to: "/trainer/certificates", label: "Certificates" },
  { to: "/trainer/hrw", label: "HRW licences" },
  { to: "/trainer/appeals", label: "Appeals" },
  { to: "/trainer/recognition", label: "RPL" },
  { to: "/trainer/credentials", label: "Credentials" },
];

/** Layout and guard for /trainer/*: trainers only, everyone else to /dashboard. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return { user: { full_name: user.full_name, role: user.role } };
}

export default function TrainerLayout() {
  const { user } = useLoaderData<typeof loader>();
  return (
    <PortalShell portalName="Trainer Portal" user={user} nav={NAV}>
      <Outlet />
    </PortalShell>
  );
}
