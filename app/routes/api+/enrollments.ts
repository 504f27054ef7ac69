import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { enrollmentRequest, type EnrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { createEnrollment } from "~/models/enrollment.server";
import { listEnrollmentsForStudent } from "~/models/student-enrollments.server";

/**
 * POST /api/enrollments `{course_id, class_id?}` → 201 with the new enrolment (the shape of
 * /api/enrollments/my). Any signed-in user enrols themselves; an unknown or inactive course
 * is a 404, a second enrolment in the same course a 409 (createEnrollment, as the enrol page).
 */
const handle = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const input = parseInput(enrollmentRequest, await readJsonBody(request));
    const db = getDb();
    const created = await createEnrollment(db, { studentId: user.id, courseId: input.course_id, classId: input.class_id, actorId: user.id });
    const enrollment = (await listEnrollmentsForStudent(db, user.id)).find((e) => e.id === created.id)!;
    return apiJson<EnrollmentResponse>(enrollment, { status: 201, headers: { Location: "/api/enrollments/my" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
