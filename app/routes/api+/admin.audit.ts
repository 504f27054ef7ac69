import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { type AuditPageResponse } from "~/api/schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { auditChainSummary } from "~/models/audit-chain.server";
import { auditEntryView, listAudit } from "~/models/audit.server";
import { auditQuery } from "~/schemas/audit";

/**
 * GET /api/admin/audit?person=&action=&subject=&from=&to=&page= → one page of the audit trail,
 * newest first, and the state of its hash chain (administrators).
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(auditQuery, queryObject(request));
    const [page, chain] = await Promise.all([listAudit(getDb(), query), auditChainSummary(getDb())]);
    const { totalCapped, ...rest } = page;
    return apiJson<AuditPageResponse>(
      { ...rest, total_exact: !totalCapped, entries: page.entries.map(auditEntryView), chain },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
