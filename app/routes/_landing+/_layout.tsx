import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect, getOptionalUser, organisation } from "~/routes/_landing+/_layout.server";
import { Outlet, useLoaderData, useMatches } from "@remix-run/react";
import { ClosingCta } from "~/components/landing/closing-cta";
import { Features } from "~/components/landing/features";
import { Hero } from "~/components/landing/hero";
import { SiteFooter } from "~/components/landing/site-footer";
import { StatsStrip } from "~/components/landing/stats-strip";
import { TierCards } from "~/components/landing/tier-cards";
import { SiteHeader } from "~/components/site-header";

/**
 * The landing page, and the frame its modals (Reset Password at /forgot-password) open over.
 * Signed-in users have their portal instead.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getOptionalUser(request)) throw redirect("/dashboard");
  return { rto: organisation() };
}

export default function Landing() {
  const { rto } = useLoaderData<typeof loader>();
  // With a modal open the page behind it is inert, so keyboard focus stays in the dialog
  // (the attribute is in the server HTML too, so this holds without JavaScript).
  const modalOpen = useMatches().some((m) => m.id !== "routes/_landing+/_index" && m.id !== "routes/_landing+/_layout" && m.id.startsWith("routes/_landing+/"));
  const inert = modalOpen ? ({ inert: "" } as Record<string, string>) : {};
  return (
    <>
      <div {...inert}>
        <SiteHeader />
        <main id="main">
          <Hero rtoCode={rto.code} />
          <StatsStrip />
          <Features />
          <TierCards />
          <ClosingCta />
        </main>
        <SiteFooter rto={rto} />
      </div>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Summit Crane & Rigging Training | Crane and rigging licence courses" },
  {
    name: "description",
    content: "Nationally recognised crane operation, dogging and rigging training in three tiers. ASQA compliant. View courses and enrol online.",
  },
];

/** The site footer carries the complaints policy link here, so the root leaves out its own strip. */
export const handle = { siteFooter: true };
