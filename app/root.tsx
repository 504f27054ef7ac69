import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { DocumentError } from "~/components/route-error";
import { data, getOptionalUser, readFlash } from "./root.server";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLoaderData, useLocation, useMatches, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { SiteHeader } from "~/components/site-header";
import { FlashMessage, Toaster } from "~/components/toaster";
import styles from "~/tailwind.css";
import { useNonce } from "~/utils/nonce";
import { PageStyles } from "~/utils/page-styles";

// the stylesheet is in the document (PageStyles), not a request before the first text
export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export const meta: MetaFunction = () => [{ title: "Summit Crane & Rigging Training" }];

/**
 * The site's description, on every page that has none of its own. A route's meta replaces the
 * root's rather than adding to it, so the description is not root meta (most pages name only a
 * title): a page whose meta in force describes it (its own, or its layout's when it has none)
 * says so with the route handle `describesItself` on the page's own route.
 */
const SITE_DESCRIPTION = "Nationally recognised crane operation and rigging training in three tiers.";

function SiteDescription() {
  const page = useMatches().at(-1);
  if ((page?.handle as { describesItself?: boolean } | undefined)?.describesItself) return null;
  return <meta name="description" content={SITE_DESCRIPTION} />;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, { flash, clear }] = await Promise.all([getOptionalUser(request), readFlash(request)]);
  const headers = new Headers();
  for (const c of clear) headers.append("Set-Cookie", c);
  return data({ user: user ? { id: user.id, full_name: user.full_name, role: user.role } : null, flash }, { headers });
}

/** The signed-in user as the root loaded it (name and role only), or null. */
export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  // the address this document was rendered for, which the browser checks before hydrating (entry.client.tsx)
  const { pathname } = useLocation();
  return (
    <html lang="en-AU" className="h-full" data-rendered-path={pathname}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#172334" />
        <Meta />
        <SiteDescription />
        <Links />
        <PageStyles href={styles} />
      </head>
      <body className="min-h-full">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { flash } = useLoaderData<typeof loader>();
  return (
    <Document>
      <FlashMessage flash={flash} />
      <Outlet />
      <PolicyStrip />
      <Toaster />
    </Document>
  );
}

/**
 * The complaints and appeals policy, linked from the foot of every page: pages with the site
 * footer (route handle `siteFooter`) carry the link there; every other page gets this strip.
 */
function PolicyStrip() {
  const matches = useMatches();
  if (matches.some((m) => (m.handle as { siteFooter?: boolean } | undefined)?.siteFooter)) return null;
  return (
    <footer className="border-t border-steel-200 px-4 py-4 text-sm text-steel-700">
      <div className="mx-auto flex max-w-6xl flex-wrap gap-x-6 gap-y-2">
        <Link to="/complaints/policy" className="inline-flex min-h-11 items-center underline">
          Complaints and appeals policy
        </Link>
        <Link to="/complaints/new" className="inline-flex min-h-11 items-center underline">
          Make a complaint
        </Link>
      </div>
    </footer>
  );
}

export function ErrorBoundary() {
  return (
    <Document>
      <SiteHeader />
      <DocumentError />
    </Document>
  );
}
