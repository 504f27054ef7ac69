import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { courseValidationRequest, type CourseValidationResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { setCourseValidation } from "~/models/standards/validation.server";

/**
 * PUT /api/admin/course-validations/{id} (a course's id) → sets its risk rating, last validation
 * and next validation (blank: the latest the rating allows; later is refused), with the
 * /admin/validations form's schema and model. Administrators.
 */
const handle = apiRoute({
  PUT: async ({ request, params }) => {
    const admin = await requireApiUser(request, "admin");
    const courseId = pathId(params, "Course");
    const input = parseInput(courseValidationRequest, await readJsonBody(request));
    return apiJson<CourseValidationResponse>(
      await setCourseValidation(getDb(), { ...input, course_id: courseId }, { id: admin.id, client: clientAddress(request) }),
    );
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
