import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type ApiOperation, err, FORBIDDEN, UNAUTHENTICATED } from "~/api/operation";
import { auditPageResponse, type AuditPageResponse } from "~/api/schemas";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { AUDIT_PAGE_SIZE } from "~/models/audit-actions";
import { auditEntryView, listAudit } from "~/models/audit.server";
import { auditQuery } from "~/schemas/audit";

/** GET /api/admin/audit?person=&action=&subject=&from=&to=&page= → one page of the audit trail, newest first (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(auditQuery, queryObject(request));
    const page = await listAudit(getDb(), query);
    return apiJson<AuditPageResponse>({ ...page, entries: page.entries.map(auditEntryView) }, { headers: { "Cache-Control": "no-store" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/audit",
    operationId: "listAudit",
    summary: "Audit trail",
    description: `Administrators. Security-relevant events (sign-ins, second-step changes, password changes, USI views and changes, certificates, AVETMISS exports, student record edits, staff decisions, course edits), newest first, ${AUDIT_PAGE_SIZE} per page, with the filters of /admin/audit. Entries name changed fields, never their values.`,
    tags: ["admin"],
    access: "required",
    query: auditQuery,
    responses: {
      200: { description: "One page of entries", schema: auditPageResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      422: err("Invalid query parameters; `errors` names each one"),
    },
  },
];
