import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { enrollmentUpdateRequest, trainerEnrollmentResponse, type TrainerEnrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { announceCertificate } from "~/mail/certificate-issued.server";
import { updateEnrollmentProgress } from "~/models/enrollment.server";
import { getEnrollmentForTrainer } from "~/models/trainer-students.server";
import { enrollmentUpdateSchema } from "~/schemas/enrollment-update";
import { notFound } from "~/utils/errors";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * PUT /api/enrollments/{id} `{status?, progress_percentage?, reopen?}` → 200 with the enrolment.
 * Trainers and administrators. A field left out keeps its current value; the result goes
 * through the trainer's form schema (status and progress agree) and model
 * (updateEnrollmentProgress: the transitions, a passed assessment before completing, the
 * certificate issued on completion when the USI is verified, which is then mailed).
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const user = await requireApiUser(request, "trainer", "admin");
    const id = pathId(params, "Enrollment");
    const body = parseInput(enrollmentUpdateRequest, await readJsonBody(request));
    const db = getDb();
    const current = await getEnrollmentForTrainer(db, id);
    if (!current) throw notFound("Enrollment");
    const input = parseInput(enrollmentUpdateSchema, {
      status: body.status ?? current.status,
      progress: body.progress_percentage ?? current.progress_percentage,
      reopen: body.reopen ?? false,
    });
    const result = await updateEnrollmentProgress(db, { enrollmentId: id, ...input, actorId: user.id });
    if (result.issuedCertificate) void announceCertificate(db, request, result.issuedCertificate.id);
    return apiJson<TrainerEnrollmentResponse>(result.enrollment);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "put",
    path: "/api/enrollments/{id}",
    operationId: "updateEnrollment",
    summary: "Update an enrolment's status and progress",
    description:
      "Trainers and administrators. Fields left out keep their values. Completing needs a passed assessment and sets progress to 100; it issues the certificate when the student's USI is verified. A withdrawn enrolment is reinstated only with reopen: true.",
    tags: ["trainer"],
    access: "required",
    body: enrollmentUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The enrolment as it now stands", schema: trainerEnrollmentResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No enrolment has this id"),
      409: err("The change is not allowed from the enrolment's current state"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
