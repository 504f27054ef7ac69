import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireRole, getDb, credentialMatrixPage, searchedListQuery, expiringCredentials, MATRIX_TRAINERS_PER_PAGE } from "~/routes/admin+/credentials.server";
import { PageTitle } from "~/components/portal-shell";
import { LiveSearchForm } from "~/components/trainer/live-search";
import { RouteError } from "~/components/route-error";
import { CredentialMatrixTable } from "~/components/standards/credential-ui";
import { EmptyState, Pagination, TitledCard } from "~/components/ui";
import { CREDENTIAL_WARNING_DAYS } from "~/schemas/standards-text";
import { formatDate } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";

/** The credential matrix (active courses by active trainers) and what expires soon. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const today = organisationToday();
  const params = new URL(request.url).searchParams;
  const query = searchedListQuery.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
  const [shown, expiring] = await Promise.all([
    credentialMatrixPage(getDb(), today, { page: query.page, search: query.q }),
    expiringCredentials(getDb(), today),
  ]);
  return { ...shown, q: query.q, pageSize: MATRIX_TRAINERS_PER_PAGE, expiring };
}

export default function CredentialsPage() {
  const { matrix, q, page, pageCount, pageSize, trainerCount, expiring } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <PageTitle title="Trainer credentials" subtitle="Who may train and assess each course's unit today: held, expiring or missing" />
      <div className="grid gap-6">
        <TitledCard title="Credential matrix">
          <div className="mb-4">
            <LiveSearchForm action="/admin/credentials" label="Find a trainer" placeholder="Trainer's name" value={q} />
          </div>
          {matrix.trainers.length === 0 ? (
            <EmptyState title={q ? `No active trainer's name holds "${q}"` : "No active trainers"} />
          ) : (
            <CredentialMatrixTable matrix={matrix} />
          )}
          <ul className="mt-4 space-y-1 text-sm">
            {matrix.trainers.map((t) => (
              <li key={t.id}>
                <Link to={`/admin/credentials/${t.id}`} className="font-semibold underline">
                  {t.full_name}
                </Link>
                : {t.standing ?? t.credential}
              </li>
            ))}
          </ul>
          {pageCount > 1 ? (
            <Pagination
              label="Trainers"
              one="trainer"
              page={page}
              pageCount={pageCount}
              pageSize={pageSize}
              total={trainerCount}
              pathname="/admin/credentials"
              search={location.search}
            />
          ) : null}
        </TitledCard>
        <TitledCard title={`Expiring within ${CREDENTIAL_WARNING_DAYS} days or lately expired (${expiring.length})`}>
          {expiring.length === 0 ? (
            <p className="text-sm">Nothing expires soon.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {expiring.map((e) => (
                <li key={`${e.trainer.id}-${e.what}`}>
                  <Link to={`/admin/credentials/${e.trainer.id}`} className="underline">
                    {e.trainer.full_name}
                  </Link>
                  : {e.what}, {e.expires_on < matrix.today ? "expired" : "expires"} {formatDate(e.expires_on)}
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Trainer credentials | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Trainer credentials" message="Failed to load the credential matrix" />;
}
