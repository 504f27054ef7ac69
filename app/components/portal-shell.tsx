import { Form, Link, NavLink } from "@remix-run/react";
import type { ReactNode } from "react";
import { cn } from "~/utils/cn";
import { initial, ROLE_LABELS } from "~/utils/format";
import { Logo } from "./logo";
import { SubmitButton } from "./ui";

export interface PortalNavItem {
  to: string;
  label: string;
}

/**
 * The frame of every portal: top bar with the portal name, the user's initial, name and role,
 * optional extras (notifications) and sign-out; a tab bar of the portal's pages.
 */
export function PortalShell({
  portalName,
  user,
  nav,
  extras,
  children,
}: {
  portalName: string;
  user: { full_name: string; role: keyof typeof ROLE_LABELS };
  nav: PortalNavItem[];
  extras?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen bg-steel-50">
      <header className="bg-steel-900 text-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <div className="flex items-center gap-3">
            <Logo inverse />
            <span className="hidden rounded bg-white/10 px-2 py-1 text-xs font-semibold uppercase tracking-wide text-steel-100 sm:inline">
              {portalName}
            </span>
          </div>
          {/* On a phone the person and their controls wrap under the logo, Security and Sign
              out together, rather than running off the screen's edge. */}
          <div className="flex flex-wrap items-center justify-end gap-2 sm:gap-3">
            {extras}
            <div className="flex min-w-0 items-center gap-2">
              <span
                aria-hidden
                className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-hivis-500 text-sm font-bold text-steel-950"
              >
                {initial(user.full_name)}
              </span>
              <div className="min-w-0 leading-tight">
                <p className="max-w-[10rem] truncate text-sm font-semibold">{user.full_name}</p>
                <p className="text-xs text-steel-300">{ROLE_LABELS[user.role]}</p>
              </div>
            </div>
            <div className="flex items-center gap-2">
              <Link
                to="/account/security"
                className="inline-flex min-h-11 items-center rounded px-2 text-sm font-semibold text-steel-100 underline-offset-4 hover:underline sm:min-h-9"
              >
                Security
              </Link>
              <Form method="post" action="/logout">
                <SubmitButton variant="inverse" size="sm" busyLabel="Signing out..." formAction="/logout">
                  Sign out
                </SubmitButton>
              </Form>
            </div>
          </div>
        </div>
        <p className="px-4 pb-2 text-center text-xs font-semibold uppercase tracking-wide text-steel-300 sm:hidden">{portalName}</p>
        <nav aria-label={portalName} className="border-t border-white/10 bg-steel-800">
          {/* the tabs wrap onto a second row on a phone: every page of the portal stays in view */}
          <ul className="mx-auto flex max-w-6xl flex-wrap gap-x-1 px-2">
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={({ isActive }) =>
                    cn(
                      "block whitespace-nowrap border-b-2 px-3 py-3 text-sm font-semibold",
                      isActive ? "border-hivis-500 text-white" : "border-transparent text-steel-300 hover:text-white",
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
        {children}
      </main>
    </div>
  );
}

/** A page title row inside a portal. */
export function PageTitle({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      <div>
        <h1 className="text-2xl font-bold text-steel-900 sm:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1 text-steel-600">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
