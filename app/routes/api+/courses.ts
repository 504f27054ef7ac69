import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import { type CourseResponse } from "~/api/schemas";
import { getOptionalApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listAllCourses } from "~/models/course-admin.server";
import { listCourses } from "~/models/course.server";

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
