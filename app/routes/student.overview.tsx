import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { firstName } from "~/utils/format";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return json({ name: firstName(user.full_name) });
}

export default function StudentOverview() {
  const { name } = useLoaderData<typeof loader>();
  return <PageTitle title={`Welcome back, ${name}!`} subtitle="Your training at a glance" />;
}
