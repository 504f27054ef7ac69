import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { getDb } from "~/db.server";
import { joinWaitlist, leaveWaitlist, waitlistEntry } from "~/models/waitlist.server";
import { notFound } from "~/utils/errors";

/**
 * The caller's place on a full class's waitlist: GET reads it, POST joins (409 when the class
 * has a free seat, or the caller is enrolled or already waiting), DELETE leaves.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request);
    const entry = await waitlistEntry(getDb(), pathId(params, "Class"), user.id);
    if (!entry) throw notFound("Waitlist entry");
    return apiJson(entry);
  },
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request);
    return apiJson(await joinWaitlist(getDb(), { classId: pathId(params, "Class"), studentId: user.id }), 201);
  },
  DELETE: async ({ request, params }) => {
    const user = await requireApiUser(request);
    await leaveWaitlist(getDb(), { classId: pathId(params, "Class"), studentId: user.id });
    return new Response(null, { status: 204 });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
