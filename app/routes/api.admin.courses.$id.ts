import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/auth/api.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { type CourseDetailResponse, courseDetailResponse, type CourseResponse, courseResponse, courseUpdateRequest } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getCourseDetail, updateCourse } from "~/models/course-admin.server";
import { getCourse } from "~/models/course.server";
import { notFound } from "~/utils/errors";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";

/**
 * GET /api/admin/courses/{id} → the course with its figures.
 * PUT /api/admin/courses/{id} → a partial update with the Edit Course schema (the status
 * toggle sends only is_active); returns the updated course. Administrators only; an unknown
 * or malformed id is a 404.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiUser(request, "admin");
    const detail = await getCourseDetail(getDb(), pathId(params, "Course"));
    if (!detail) throw notFound("Course");
    return apiJson<CourseDetailResponse>(detail);
  },
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const id = pathId(params, "Course");
    const patch = parseInput(courseUpdateRequest, await readJsonBody(request));
    const db = getDb();
    if (Object.keys(patch).length === 0) {
      const course = await getCourse(db, id);
      if (!course) throw notFound("Course");
      return apiJson<CourseResponse>(course);
    }
    return apiJson<CourseResponse>(await updateCourse(db, id, patch, { id: admin.id, client: clientAddress(request) }));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/admin/courses/{id}",
    operationId: "getCourse",
    summary: "Course detail",
    description: "Administrators. The course with its enrolment figures and five most recent enrolments.",
    tags: ["admin"],
    access: "required",
    responses: {
      200: { description: "The course detail", schema: courseDetailResponse },
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course has this id"),
    },
  },
  {
    method: "put",
    path: "/api/admin/courses/{id}",
    operationId: "updateCourse",
    summary: "Update a course (partial)",
    description:
      "Administrators. Fields left out stay as they are; the status toggle sends only is_active. Blank list entries are dropped. " +
      "duration_hours and price are numbers (or numeric strings): an empty or non-numeric value is a 422 naming the field, and duration_hours " +
      "(the unit's nominal hours, reported to NCVER) must be more than 0. official_title is the unit's title on the national register, " +
      "reported as NAT00060's subject name (at most 100 characters; empty or null clears it).",
    tags: ["admin"],
    access: "required",
    body: courseUpdateRequest,
    bodyRequired: true,
    responses: {
      200: { description: "The updated course", schema: courseResponse },
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
