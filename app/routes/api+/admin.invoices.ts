import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { invoiceListQuery, type InvoiceListResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listInvoices } from "~/models/finance/finance.server";

/** GET /api/admin/invoices?status=&from=&to=&buyer=&page= → one page of invoices, newest first, with the totals of every match. Administrators. */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const { page, ...filters } = parseInput(invoiceListQuery, queryObject(request));
    const found = await listInvoices(getDb(), filters, { page });
    return apiJson<InvoiceListResponse>({
      ...found,
      invoices: found.invoices.map((i) => ({
        ...i,
        total_cents: Number(i.total_cents),
        gst_cents: Number(i.gst_cents),
        paid_cents: Number(i.paid_cents),
        credited_cents: Number(i.credited_cents),
      })),
    });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
