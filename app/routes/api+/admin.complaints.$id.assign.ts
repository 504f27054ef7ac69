import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { assignDeciderRequest } from "~/api/complaint-schemas";
import { complaintStep } from "~/api/complaint-routes.server";
import { assignDecider } from "~/models/complaints/complaint-steps.server";

/** POST /api/admin/complaints/{id}/assign → the appeal with its decider (never its assessor: 409). Administrators. */
const handle = complaintStep(assignDeciderRequest, ["admin"], (db, id, input, actor) => assignDecider(db, id, input.decider_id, actor));

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
