import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recognitionStep } from "~/api/recognition-routes.server";
import { recognitionAssignRequest } from "~/api/recognition-schemas";
import { assignRecognitionAssessor } from "~/models/recognition/recognition.server";

/** POST /api/recognition/{id}/assessor → the RPL with its credentialed assessor (administrators). */
const handle = recognitionStep(recognitionAssignRequest, ["admin"], (db, viewer, id, input, actor) => assignRecognitionAssessor(db, viewer, id, input, actor));

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
