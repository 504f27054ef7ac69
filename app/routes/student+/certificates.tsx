import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { requireRole, getDb, recognisedUnitsOf } from "~/routes/student+/certificates.server";
import { formatDate } from "~/utils/format";
import { PageTitle } from "~/components/portal-shell";
import { CertificateCard } from "~/components/student/certificate-card";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useStudentData } from "~/components/student/student-data";
import { EmptyState, TitledCard } from "~/components/ui";

/** The record of results' recognised units: each unit granted by credit transfer or RPL, and how. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return { recognised: await recognisedUnitsOf(getDb(), user.id) };
}

/** My Certificates: every certificate, from the layout's data, and the units recognised by credit transfer or RPL. */
export default function StudentCertificates() {
  const { certificates } = useStudentData();
  const { recognised } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="My Certificates" subtitle="Your nationally recognised certificates of completion" />
      {certificates.length ? (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {certificates.map((c) => (
            <li key={c.id} className="flex [&>*]:flex-1">
              <CertificateCard certificate={c} />
            </li>
          ))}
        </ul>
      ) : (
        <EmptyState title="No Certificates Yet">Complete a course to earn your first certificate.</EmptyState>
      )}
      {recognised.length ? (
        <TitledCard title="Record of results: units recognised" className="mt-6">
          <p className="mb-2 text-sm text-steel-600">
            A unit credited from another RTO&apos;s document has no statement of attainment from us: that RTO&apos;s document stands.
          </p>
          <ul className="divide-y divide-steel-100 text-sm" aria-label="Units recognised">
            {recognised.map((u) => (
              <li key={u.enrollment_id} className="py-2">
                <span className="font-semibold">{u.unit_code}</span>: {u.how}, granted {formatDate(u.decided_on)}
              </li>
            ))}
          </ul>
        </TitledCard>
      ) : null}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Certificates | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
