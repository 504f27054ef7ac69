import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "trainer");
  return redirect("/trainer/overview");
}
