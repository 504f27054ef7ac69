import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { jsonResponse } from "~/routes/$.server";
import { movedPath } from "~/utils/moved-paths";

/**
 * Any address no other route answers: a page that moved answers with a permanent redirect to its
 * new address (utils/moved-paths.ts), 301 for a GET and 308 for a form posted to it (which keeps
 * the method and body); anything else is a 404 in the site's own "Page not found" page (the
 * root error boundary), for every method. Without this route Remix would answer with its own
 * "No route matches" error and log it as a server error.
 */
function answer(request: Request, permanentStatus: 301 | 308): never {
  const to = movedPath(new URL(request.url));
  if (to) throw new Response(null, { status: permanentStatus, headers: { Location: to } });
  throw jsonResponse(null, { status: 404 });
}

export const loader = ({ request }: LoaderFunctionArgs) => answer(request, 301);
export const action = ({ request }: ActionFunctionArgs) => answer(request, 308);

export default function NotFound() {
  return null;
}
