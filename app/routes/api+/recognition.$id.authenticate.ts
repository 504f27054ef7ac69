import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recognitionStep } from "~/api/recognition-routes.server";
import { recognitionAuthenticateRequest } from "~/api/recognition-schemas";
import { authenticateCreditTransfer } from "~/models/recognition/recognition.server";

/** POST /api/recognition/{id}/authenticate → the credit transfer with its authentication and equivalence recorded (administrators). */
const handle = recognitionStep(recognitionAuthenticateRequest, ["admin"], (db, viewer, id, input, actor) =>
  authenticateCreditTransfer(db, viewer, id, input, actor),
);

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
