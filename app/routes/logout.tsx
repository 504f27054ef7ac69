import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { destroySession } from "~/auth/session.server";
import { getDb } from "~/db.server";
import { redirectWithFlash } from "~/utils/flash.server";

/** Signing out is a POST; a GET here changes nothing. */
export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const cookie = await destroySession(getDb(), request);
  return redirectWithFlash("/login", { type: "info", message: "You have been signed out." }, [cookie]);
}
