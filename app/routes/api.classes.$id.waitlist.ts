import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { waitlistResponse } from "~/api/class-schemas";
import { type ApiOperation, err, UNAUTHENTICATED } from "~/api/operation";
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

const common = { tags: ["student"], access: "required" as const };
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/classes/{id}/waitlist",
    operationId: "getWaitlistPlace",
    summary: "My place on a class's waitlist",
    description: "Any signed-in user: their own entry, with their place or the open offer.",
    ...common,
    responses: { 200: { description: "The entry", schema: waitlistResponse }, 401: UNAUTHENTICATED, 404: err("Not on this class's waitlist") },
  },
  {
    method: "post",
    path: "/api/classes/{id}/waitlist",
    operationId: "joinWaitlist",
    summary: "Join a full class's waitlist",
    description: "First come, first served. A freed seat is offered by mail to the first waiting, for 48 hours.",
    ...common,
    responses: {
      201: { description: "On the waitlist", schema: waitlistResponse },
      401: UNAUTHENTICATED,
      404: err("No class has this id"),
      409: err("The class has a free seat, has started or is cancelled; or the caller is enrolled or already waiting"),
    },
  },
  {
    method: "delete",
    path: "/api/classes/{id}/waitlist",
    operationId: "leaveWaitlist",
    summary: "Leave a class's waitlist",
    description: "An open offer is given up and passes to the next.",
    ...common,
    responses: { 204: { description: "Left" }, 401: UNAUTHENTICATED, 404: err("Not on this class's waitlist") },
  },
];
