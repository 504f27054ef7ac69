import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { getOptionalUser } from "~/auth/guards.server";
import { SiteHeader } from "~/components/site-header";
import { FlashMessage, Toaster } from "~/components/toaster";
import { ButtonLink } from "~/components/ui";
import styles from "~/tailwind.css";
import { readFlash } from "~/utils/flash.server";
import { useNonce } from "~/utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Summit Crane & Rigging Training" },
  { name: "description", content: "Nationally recognised crane operation and rigging training in three tiers." },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, { flash, clear }] = await Promise.all([getOptionalUser(request), readFlash(request)]);
  const headers = new Headers();
  for (const c of clear) headers.append("Set-Cookie", c);
  return json({ user: user ? { id: user.id, full_name: user.full_name, role: user.role } : null, flash }, { headers });
}

/** The signed-in user as the root loaded it (name and role only), or null. */
export function useOptionalUser() {
  return useRouteLoaderData<typeof loader>("root")?.user ?? null;
}

function Document({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en-AU" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#172334" />
        <Meta />
        <Links />
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
      <Toaster />
    </Document>
  );
}

const MESSAGES: Record<number, { title: string; text: string }> = {
  400: { title: "That request could not be read", text: "Please check what you entered and try again." },
  403: { title: "Access denied", text: "You do not have permission to do that." },
  404: { title: "Page not found", text: "We could not find the page you were looking for." },
  413: { title: "Too large", text: "What you sent is larger than 1 MB." },
  429: { title: "Too many requests", text: "Please wait a few minutes and try again." },
};

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const known = MESSAGES[status] ?? {
    title: "Something went wrong",
    text: "An unexpected error occurred. Please try again in a moment.",
  };
  const detail = isRouteErrorResponse(error) && typeof error.data === "string" && error.data.length < 200 ? error.data : null;
  return (
    <Document>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
        <p className="text-sm font-bold uppercase tracking-wide text-hivis-700">Error {status}</p>
        <h1 className="mt-2 text-3xl font-bold text-steel-900">{known.title}</h1>
        <p className="mt-3 text-steel-700">{detail && status !== 500 ? detail : known.text}</p>
        <div className="mt-8">
          <ButtonLink to="/">Back to Home</ButtonLink>
        </div>
      </main>
    </Document>
  );
}
