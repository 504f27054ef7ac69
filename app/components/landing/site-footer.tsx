import { Link } from "@remix-run/react";
import { Logo } from "~/components/logo";
import { organisationYear } from "~/utils/organisation-calendar";

const link = "inline-flex min-h-11 items-center rounded text-steel-300 sm:min-h-0 underline-offset-4 hover:text-white hover:underline";

/** The public footer: Courses, Support and Compliance columns and the registered-organisation ID. */
export function SiteFooter({ rto }: { rto: { name: string; code: string } }) {
  const year = organisationYear();
  return (
    <footer className="bg-steel-950 text-sm text-steel-300">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-[1.4fr_1fr_1fr_1fr]">
        <div>
          <Logo inverse />
          <p className="mt-4 max-w-xs leading-relaxed">Crane operation, dogging and rigging training for Australian construction, ports and mining.</p>
        </div>
        <nav aria-labelledby="footer-courses">
          <h2 id="footer-courses" className="font-bold uppercase tracking-wider text-white">
            Courses
          </h2>
          <ul className="mt-4 space-y-2">
            <li>
              <Link to="/courses?tier=tier_1" className={link}>
                Tier 1 - Basic Operations
              </Link>
            </li>
            <li>
              <Link to="/courses?tier=tier_2" className={link}>
                Tier 2 - Intermediate
              </Link>
            </li>
            <li>
              <Link to="/courses?tier=tier_3" className={link}>
                Tier 3 - Advanced
              </Link>
            </li>
            <li>
              <Link to="/courses" className={link}>
                All courses
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-support">
          <h2 id="footer-support" className="font-bold uppercase tracking-wider text-white">
            Support
          </h2>
          <ul className="mt-4 space-y-2">
            <li>
              <Link to="/login" className={link}>
                Student login
              </Link>
            </li>
            <li>
              <Link to="/register" className={link}>
                Create an account
              </Link>
            </li>
            <li>
              <Link to="/forgot-password" preventScrollReset className={link}>
                Forgot your password?
              </Link>
            </li>
            <li>
              <Link to="/complaints/policy" className={link}>
                Complaints and appeals
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="font-bold uppercase tracking-wider text-white">Compliance</h2>
          <ul className="mt-4 space-y-2">
            <li>Registered with ASQA</li>
            <li>Nationally recognised training</li>
            <li>High risk work licence assessor</li>
            <li>AVETMISS reporting</li>
          </ul>
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-5 text-xs">
          <p>
            © {year} {rto.name}
          </p>
          <p className="font-semibold text-steel-200">RTO ID: {rto.code}</p>
        </div>
      </div>
    </footer>
  );
}
