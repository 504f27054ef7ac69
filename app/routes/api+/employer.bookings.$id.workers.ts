import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { addWorkersRequest, type BookingResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, parseInput, pathId, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { invitationLink } from "~/utils/public-link.server";
import { getBooking } from "~/models/employers/employer-view.server";
import { addWorkers } from "~/models/employers/group-booking.server";

/** POST /api/employer/bookings/{id}/workers → name more workers, up to the seats held (more is a 422); each is mailed an invitation. Answers the booking (201). */
const handle = apiRoute({
  POST: async ({ request, params }) => {
    const user = await requireApiUser(request, "employer");
    const id = pathId(params, "Booking");
    const input = parseInput(addWorkersRequest, await readJsonBody(request));
    const db = getDb();
    await addWorkers(db, { user, bookingId: id, workers: input.workers, client: clientAddress(request), link: (token) => invitationLink(request, token) });
    const { workerList, ...summary } = await getBooking(db, user, id);
    return apiJson<BookingResponse>({ ...summary, worker_list: workerList }, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
