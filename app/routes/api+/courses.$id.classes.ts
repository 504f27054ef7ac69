import type { LoaderFunctionArgs } from "@remix-run/node";
import { getOptionalApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { classForApi, type ClassResponse } from "~/api/class-schemas";
import { getDb } from "~/db.server";
import { listUpcomingClasses } from "~/models/class.server";
import { getCourse } from "~/models/course.server";
import { notFound } from "~/utils/errors";

/**
 * GET /api/courses/{id}/classes → the course's upcoming classes, soonest first, with seats
 * left (docs/decisions/013-classes.md). Open to anyone for an active course, like the catalogue; staff
 * also for an inactive one.
 */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const id = pathId(params, "Course");
    const db = getDb();
    const user = await getOptionalApiUser(request);
    const staff = user?.role === "admin" || user?.role === "trainer";
    if (!(await getCourse(db, id, { activeOnly: !staff }))) throw notFound("Course");
    return apiJson<ClassResponse[]>((await listUpcomingClasses(db, id)).map(classForApi));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: LoaderFunctionArgs) => handle(args);
