import type { MetaFunction } from "@remix-run/node";
import { PageTitle } from "~/components/portal-shell";
import { CertificateCard } from "~/components/student/certificate-card";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useStudentData } from "~/components/student/student-data";
import { EmptyState } from "~/components/ui";

/** My Certificates: every certificate, from the layout's data (its loader guards the page). */
export default function StudentCertificates() {
  const { certificates } = useStudentData();
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
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Certificates | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
