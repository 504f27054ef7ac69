import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import type { BookingResponse } from "~/api/employer-schemas";
import { apiJson, apiRoute, pathId } from "~/api/http.server";
import { requireApiUser } from "~/api/auth.server";
import { getDb } from "~/db.server";
import { getBooking } from "~/models/employers/employer-view.server";

/** GET /api/employer/bookings/{id} → one booking of the caller's organisation with its workers (another's is a 404). Employers' users. */
const handle = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiUser(request, "employer");
    const { workerList, ...summary } = await getBooking(getDb(), user, pathId(params, "Booking"));
    return apiJson<BookingResponse>({ ...summary, worker_list: workerList });
  },
});

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
