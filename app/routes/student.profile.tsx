import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { StudentPageErrorBoundary } from "~/components/student/load-error";
import { ButtonLink, Card } from "~/components/ui";
import { formatDate, formatDateTime, ROLE_LABELS } from "~/utils/format";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return json({ user });
}

const NOT_PROVIDED = "Not provided";

/** My Profile: the account's fields, read-only; Edit Profile opens its form over the page. */
export default function StudentProfile() {
  const { user } = useLoaderData<typeof loader>();
  const fields: Array<[string, string]> = [
    ["Full Name", user.full_name],
    ["Email", user.email],
    ["Phone", user.phone || NOT_PROVIDED],
    ["Address", user.address || NOT_PROVIDED],
    ["Date of Birth", formatDate(user.date_of_birth, NOT_PROVIDED)],
    ["Emergency Contact", user.emergency_contact || NOT_PROVIDED],
    ["Licence Number", user.license_number || NOT_PROVIDED],
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
        <p className="mt-6 text-sm text-steel-600">
          To change your name, email, date of birth or licence number, please contact the training office.
        </p>
      </Card>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Profile | Summit Crane & Rigging Training" }];

export const ErrorBoundary = StudentPageErrorBoundary;
