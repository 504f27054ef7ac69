import { Link } from "@remix-run/react";
import { POLICIES, POLICY_SLUGS, policyPath } from "~/schemas/policy-text";

/** The policies a learner agrees to, each a link to the page showing its version in force (registration and the enrolment form). */
export function PolicyLinks({ className = "" }: { className?: string }) {
  return (
    <p className={`text-sm text-steel-700 ${className}`}>
      <span>Read them: </span>
      {POLICY_SLUGS.map((slug, i) => (
        <span key={slug}>
          {i > 0 ? (i === POLICY_SLUGS.length - 1 ? " and " : ", ") : null}
          <Link to={policyPath(slug)} className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline underline-offset-2">
            the {POLICIES[slug].name}
          </Link>
        </span>
      ))}
      .
    </p>
  );
}
