import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/api/auth.server";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { type EnrollmentResponse } from "~/api/schemas";
import { getDb } from "~/db.server";
import { listEnrollmentsForStudent } from "~/models/student-enrollments.server";
import { acceptOffer } from "~/models/waitlist.server";
import { clientAddress } from "~/http/request-context.server";

/** POST /api/classes/{id}/accept: takes the seat the waitlist offered the caller → 201 with the enrolment. */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request);
    const db = getDb();
    const created = await acceptOffer(db, { classId: pathId(params, "Class"), studentId: user.id, client: clientAddress(request) });
    const enrollment = (await listEnrollmentsForStudent(db, user.id)).find((e) => e.id === created.id)!;
    return apiJson<EnrollmentResponse>(enrollment, { status: 201, headers: { Location: "/api/enrollments/my" } });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
