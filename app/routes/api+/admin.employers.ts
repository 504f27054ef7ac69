import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { employerRequest, type EmployerListResponse, type EmployerResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { createEmployer, listEmployers } from "~/models/employers/employer.server";

/** GET /api/admin/employers → every employer with its users and bookings counted; POST → add one (201). Administrators. */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson<EmployerListResponse>({ employers: await listEmployers(getDb()) });
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(employerRequest, await readJsonBody(request));
    return apiJson<EmployerResponse>(await createEmployer(getDb(), input, { id: admin.id, client: clientAddress(request) }), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
