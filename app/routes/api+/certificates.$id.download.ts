import { type ApiArgs, apiError, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { certificatePdfAnswer } from "~/pdf/certificate-download.server";

/**
 * GET /api/certificates/{id}/download: the certificate as a PDF attachment saved as
 * certificate_{id}.pdf, for its owner, trainers and admins (bearer token, or the session cookie so a plain link works). Anyone
 * else, an unknown id and a malformed id all get the same 404. The pages link to
 * /certificates/{id}/download, the same file under a name for a person.
 */

/** A JSON error that no cache keeps, like every other /api error. */
function uncached(response: Response): Response {
  response.headers.set("Cache-Control", "no-store");
  return response;
}

async function download({ request, params }: ApiArgs): Promise<Response> {
  const user = await requireApiUser(request).catch((thrown: unknown) => {
    throw thrown instanceof Response ? uncached(thrown) : thrown;
  });
  const answer = await certificatePdfAnswer(getDb(), request, user, params.id ?? "", "api");
  if (answer.kind === "file") return answer.response;
  if (answer.kind === "not_found") return uncached(apiError(404, "Certificate not found"));
  const failed = uncached(apiError(503, "Failed to download certificate"));
  failed.headers.set("Retry-After", "5");
  return failed;
}

/** GET (and HEAD) only; any other method is a 405 with Allow, like every /api route. */
const route = apiRoute({ GET: download });
export const loader = route;
export const action = route;
