import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/auth/guards.server";
import { getDb } from "~/db.server";
import { certificatePdfAnswer } from "~/pdf/certificate-download.server";
import { fileNotFound, fileRefusal } from "~/route-helpers/file-refusal.server";

/**
 * GET /certificates/{id}/download: the pages' certificate download, for its owner, trainers,
 * admins and the employers it is shared with (as GET /api/certificates/{id}/download), saved
 * under a name for a person (SoA-CR-2026-00012-Jordan-Mitchell.pdf). Anyone else, an unknown
 * id and a malformed id all get the same 404; signed out goes to the sign-in page.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const answer = await certificatePdfAnswer(getDb(), request, user, params.id ?? "", "person");
  if (answer.kind === "file") return answer.response;
  if (answer.kind === "not_found") return fileNotFound("Certificate not found");
  return fileRefusal("Failed to download certificate: try again in a moment", 503, { "Retry-After": "5" });
}
