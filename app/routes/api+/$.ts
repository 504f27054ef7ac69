import { apiError } from "~/api/http.server";

/** Any other /api path: a JSON 404 for every method, never the HTML error page. */
function notAnEndpoint() {
  const response = apiError(404, "No such API endpoint; see /api/openapi.json");
  response.headers.set("Cache-Control", "no-store");
  return response;
}

export const loader = () => notAnEndpoint();
export const action = () => notAnEndpoint();
