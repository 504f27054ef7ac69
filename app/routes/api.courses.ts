import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import { type CourseResponse, courseResponse } from "~/api/schemas";
import { getOptionalApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { listAllCourses } from "~/models/course-admin.server";
import { listCourses } from "~/models/course.server";
import { type ApiOperation } from "~/api/operation";

/**
 * GET /api/courses → the course list. Anyone (credentials that fail count as none): the
 * active courses; trainers and administrators: every course with its is_active.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const caller = await getOptionalApiUser(request);
    const db = getDb();
    const staff = caller?.role === "trainer" || caller?.role === "admin";
    const courses = staff ? await listAllCourses(db) : await listCourses(db, { activeOnly: true });
    const response = apiJson<CourseResponse[]>(courses);
    response.headers.set("Vary", "Authorization, Cookie");
    return response;
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);

/** How the OpenAPI document (GET /api/openapi.json) describes this route. */
export const openapi: ApiOperation[] = [
  {
    method: "get",
    path: "/api/courses",
    operationId: "listCourses",
    summary: "Course list",
    description:
      "Anyone. Without credentials, and for students, the active courses only; trainers and administrators get every course with its is_active. Ordered by tier then name.",
    tags: ["courses"],
    access: "optional",
    responses: { 200: { description: "The courses", schema: courseResponse, array: true } },
  },
];
