import { clientAddress } from "~/http/request-context.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { type CourseDetailResponse, type CourseResponse, courseUpdateRequest } from "~/api/schemas";
import { getDb } from "~/db.server";
import { getCourseDetail, updateCourse } from "~/models/course-admin.server";
import { getCourse } from "~/models/course.server";
import { notFound } from "~/utils/errors";

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
