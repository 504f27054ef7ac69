import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySession } from "~/auth/session.server";
import { getDb } from "~/db.server";
import { getOptionalUser } from "~/auth/guards.server";
import { recordSignOut } from "~/auth/sign-in.server";
import { clientAddress } from "~/http/request-context.server";
import { redirectWithFlash } from "~/utils/flash.server";

/** Signing out is a POST; a GET here changes nothing. */
export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const db = getDb();
  const user = await getOptionalUser(request);
  const cookie = await destroySession(db, request);
  if (user) await recordSignOut(db, { userId: user.id, client: clientAddress(request) });
  return redirectWithFlash("/login", { type: "info", message: "You have been signed out." }, [cookie]);
}
