import { Link } from "@remix-run/react";

/** Hook-and-block mark with the school's name; links home. */
export function Logo({ inverse = false }: { inverse?: boolean }) {
  return (
    <Link to="/" className="inline-flex min-h-11 items-center gap-2 rounded-md font-bold tracking-tight" aria-label="Summit Crane & Rigging, home">
      <svg aria-hidden viewBox="0 0 32 32" className="h-8 w-8" fill="none">
        <rect width="32" height="32" rx="6" fill="#f07a0b" />
        <path d="M7 8h18M16 8v9" stroke="#0e1622" strokeWidth="2.5" strokeLinecap="round" />
        <path d="M16 17c0 3 4 3 4 6s-3 3-4 3-3-1-3-3" stroke="#0e1622" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span className={inverse ? "text-white" : "text-steel-900"}>
        Summit <span className={inverse ? "text-hivis-300" : "text-hivis-600"}>Crane &amp; Rigging</span>
      </span>
    </Link>
  );
}
