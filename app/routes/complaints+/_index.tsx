import { redirect } from "@remix-run/node";

/**
 * `/complaints` alone has no page of its own: it is the frame of the policy and the form, so
 * the address goes to the policy, which leads to the form. (It answered an empty page.)
 */
export function loader() {
  return redirect("/complaints/policy");
}
