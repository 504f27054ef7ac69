import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { getOptionalUser, organisation } from "~/routes/verify+/_layout.server";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/site-header";

/** The frame of the public certificate check: open to anyone, signed in or not. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  return { signedIn: Boolean(user), rto: organisation() };
}

export default function VerifyLayout() {
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

/** The site footer carries the complaints policy link here, so the root leaves out its own strip. */
export const handle = { siteFooter: true };
