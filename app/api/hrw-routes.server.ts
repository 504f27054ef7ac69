import type { z } from "zod";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { getHrwAssessment } from "~/models/hrw-assessment.server";
import type { DB } from "#db/connection";
import {
  apiJson,
  apiRoute,
  parseInput,
  pathId,
  readJsonBody,
} from "./http.server";
import { hrwAssessmentResponse } from "./hrw-schemas";
import {
  type ApiOperation,
  err,
  FORBIDDEN,
  INVALID,
  MALFORMED,
  TOO_LARGE,
  UNAUTHENTICATED,
  WRONG_TYPE,
} from "./operation";

/**
 * POST /api/hrw/assessments/{id}/… : one step an assessor records (notice, part result, NSA),
 * as themselves. The same schema and model as the assessment page; answers 201 with the
 * assessment as it now stands.
 */
export function assessorStep<S extends z.ZodType>(
  schema: S,
  record: (
    db: DB,
    id: string,
    input: z.infer<S>,
    actorId: string
  ) => Promise<void>
) {
  const route = apiRoute({
    POST: async ({ request, params }) => {
      const trainer = await requireApiUser(request, "trainer");
      const id = pathId(params, "Assessment");
      const input = parseInput(schema, await readJsonBody(request));
      const db = getDb();
      await record(db, id, input, trainer.id);
      return apiJson((await getHrwAssessment(db, id))!, { status: 201 });
    },
  });
  return route;
}

/** The OpenAPI entry of an assessor's step. */
export function assessorStepOperation(step: {
  path: string;
  operationId: string;
  summary: string;
  description: string;
  body: z.ZodType;
  conflict?: string;
}): ApiOperation {
  return {
    method: "post",
    path: step.path,
    operationId: step.operationId,
    summary: step.summary,
    description: `Trainers, as the assessor booked for the assessment (anyone else: 403). ${step.description}`,
    tags: ["trainer"],
    access: "required",
    body: step.body,
    bodyRequired: true,
    responses: responsesOf(step.conflict),
  };
}

function responsesOf(conflict: string | undefined): ApiOperation["responses"] {
  const responses: ApiOperation["responses"] = {
    201: {
      description: "The assessment as it now stands",
      schema: hrwAssessmentResponse,
    },
    400: MALFORMED,
    401: UNAUTHENTICATED,
    403: FORBIDDEN,
    404: err("No assessment has this id"),
    413: TOO_LARGE,
    415: WRONG_TYPE,
    422: INVALID,
  };
  if (conflict) responses[409] = err(conflict);
  return responses;
}
