import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";
import { Alert, buttonClasses, Modal } from "~/components/ui";

/**
 * The one error boundary of the portal. Every route's ErrorBoundary is this component with the
 * page's own load-failure message; what differs is only where it stands: inside a portal page
 * (the frame around it stays), in a modal (the list behind it stays), or as the whole document
 * (the root, when nothing else could render).
 */

/** What the student portal says when a student's data could not be loaded. */
export const STUDENT_LOAD_ERROR = "Failed to load student data";
/** What the trainer portal says when a page's data could not be loaded. */
export const TRAINER_LOAD_ERROR = "Failed to load dashboard data";

/** The heading and sentence for each status: the one home of the error pages' wording. */
export const STATUS_MESSAGES: Record<number, { title: string; text: string }> = {
  400: { title: "That request could not be read", text: "Please check what you entered and try again." },
  401: { title: "Sign in required", text: "Please sign in to continue." },
  403: { title: "Access denied", text: "You do not have permission to do that." },
  404: { title: "Page not found", text: "We could not find the page you were looking for." },
  405: { title: "Not allowed here", text: "That action is not available on this page." },
  413: { title: "Too large", text: "What you sent is larger than 1 MB." },
  429: { title: "Too many requests", text: "Please wait a few minutes and try again." },
  500: { title: "Something went wrong", text: "An unexpected error occurred. Please try again in a moment." },
  503: { title: "Temporarily unavailable", text: "The portal is busy or its database is not answering. Please try again in a moment." },
};

export interface DescribedError {
  status: number;
  title: string;
  text: string;
  /** a short sentence the server chose for a 4xx ("Student not found"); never a 5xx's internals */
  detail: string | null;
}

/** What to say about a thrown error: its status's wording, and the server's own 4xx sentence. */
export function describeError(error: unknown): DescribedError {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const known = STATUS_MESSAGES[status] ?? (status >= 500 ? STATUS_MESSAGES[500]! : STATUS_MESSAGES[400]!);
  const detail =
    isRouteErrorResponse(error) && status < 500 && typeof error.data === "string" && error.data.length > 0 && error.data.length < 200 ? error.data : null;
  return { status, ...known, detail };
}

interface RouteErrorProps {
  /** The page's own sentence when its data could not be loaded ("Failed to load students"). */
  message?: string;
  /** The page's heading, kept so the reader knows where they are. */
  title?: string;
  /** In a modal over a list: the list's address (the query string is kept). */
  modalCloseTo?: string;
}

/** A plain link to load the page again: works without JavaScript. */
function TryAgain() {
  const { pathname, search } = useLocation();
  return (
    <a href={`${pathname}${search}`} className={buttonClasses("secondary")}>
      Try again
    </a>
  );
}

export function RouteError({ message, title, modalCloseTo }: RouteErrorProps) {
  const error = useRouteError();
  const { search } = useLocation();
  const described = describeError(error);
  const failed = described.status >= 500;
  const sentence = failed ? (message ?? described.text) : (described.detail ?? described.text);
  if (modalCloseTo) {
    return (
      <Modal title={title ?? described.title} closeTo={`${modalCloseTo}${search}`}>
        <Alert>{message ?? described.title}</Alert>
        {failed ? null : <p className="mt-3 text-sm text-steel-700">{described.detail ?? described.text}</p>}
      </Modal>
    );
  }
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-steel-900">{title ?? described.title}</h1>
      <Alert>{sentence}</Alert>
      {failed ? <TryAgain /> : null}
    </div>
  );
}

/** The whole-document version's body (the root boundary wraps it in the site's header). */
export function DocumentError() {
  const described = describeError(useRouteError());
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16 text-center">
      <p className="text-sm font-bold uppercase tracking-wide text-hivis-700">Error {described.status}</p>
      <h1 className="mt-2 text-3xl font-bold text-steel-900">{described.title}</h1>
      <p className="mt-3 text-steel-700">{described.detail ?? described.text}</p>
      <div className="mt-8">
        <Link to="/" className={buttonClasses("primary")}>
          Back to Home
        </Link>
      </div>
    </main>
  );
}
