import { apiJson, apiRoute, parseInput, readJsonBody } from "~/api/http.server";
import { hrwBookingRequest } from "~/api/hrw-schemas";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { bookAssessment, getHrwAssessment } from "~/models/hrw/hrw-assessment.server";
import { clientAddress } from "~/http/request-context.server";

/** POST /api/hrw/assessments: books an assessment, with the booking page's schema and model. */
const route = apiRoute({
  POST: async ({ request }) => {
    const trainer = await requireApiUser(request, "trainer");
    const input = parseInput(hrwBookingRequest, await readJsonBody(request));
    const db = getDb();
    const { id } = await bookAssessment(db, input, { id: trainer.id, client: clientAddress(request) });
    return apiJson((await getHrwAssessment(db, id))!, { status: 201 });
  },
});
export const loader = route;
export const action = route;
