import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parsePartialInput, pathId, readJsonBody } from "~/api/http.server";
import { courseValidationRequest, type CourseValidationResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { recordedCourseValidation, setCourseValidation } from "~/models/standards/validation.server";
import { notFound } from "~/utils/errors";

/**
 * PUT /api/admin/course-validations/{id} (a course's id) → sets its risk rating, last validation
 * and next validation (blank: the latest the rating allows; later is refused), with the
 * /admin/validations form's schema and model. The rating and the last validation left out keep
 * what was recorded; the next validation left out is the latest the rating allows, as the
 * form's blank is. Administrators.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const courseId = pathId(params, "Course");
    const db = getDb();
    const recorded = await recordedCourseValidation(db, courseId);
    if (!recorded) throw notFound("Course");
    const input = parsePartialInput(courseValidationRequest, await readJsonBody(request), recorded);
    return apiJson<CourseValidationResponse>(
      await setCourseValidation(db, { ...input, course_id: courseId }, { id: admin.id, client: clientAddress(request) }),
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
