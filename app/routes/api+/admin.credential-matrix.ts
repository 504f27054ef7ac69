import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { CredentialMatrixResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { credentialMatrix } from "~/models/standards/trainer-credential.server";

/** GET /api/admin/credential-matrix → the matrix /admin/credentials shows (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson<CredentialMatrixResponse>(await credentialMatrix(getDb()), { headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
