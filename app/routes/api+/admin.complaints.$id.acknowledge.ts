import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { acknowledgeRequest } from "~/api/complaint-schemas";
import { complaintStep } from "~/api/complaint-routes.server";
import { acknowledgeComplaint } from "~/models/complaints/complaint-steps.server";

/** POST /api/admin/complaints/{id}/acknowledge → the item, acknowledged. Administrators; a trainer for an appeal assigned to them. */
const handle = complaintStep(acknowledgeRequest, ["admin", "trainer"], (db, id, _input, actor, reader) => acknowledgeComplaint(db, id, actor, reader), {
  bodyOptional: true,
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
