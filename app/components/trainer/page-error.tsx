import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { Alert, buttonClasses } from "~/components/ui";

/** Spec section 8's message for a trainer page that could not load. */
export const TRAINER_LOAD_ERROR = "Failed to load dashboard data";

/**
 * A trainer page's ErrorBoundary: the message inside the portal frame, which still stands.
 * A missing record (404) says so; anything else offers to try again (a plain link, so it
 * works without JavaScript).
 */
export function TrainerPageErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold text-steel-900">Not found</h1>
        <Alert>{typeof error.data === "string" && error.data.length < 200 ? error.data : "That record was not found."}</Alert>
        <Link to="/trainer/students" className={buttonClasses("secondary")}>
          Back to My Students
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-steel-900">Something went wrong</h1>
      <Alert>{TRAINER_LOAD_ERROR}</Alert>
      <a href={location.pathname + location.search} className={buttonClasses("secondary")}>
        Try again
      </a>
    </div>
  );
}
