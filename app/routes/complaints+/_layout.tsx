import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { getOptionalUser, organisation } from "~/routes/complaints+/_layout.server";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/site-header";

/** The frame of the public complaints pages (the policy, lodging one): open to anyone, signed in or not. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  return { signedIn: Boolean(user), rto: organisation() };
}

/** This page has the site footer (with the policy link), so the root's own policy strip stays away. */
export const handle = { siteFooter: true };

export default function ComplaintsLayout() {
  const { signedIn, rto } = useLoaderData<typeof loader>();
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="mx-auto min-h-[60vh] max-w-2xl px-4 py-10">
        <Outlet />
      </main>
      <SiteFooter rto={rto} />
    </>
  );
}
