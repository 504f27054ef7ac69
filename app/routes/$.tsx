import { type LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse } from "~/utils/http.server";

/**
 * Any address no other route answers: a 404 in the site's own "Page not found" page (the root
 * error boundary), for every method. Without this route Remix would answer with its own
 * "No route matches" error and log it as a server error.
 */
function notFound(): never {
  throw jsonResponse(null, { status: 404 });
}

export const loader = (_args: LoaderFunctionArgs) => notFound();
export const action = notFound;

export default function NotFound() {
  return null;
}
