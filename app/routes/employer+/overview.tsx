import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, employerOfUser, listBookings, listWorkers, upcomingDeadlines } from "~/routes/employer+/overview.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { ButtonLink, Card, EmptyState, TableScroll, TAP_LINK, TitledCard } from "~/components/ui";
import { classDates } from "~/schemas/class-text";
import { CONSENT_LABELS, WORKER_STATE_LABELS } from "~/schemas/employer-text";
import { formatDate, plural } from "~/utils/format";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "employer");
  const db = getDb();
  const [employer, bookings, workers] = await Promise.all([employerOfUser(db, user), listBookings(db, user), listWorkers(db, user)]);
  return { employer: { name: employer.name }, bookings, workers, deadlines: upcomingDeadlines(workers) };
}

export default function EmployerOverview() {
  const { employer, bookings, workers, deadlines } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title={employer.name} subtitle="Your bookings, your workers and their licence deadlines" />
      <div className="mb-6 flex flex-wrap gap-3">
        <ButtonLink to="/employer/bookings/new">Book seats</ButtonLink>
        <ButtonLink to="/employer/workers.csv" variant="secondary" reloadDocument>
          Download workers (CSV)
        </ButtonLink>
      </div>
      <TitledCard title="Bookings">
        {bookings.length === 0 ? (
          <EmptyState title="No bookings yet">Book seats in a class and name the workers who will take them.</EmptyState>
        ) : (
          <ul className="divide-y divide-steel-100 text-sm">
            {bookings.map((b) => (
              <li key={b.id} className="py-3">
                <Link to={`/employer/bookings/${b.id}`} className={`${TAP_LINK} font-semibold text-hivis-800 underline-offset-4 hover:underline`}>
                  {b.course}, {classDates(b.start_date, b.end_date)}
                </Link>
                <p className="text-steel-700">
                  {plural(b.seats, "seat")} held, {b.workers} named, {b.accepted} accepted.{" "}
                  {b.released ? "Unfilled seats were released." : `Unfilled seats are released on ${formatDate(b.release_on)}.`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </TitledCard>
      <TitledCard title="Upcoming licence deadlines" className="mt-6">
        {deadlines.length === 0 ? (
          <p className="text-sm text-steel-700">No licence applications due for workers who share their results.</p>
        ) : (
          <ul className="text-sm">
            {deadlines.map((d) => (
              <li key={`${d.worker_id}-${d.licence_class}`}>
                {d.full_name}: apply for the {d.licence_class} licence {d.apply_where} by {formatDate(d.deadline)}
              </li>
            ))}
          </ul>
        )}
      </TitledCard>
      <Card className="mt-6">
        <h2 className="px-4 pt-4 text-lg font-semibold">Workers</h2>
        {workers.length === 0 ? (
          <p className="p-4 text-sm text-steel-700">No workers named yet.</p>
        ) : (
          <TableScroll label="Workers">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Workers</caption>
              <thead className="bg-steel-50 text-steel-700">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    Worker
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Course
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Class dates
                  </th>
                  <th scope="col" className="px-4 py-2">
                    State
                  </th>
                  <th scope="col" className="px-4 py-2">
                    Results
                  </th>
                </tr>
              </thead>
              <tbody>
                {workers.map((w) => (
                  <tr key={w.id} className="border-t border-steel-100">
                    <th scope="row" className="px-4 py-2 font-semibold">
                      <Link to={`/employer/workers/${w.id}`} className="text-hivis-800 underline-offset-4 hover:underline">
                        {w.full_name}
                      </Link>
                    </th>
                    <td className="px-4 py-2">{w.course}</td>
                    <td className="px-4 py-2">{classDates(w.start_date, w.end_date)}</td>
                    <td className="px-4 py-2">{WORKER_STATE_LABELS[w.state]}</td>
                    <td className="px-4 py-2">{CONSENT_LABELS[w.consent]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Employer Portal | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Employer Portal" message="Failed to load your bookings" />;
}
