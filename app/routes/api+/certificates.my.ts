import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type CertificateResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { listCertificatesForStudent } from "~/models/certificates/certificate.server";

/** GET /api/certificates/my → the caller's own certificates, newest first. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<CertificateResponse[]>(await listCertificatesForStudent(getDb(), user.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
