import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getOptionalUser, HOME_BY_ROLE } from "~/auth/guards.server";

/** Role redirect: admin, trainer, student to their portal; anyone else to /login. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect("/login");
  throw redirect(HOME_BY_ROLE[user.role] ?? "/login");
}
