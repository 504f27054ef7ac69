import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type CertificateResponse, certificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { listCertificatesForStudent } from "~/models/certificate.server";
import { type ApiOperation, UNAUTHENTICATED } from "~/api/operation";

/** GET /api/certificates/my → the caller's own certificates, newest first. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<CertificateResponse[]>(await listCertificatesForStudent(getDb(), user.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/certificates/my",
    operationId: "listMyCertificates",
    summary: "My certificates",
    description: "Any signed-in user; only their own certificates, newest first.",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The certificates", schema: certificateResponse, array: true }, 401: UNAUTHENTICATED },
  },
];
