import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiJson, apiRoute } from "~/api/http.server";
import type { CourseValidationResponse } from "~/api/standards-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { listCourseValidations } from "~/models/standards/validation.server";

/** GET /api/admin/course-validations → every active course's risk rating and next validation, soonest due first. Administrators. */
const handle = apiRoute({
  GET: async ({ request }) => {
    await requireApiUser(request, "admin");
    return apiJson<CourseValidationResponse[]>(await listCourseValidations(getDb()));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
