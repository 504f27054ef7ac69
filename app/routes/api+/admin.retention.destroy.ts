import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { destroyRequest, type DestroyedResponse } from "~/api/evidence-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getFileStore } from "~/files/store.server";
import { clientAddress } from "~/http/request-context.server";
import { destroyRecords } from "~/models/retention.server";
import { organisationToday } from "~/utils/organisation-calendar";

/**
 * POST /api/admin/retention/destroy `{ids, confirm: "yes"}` → 200 with the tombstones: an
 * administrator approves the destruction of evidence files past their keep-until day, as on
 * /admin/retention (destroyRecords): the bytes go, a tombstone and an audit entry stay. Any id
 * not due (or not evidence) refuses the whole request and destroys nothing.
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const admin = await requireApiUser(request, "admin");
    const input = parseInput(destroyRequest, await readJsonBody(request));
    const destroyed = await destroyRecords(
      getDb(),
      getFileStore(),
      { ids: input.ids, today: organisationToday() },
      { id: admin.id, client: clientAddress(request) },
    );
    return apiJson<DestroyedResponse>({ destroyed });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
