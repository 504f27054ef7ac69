import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { employerRequest, type EmployerResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, parsePartialInput, pathId, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { getEmployer, updateEmployer } from "~/models/employers/employer.server";

/** GET /api/admin/employers/{id} → the employer; PUT → change its details (a field left out keeps its value). Administrators. */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    return apiJson<EmployerResponse>(await getEmployer(getDb(), pathId(params, "Employer")));
  },
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Employer");
    const db = getDb();
    const input = parsePartialInput(employerRequest, await readJsonBody(request), await getEmployer(db, id));
    return apiJson<EmployerResponse>(await updateEmployer(db, id, input, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
