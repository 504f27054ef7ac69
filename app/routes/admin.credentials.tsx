import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { requireRole, getDb, credentialMatrixPage, expiringCredentials, MATRIX_TRAINERS_PER_PAGE, pageQuery } from "./admin.credentials.server";
import { PageTitle } from "~/components/portal-shell";
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
  const { page } = pageQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [shown, expiring] = await Promise.all([credentialMatrixPage(getDb(), today, page), expiringCredentials(getDb(), today)]);
  return { ...shown, pageSize: MATRIX_TRAINERS_PER_PAGE, expiring };
}

export default function CredentialsPage() {
  const { matrix, page, pageCount, pageSize, trainerCount, expiring } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <PageTitle title="Trainer credentials" subtitle="Who may train and assess each course's unit today: held, expiring or missing" />
      <div className="grid gap-6">
        <TitledCard title="Credential matrix">
          {matrix.trainers.length === 0 ? <EmptyState title="No active trainers" /> : <CredentialMatrixTable matrix={matrix} />}
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
