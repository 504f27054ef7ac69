/**
 * Addresses the portal has published (in mail, bookmarks, printed material) whose pages have
 * since moved, each with where it lives now. The catch-all route answers an old address with a
 * permanent redirect to its new one, keeping the query string, so a link given out never stops
 * working. When a page moves, add its old address here.
 */
export const MOVED_PATHS: Readonly<Record<string, string>> = {
  // the enrolment-details dialog took the spelling of its route module's neighbours
  "/student/profile/enrolment": "/student/profile/enrollment",
};

/** Where an old address lives now (with the request's query string), or null if it never moved. */
export function movedPath(url: URL): string | null {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
  const to = MOVED_PATHS[path];
  return to === undefined ? null : `${to}${url.search}`;
}
