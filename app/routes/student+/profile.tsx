import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  ownRecord,
  learnerDocumentUrl,
  listLearnerDocuments,
  getDb,
  enrollmentDetailRows,
  getAvetmissDetails,
} from "~/routes/student+/profile.server";
import { EnrollmentDetailsList } from "~/components/student/enrollment-details";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { buttonClasses, ButtonLink, Card } from "~/components/ui";
import { formatDate, formatDateTime, ROLE_LABELS } from "~/utils/format";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const [details, documents] = await Promise.all([getAvetmissDetails(getDb(), user.id), listLearnerDocuments(getDb(), user.id)]);
  return {
    user: ownRecord(user),
    // the details as the lines the page shows: the labels of their codes are made here, so the
    // page's scripts carry no code lists
    detailRows: enrollmentDetailRows(details!, user.date_of_birth),
    // the documents the office keeps on the learner's record (White Card, photo ID), to download
    documents: documents.map((d) => ({
      id: d.id,
      filename: d.filename,
      description: d.description,
      upload_date: d.upload_date,
      url: d.sha256 ? learnerDocumentUrl(d.id) : null,
    })),
  };
}

const NOT_PROVIDED = "Not provided";

/** My Profile: the account's fields, read-only; Edit Profile opens its form over the page. */
export default function StudentProfile() {
  const { user, detailRows, documents } = useLoaderData<typeof loader>();
  const fields: Array<[string, string]> = [
    ["Full Name", user.full_name],
    ["Student no.", user.student_number ?? NOT_PROVIDED],
    ["Email", user.email],
    ["Phone", user.phone || NOT_PROVIDED],
    ["Address", user.address || NOT_PROVIDED],
    ["Date of Birth", formatDate(user.date_of_birth, NOT_PROVIDED)],
    ["Emergency Contact", user.emergency_contact || NOT_PROVIDED],
    ["Licence Number", user.license_number || NOT_PROVIDED],
    ["USI", user.usi ? `${user.usi} (${user.usi_verified_at ? "verified" : "not yet verified"})` : NOT_PROVIDED],
    ["Role", ROLE_LABELS[user.role]],
    ["Account Status", user.is_active ? "Active" : "Inactive"],
    ["Member Since", formatDate(user.created_at, "Unknown")],
    ["Last Login", formatDateTime(user.last_login, "Never")],
  ];
  return (
    <>
      <PageTitle
        title="My Profile"
        subtitle="Your personal and contact details"
        actions={
          <ButtonLink to="/student/profile/edit" preventScrollReset>
            Edit Profile
          </ButtonLink>
        }
      />
      <Card className="p-5 sm:p-6">
        <dl className="grid gap-x-8 gap-y-5 sm:grid-cols-2">
          {fields.map(([label, value]) => (
            <div key={label}>
              <dt className="text-sm font-medium text-steel-500">{label}</dt>
              <dd className={value === NOT_PROVIDED ? "mt-1 italic text-steel-500" : "mt-1 break-words font-semibold text-steel-900"}>{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-6 text-sm text-steel-600">To change your name, email or licence number, please contact the training office.</p>
      </Card>
      <Card className="mt-6 p-5 sm:p-6">
        <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 className="text-lg font-bold text-steel-900">My enrolment details</h2>
            <p className="text-sm text-steel-600">
              The national VET data collection (AVETMISS) asks every registered training organisation for these. Every question is optional.
            </p>
          </div>
          <ButtonLink to="/student/profile/enrollment" variant="secondary" preventScrollReset>
            Edit enrolment details
          </ButtonLink>
        </div>
        <EnrollmentDetailsList rows={detailRows} />
      </Card>
      <Card className="mt-6 p-5 sm:p-6">
        <h2 className="text-lg font-bold text-steel-900">My documents</h2>
        <p className="text-sm text-steel-600">The documents the training office keeps on your record. To add one, bring or send it to the office.</p>
        {documents.length === 0 ? (
          <p className="mt-3 text-sm text-steel-600">No documents on your record yet</p>
        ) : (
          <ul className="mt-3 divide-y divide-steel-100">
            {documents.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <p className="break-words text-sm font-semibold text-steel-900">{d.description ?? d.filename}</p>
                  <p className="break-words text-xs text-steel-600">
                    {d.filename} · Added {formatDate(d.upload_date)}
                  </p>
                </div>
                {d.url ? (
                  <a href={d.url} download className={buttonClasses("secondary", "sm")}>
                    Download<span className="sr-only"> {d.filename}</span>
                  </a>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Profile | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
