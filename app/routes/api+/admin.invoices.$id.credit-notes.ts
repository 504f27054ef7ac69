import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { creditNoteRequest } from "~/api/employer-schemas";
import { invoiceAnswer } from "~/api/finance-routes.server";
import { apiJson, apiRoute, idempotencyOf, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { issueCreditNote } from "~/models/finance/invoice.server";

/** POST /api/admin/invoices/{id}/credit-notes → a refund against the invoice, at most what was paid less earlier notes (else 422); answers the invoice (201). Administrators. */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Invoice");
    const input = parseInput(creditNoteRequest, await readJsonBody(request));
    const db = getDb();
    await issueCreditNote(db, {
      invoiceId: id,
      amountCents: input.amount,
      reason: input.reason,
      actor: { id: admin.id, client: clientAddress(request) },
      once: idempotencyOf(request),
    });
    return apiJson(await invoiceAnswer(db, id), 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
