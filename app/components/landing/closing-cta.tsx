import { Link } from "@remix-run/react";
import { buttonClasses } from "~/components/ui";

/** The last call to action before the footer. */
export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="bg-steel-900 py-16 text-white sm:py-20">
      <div className="mx-auto max-w-4xl px-4 text-center">
        <h2 id="cta-title" className="text-3xl font-bold tracking-tight sm:text-4xl">
          Ready to take the controls?
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-steel-200">
          Create your account in two minutes, choose your tier and book your first course. Our trainers will guide you from the classroom to your licence.
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <Link to="/register" className={buttonClasses("primary", "lg")}>
            Start Your Journey
          </Link>
          {/* read aloud, or listed among the page's links, "Learn More" alone says nothing of what it leads to */}
          <Link to="/courses" className={buttonClasses("inverse", "lg")}>
            Learn More<span className="sr-only"> about our courses</span>
          </Link>
        </div>
      </div>
    </section>
  );
}
