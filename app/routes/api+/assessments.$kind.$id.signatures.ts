import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { signatureRequest } from "~/api/evidence-schemas";
import { pathAssessment } from "~/api/evidence-routes.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { listSignatures, signAssessment } from "~/models/evidence.server";

/**
 * POST /api/assessments/{kind}/{id}/signatures `{role, full_name}`: a declaration signed, as on
 * the evidence page (signAssessment): the assessor's by the assessor; the candidate's by the
 * candidate from their own login or typed on the assessor's device. 201 with the declaration.
 */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "student", "trainer");
    const assessment = await pathAssessment(user, params);
    const input = parseInput(signatureRequest, await readJsonBody(request));
    const db = getDb();
    await signAssessment(db, {
      assessment,
      role: input.role,
      full_name: input.full_name,
      userAgent: request.headers.get("User-Agent"),
      actor: { id: user.id, client: clientAddress(request) },
    });
    const signed = (await listSignatures(db, assessment)).find((s) => s.role === input.role)!;
    return apiJson({ role: signed.role, full_name: signed.full_name, signed_at: signed.signed_at }, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
