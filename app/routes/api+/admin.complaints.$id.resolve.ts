import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { resolveRequest } from "~/api/complaint-schemas";
import { complaintStep } from "~/api/complaint-routes.server";
import { resolveComplaint } from "~/models/complaints/complaint-steps.server";

/**
 * POST /api/admin/complaints/{id}/resolve → the item, resolved (a complaint) or decided (an
 * appeal: by its assigned decider or an administrator, never by its assessor: 409).
 */
const handle = complaintStep(resolveRequest, ["admin", "trainer"], (db, id, input, actor, reader) => resolveComplaint(db, id, input, actor, reader));

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
