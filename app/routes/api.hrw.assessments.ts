import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { hrwAssessmentResponse, hrwBookingRequest } from "~/api/hrw-schemas";
import { type ApiOperation, err, FORBIDDEN, INVALID, MALFORMED, TOO_LARGE, UNAUTHENTICATED, WRONG_TYPE } from "~/api/operation";
import { requireApiUser } from "~/auth/api.server";
import { getDb } from "~/db.server";
import { bookAssessment, getHrwAssessment } from "~/models/hrw-assessment.server";

/** POST /api/hrw/assessments: books an assessment, with the booking page's schema and model. */
const route = apiRoute({
  POST: async ({ request }) => {
    const trainer = await requireApiUser(request, "trainer");
    const input = parseInput(hrwBookingRequest, await readJsonBody(request));
    const db = getDb();
    const { id } = await bookAssessment(db, input, trainer.id);
    return apiJson((await getHrwAssessment(db, id))!, { status: 201 });
  },
});
export const loader = route;
export const action = route;

export const openapi: ApiOperation[] = [
  {
    method: "post",
    path: "/api/hrw/assessments",
    operationId: "bookHrwAssessment",
    summary: "Book an HRW licence assessment",
    description:
      "Trainers. Candidate, licence course, state, date (not in the past), start time, delivery location, assessor and plant. The regulator notice deadline comes from the state's lead time in business days.",
    tags: ["trainer"],
    access: "required",
    body: hrwBookingRequest,
    bodyRequired: true,
    responses: {
      201: { description: "Booked", schema: hrwAssessmentResponse },
      400: MALFORMED,
      401: UNAUTHENTICATED,
      403: FORBIDDEN,
      404: err("No course or location has this id"),
      409: err("The candidate's checks are incomplete (the detail names which), the course has no licence class, or the assessor or candidate is not active"),
      413: TOO_LARGE,
      415: WRONG_TYPE,
      422: INVALID,
    },
  },
];
