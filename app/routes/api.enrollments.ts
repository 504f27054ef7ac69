import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { enrollmentRequest, type EnrollmentResponse, enrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { createEnrollment } from "~/models/enrollment.server";
import { listEnrollmentsForStudent } from "~/models/student-enrollments.server";
import { type ApiOperation, err, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * POST /api/enrollments `{course_id, class_id?}` → 201 with the new enrolment (the shape of
 * /api/enrollments/my). Any signed-in user enrols themselves; an unknown or inactive course
 * is a 404, a second enrolment in the same course a 409 (createEnrollment, as the enrol page).
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const input = parseInput(enrollmentRequest, await readJsonBody(request));
    const db = getDb();
    const created = await createEnrollment(db, { studentId: user.id, courseId: input.course_id, classId: input.class_id, actorId: user.id });
    const enrollment = (await listEnrollmentsForStudent(db, user.id)).find((e) => e.id === created.id)!;
    return apiJson<EnrollmentResponse>(enrollment, { status: 201, headers: { Location: "/api/enrollments/my" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/enrollments",
    operationId: "enrol",
    summary: "Enrol in a course",
    description:
      "Any signed-in user enrols themselves in an active course. One enrolment per course. A course with upcoming classes takes a seat in one: `class_id` chooses it; without it, the next upcoming class with a free seat.",
    tags: ["student"],
    access: "required",
    body: enrollmentRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Enrolled", schema: enrollmentResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      404: err("No active course has this id"),
      409: err('Already enrolled in this course; "This class is full" for a chosen class without a free seat; or every class of the course is full'),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
