import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole, getDb, listTrainerClasses } from "~/routes/trainer+/classes._index.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { Badge, ButtonLink, Card, EmptyState } from "~/components/ui";
import { classDates } from "~/schemas/class-text";
import { plural } from "~/utils/format";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return { classes: await listTrainerClasses(getDb(), user) };
}

export default function TrainerClasses() {
  const { classes } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="My Classes"
        subtitle="Classes you teach: today's first, then the coming ones, then the past"
        actions={
          <ButtonLink to="/trainer/calendar" variant="secondary">
            Calendar feed
          </ButtonLink>
        }
      />
      <Card className="p-4 sm:p-5">
        {classes.length === 0 ? (
          <EmptyState title="No classes">Classes an administrator gives you appear here with their rosters.</EmptyState>
        ) : (
          <ul className="divide-y divide-steel-100">
            {classes.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <p className="font-semibold text-steel-900">
                    <Link to={`/trainer/classes/${c.id}`} className="underline-offset-4 hover:underline">
                      {`${c.unit_code} ${c.course_name}`}
                    </Link>
                  </p>
                  <p className="text-sm text-steel-600">
                    {[classDates(c.start_date, c.end_date), c.location, plural(c.learners, "learner")].filter(Boolean).join(" · ")}
                  </p>
                </div>
                {c.runs_today ? <Badge tone="green">Today</Badge> : c.past ? <Badge tone="grey">Past</Badge> : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Classes | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="My Classes" message="Failed to load your classes" />;
}
