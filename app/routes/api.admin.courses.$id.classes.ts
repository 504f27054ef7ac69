import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { classForApi, classRequest, classResponse, type ClassResponse } from "~/api/class-schemas";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";
import { getDb } from "~/db.server";
import { createClass } from "~/models/class.server";

/** POST /api/admin/courses/{id}/classes → 201 with the new class (administrators; the add-class form's schema). */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const courseId = pathId(params, "Course");
    const input = parseInput(classRequest, await readJsonBody(request));
    const created = await createClass(getDb(), courseId, input, admin.id);
    return apiJson<ClassResponse>(classForApi(created), { status: 201, headers: { Location: `/api/courses/${courseId}/classes` } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/admin/courses/{id}/classes",
    operationId: "createClass",
    summary: "Add a class to a course",
    description: "Administrators. Dates YYYY-MM-DD, session times HH:MM in the RTO's time zone, seats 1-100; the first delivery location when location_id is left out.",
    tags: ["admin"],
    access: "required",
    body: classRequest,
    bodyRequired: true,
    responses: {
      201: { description: "The class", schema: classResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
