import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { bookingRequest, type BookingListResponse, type BookingResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, idempotencyOf, parseInput, readJsonBody } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { clientAddress } from "~/http/request-context.server";
import { invitationLink } from "~/utils/public-link.server";
import { getBooking, listBookings } from "~/models/employers/employer-view.server";
import { createBooking } from "~/models/employers/group-booking.server";

/**
 * GET /api/employer/bookings → the caller's organisation's bookings; POST → book seats in a class
 * and name the workers known now (201; a class without the seats is a 409). Employers' users.
 */
const handle = apiRoute({
  GET: async ({ request }) => {
    const user = await requireApiUser(request, "employer");
    return apiJson<BookingListResponse>({ bookings: await listBookings(getDb(), user) });
  },
  POST: async ({ request }) => {
    const user = await requireApiUser(request, "employer");
    const input = parseInput(bookingRequest, await readJsonBody(request));
    const db = getDb();
    const booking = await createBooking(db, {
      ...input,
      once: idempotencyOf(request),
      user,
      client: clientAddress(request),
      link: (token) => invitationLink(request, token),
    });
    const { workerList, ...summary } = await getBooking(db, user, booking.id);
    return apiJson<BookingResponse>({ ...summary, worker_list: workerList }, 201);
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
