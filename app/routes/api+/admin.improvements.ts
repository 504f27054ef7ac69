import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject, readJsonBody } from "~/api/http.server";
import { improvementCreateRequest, type ImprovementActionResponse, type ImprovementPageResponse } from "~/api/improvement-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { createImprovementAction, listImprovementActions } from "~/models/standards/improvement.server";
import { improvementListQuery } from "~/schemas/improvement";

/**
 * GET /api/admin/improvements?status=&source_type=&owner=&overdue=&from=&to=&page= → one page of the register, overdue first.
 * POST /api/admin/improvements → raise an action (201). Administrators.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(improvementListQuery, queryObject(request));
    return apiJson<ImprovementPageResponse>(await listImprovementActions(getDb(), query));
  },
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(improvementCreateRequest, await readJsonBody(request));
    return apiJson<ImprovementActionResponse>(await createImprovementAction(getDb(), input, { id: admin.id, client: clientAddress(request) }), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
