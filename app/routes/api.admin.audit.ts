import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type AuditPageResponse } from "~/api/schemas";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
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
