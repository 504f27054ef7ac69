import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type EnrollmentResponse, enrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { listEnrollmentsForStudent } from "~/models/student-enrollments.server";
import { type ApiOperation, UNAUTHENTICATED } from "~/api/operation";

/** GET /api/enrollments/my → the caller's own enrolments, newest first. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<EnrollmentResponse[]>(await listEnrollmentsForStudent(getDb(), user.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/enrollments/my",
    operationId: "listMyEnrollments",
    summary: "My enrolments",
    description: "Any signed-in user; only their own enrolments, newest first.",
    tags: ["student"],
    access: "required",
    responses: { 200: { description: "The enrolments", schema: enrollmentResponse, array: true }, 401: UNAUTHENTICATED },
  },
];
