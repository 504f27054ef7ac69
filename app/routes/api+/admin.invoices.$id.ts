import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { invoiceAnswer } from "~/api/finance-routes.server";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";

/** GET /api/admin/invoices/{id} → the invoice with its lines, payments and credit notes. Administrators. */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    return apiJson(await invoiceAnswer(getDb(), pathId(params, "Invoice")));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
