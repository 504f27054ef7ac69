import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute } from "~/api/http.server";
import { type EnrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { listEnrollmentsForStudent } from "~/models/student-enrollments.server";

/** GET /api/enrollments/my → the caller's own enrolments, newest first. */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request);
    return apiJson<EnrollmentResponse[]>(await listEnrollmentsForStudent(getDb(), user.id));
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
