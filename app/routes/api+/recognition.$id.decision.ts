import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { recognitionStep } from "~/api/recognition-routes.server";
import { recognitionDecideRequest } from "~/api/recognition-schemas";
import { decideRecognition } from "~/models/recognition/recognition.server";

/**
 * POST /api/recognition/{id}/decision → the application decided: a credit transfer by an
 * administrator, an RPL by its assessor (or refused by an administrator).
 */
const handle = recognitionStep(recognitionDecideRequest, ["admin", "trainer"], (db, viewer, id, input, actor) =>
  decideRecognition(db, viewer, id, input, actor),
);

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
