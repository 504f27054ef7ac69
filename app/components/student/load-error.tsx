import { useLocation, useRouteError } from "@remix-run/react";
import { useEffect } from "react";
import { Alert, buttonClasses } from "~/components/ui";

export const LOAD_ERROR = "Failed to load student data";

/** The spec's failure message with a way to try again (a plain link, so it works without JavaScript). */
export function StudentLoadError() {
  const location = useLocation();
  return (
    <div className="space-y-4">
      <Alert>{LOAD_ERROR}</Alert>
      <a href={location.pathname + location.search} className={buttonClasses("secondary")}>
        Try again
      </a>
    </div>
  );
}

/** A student page's ErrorBoundary: the message inside the portal frame, which still stands. */
export function StudentPageErrorBoundary() {
  const error = useRouteError();
  useEffect(() => console.error(error), [error]);
  return <StudentLoadError />;
}
