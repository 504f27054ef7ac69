import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { requireRole } from "~/auth/guards.server";

/**
 * The notice lead times page became the state rules page, where the lead time is one rule
 * among the others with its source: links and bookmarks to the old address keep working.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return redirect("/admin/hrw/rules", 301);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  return redirect("/admin/hrw/rules", 303);
}
