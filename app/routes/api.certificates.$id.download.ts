import { type ApiArgs, apiError, apiRoute } from "~/api/http.server";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { getCertificateForViewer } from "~/models/certificate.server";
import { ensureCertificatePdf } from "~/pdf/certificate-pdf.server";
import { uuid } from "~/schemas/fields";
import { logLine } from "~/utils/log.server";

/**
 * GET /api/certificates/{id}/download: the certificate as a PDF attachment saved as
 * certificate_{id}.pdf, for its owner, trainers and admins (bearer token, or the session cookie so a plain link works). Anyone
 * else, an unknown id and a malformed id all get the same 404.
 */

const CACHE_CONTROL = "private, max-age=0, must-revalidate";

function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** A JSON error that no cache keeps, like every other /api error. */
function uncached(response: Response): Response {
  response.headers.set("Cache-Control", "no-store");
  return response;
}

const notFound = () => uncached(apiError(404, "Certificate not found"));

async function download({ request, params }: ApiArgs): Promise<Response> {
  const user = await requireApiUser(request).catch((thrown: unknown) => {
    throw thrown instanceof Response ? uncached(thrown) : thrown;
  });
  const id = params.id ?? "";
  if (!uuid.safeParse(id).success) return notFound();
  const db = getDb();
  const certificate = await getCertificateForViewer(db, id, user);
  if (!certificate) return notFound();

  let document;
  try {
    document = await ensureCertificatePdf(db, id);
  } catch (error) {
    logLine({ event: "pdf.failed", certificateId: id, error: String(error) });
    const failed = uncached(apiError(503, "Failed to download certificate"));
    failed.headers.set("Retry-After", "5");
    return failed;
  }
  if (!document) return notFound();

  const headers = new Headers({ ETag: document.etag, "Cache-Control": CACHE_CONTROL });
  if (matchesEtag(request.headers.get("If-None-Match"), document.etag)) {
    return new Response(null, { status: 304, headers });
  }
  headers.set("Content-Type", "application/pdf");
  headers.set("Content-Length", String(document.byteLength));
  // the /api contract names the file by the record's id, exactly; the pages' own download names
  // it for a person (document, number and learner)
  headers.set("Content-Disposition", `attachment; filename="certificate_${id}.pdf"`);
  const body = new Uint8Array(document.pdf.buffer as ArrayBuffer, document.pdf.byteOffset, document.pdf.byteLength);
  return new Response(body, { status: 200, headers });
}

/** GET (and HEAD) only; any other method is a 405 with Allow, like every /api route. */
const route = apiRoute({ GET: download });
export const loader = route;
export const action = route;
