import { Form, Link, NavLink, useLocation } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
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
 *
 * On a phone (under the `sm` width) the tabs and the person's controls fold into one "Menu"
 * disclosure (<details>), so the page's own content starts within the first quarter of the
 * screen however many pages the portal has (the office has 19). A <details> opens and closes
 * without JavaScript; with it, the menu closes again once a link in it has navigated.
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
  const menu = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [location.key]);
  const person = (
    <div className="flex min-w-0 items-center gap-2">
      <span aria-hidden className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-hivis-500 text-sm font-bold text-steel-950">
        {initial(user.full_name)}
      </span>
      <div className="min-w-0 leading-tight">
        <p className="max-w-[10rem] truncate text-sm font-semibold">{user.full_name}</p>
        <p className="text-xs text-steel-300">{ROLE_LABELS[user.role]}</p>
      </div>
    </div>
  );
  const signOut = (
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
  );
  const links = (className: string) =>
    nav.map((item) => (
      <li key={item.to}>
        <NavLink
          to={item.to}
          className={({ isActive }) => cn(className, isActive ? "border-hivis-500 text-white" : "border-transparent text-steel-300 hover:text-white")}
        >
          {item.label}
        </NavLink>
      </li>
    ));
  return (
    <div className="min-h-screen bg-steel-50">
      <header className="relative bg-steel-900 text-white">
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-2 px-4 py-2 sm:flex-wrap sm:gap-3 sm:py-3">
          <div className="flex min-w-0 items-center gap-3">
            <Logo inverse />
            <span className="hidden rounded bg-white/10 px-2 py-1 text-xs font-semibold uppercase tracking-wide text-steel-100 sm:inline">{portalName}</span>
          </div>
          <div className="flex shrink-0 items-center justify-end gap-2 sm:flex-wrap sm:gap-3">
            {extras}
            <div className="hidden items-center gap-3 sm:flex">
              {person}
              {signOut}
            </div>
            <details ref={menu} className="portal-menu sm:hidden">
              <summary className="flex min-h-11 min-w-11 cursor-pointer list-none items-center gap-2 rounded-md border border-white/40 px-3 text-sm font-semibold text-white hover:bg-white/10 [&::-webkit-details-marker]:hidden">
                <svg aria-hidden viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
                  <path d="M4 6h16M4 12h16M4 18h16" />
                </svg>
                Menu
              </summary>
              <div className="absolute inset-x-0 top-full z-40 border-t border-white/10 bg-steel-800 px-4 pb-4 shadow-xl">
                <p className="pt-3 text-xs font-semibold uppercase tracking-wide text-steel-300">{portalName}</p>
                <nav aria-label={`${portalName} menu`}>
                  <ul className="grid grid-cols-1 py-2 min-[360px]:grid-cols-2">{links("flex min-h-11 items-center border-l-2 px-3 text-sm font-semibold")}</ul>
                </nav>
                <div className="flex flex-wrap items-center justify-between gap-3 border-t border-white/10 pt-3">
                  {person}
                  {signOut}
                </div>
              </div>
            </details>
          </div>
        </div>
        <nav aria-label={portalName} className="hidden border-t border-white/10 bg-steel-800 sm:block">
          {/* from the `sm` width up the tabs wrap onto a second row: every page of the portal stays in view */}
          <ul className="mx-auto flex max-w-6xl flex-wrap gap-x-1 px-2">{links("block whitespace-nowrap border-b-2 px-3 py-3 text-sm font-semibold")}</ul>
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
        {/* a div, not a paragraph: a back link given as the subtitle is a control of its own (44 px on a phone) */}
        {subtitle ? <div className="mt-1 text-steel-600">{subtitle}</div> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
