import { Link } from "@remix-run/react";
import { ButtonLink } from "./ui";
import { Logo } from "./logo";

const navLink = "inline-flex min-h-11 items-center rounded-md px-3 py-2 sm:min-h-0 text-sm font-semibold text-steel-100 hover:bg-white/10 hover:text-white";

/** The public top navigation: logo, Courses, Login and Get Started (or Dashboard when signed in). */
export function SiteHeader({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <header className="border-b border-white/10 bg-steel-950">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Logo inverse />
        <div className="flex items-center gap-1 sm:gap-3">
          <Link to="/courses" className={navLink}>
            Courses
          </Link>
          {signedIn ? (
            <ButtonLink to="/dashboard" size="sm">
              Dashboard
            </ButtonLink>
          ) : (
            <>
              <Link to="/login" className={navLink}>
                Login
              </Link>
              <ButtonLink to="/register" size="sm">
                Get Started
              </ButtonLink>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
