import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, queryObject } from "~/api/http.server";
import type { MailPageResponse } from "~/api/schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { mailView } from "~/mail/templates.server";
import { listMail } from "~/models/outbox.server";
import { mailListQuery } from "~/schemas/mail";

/** GET /api/admin/mail?state=&recipient=&template=&from=&to=&page= → one page of the outbox, newest first (administrators). */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    const query = parseInput(mailListQuery, queryObject(request));
    const page = await listMail(getDb(), query);
    const { totalCapped, ...rest } = page;
    return apiJson<MailPageResponse>(
      { ...rest, total_exact: !totalCapped, messages: page.messages.map((m) => mailView(m)) },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
