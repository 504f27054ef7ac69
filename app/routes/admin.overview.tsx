import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return null;
}

export default function AdminOverview() {
  return <PageTitle title="Administrator Dashboard" subtitle="Students, courses and compliance" />;
}
