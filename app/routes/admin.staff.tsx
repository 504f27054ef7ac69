import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { RouteError } from "~/components/route-error";
import { RowActionButton } from "~/components/admin/row-action-button";
import { PageTitle } from "~/components/portal-shell";
import { ActiveBadge } from "~/components/status-badges";
import { Card, EmptyState } from "~/components/ui";
import { getDb } from "~/db.server";
import { listStaff, setStaffActive } from "~/models/staff.server";
import { listAccreditationsByTrainer } from "~/models/hrw-register.server";
import { staffToggleSchema } from "~/schemas/page-queries";
import { isDomainError } from "~/utils/errors";
import { redirectWithFlash } from "~/utils/flash.server";
import { parseWith } from "~/utils/validation";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const [staff, accreditations] = await Promise.all([listStaff(getDb()), listAccreditationsByTrainer(getDb())]);
  // each trainer's HRW accreditations, in brief; the register page (/admin/staff/{id}/hrw) edits them
  const hrw = Object.fromEntries([...accreditations].map(([id, list]) => [id, list.map((a) => `${a.regulator} ${a.classes.join(" ")} to ${a.expires_on}`).join("; ")]));
  return json({ staff, me: admin.id, hrw });
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const form = await request.formData().catch(() => null);
  const parsed = parseWith(staffToggleSchema, form ? Object.fromEntries(form) : {});
  if (!parsed.success) return redirectWithFlash("/admin/staff", { type: "error", message: "Failed to update the account" });
  try {
    const user = await setStaffActive(getDb(), { id: parsed.data.user_id, active: parsed.data.is_active, actorId: admin.id });
    return redirectWithFlash("/admin/staff", {
      type: "success",
      message: user.is_active ? `${user.full_name}'s account was reactivated` : `${user.full_name}'s account was deactivated`,
    });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return redirectWithFlash("/admin/staff", { type: "error", message: error.message });
  }
}

export default function StaffManagement() {
  const { staff, me, hrw } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle title="Staff" subtitle="Trainers and administrators: switch an account off, and on again" />
      {staff.length === 0 ? (
        <EmptyState title="No staff accounts" />
      ) : (
        <Card className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Trainers and administrators</caption>
            <thead className="bg-steel-50 text-steel-700">
              <tr>
                <th scope="col" className="px-4 py-2">Name</th>
                <th scope="col" className="px-4 py-2">Email</th>
                <th scope="col" className="px-4 py-2">Role</th>
                <th scope="col" className="px-4 py-2">Status</th>
                <th scope="col" className="px-4 py-2"><span className="sr-only">Action</span></th>
              </tr>
            </thead>
            <tbody>
              {staff.map((s) => (
                <tr key={s.id} className="border-t border-steel-100">
                  <th scope="row" className="px-4 py-2 font-semibold text-steel-900">
                    {s.full_name}
                    {s.role === "trainer" ? (
                      <span className="block text-xs font-normal text-steel-700">
                        {hrw[s.id] ? `HRW: ${hrw[s.id]}. ` : null}
                        <Link to={`/admin/staff/${s.id}/hrw`} className="underline" aria-label={`Assessor register of ${s.full_name}`}>
                          Assessor register
                        </Link>
                      </span>
                    ) : null}
                  </th>
                  <td className="px-4 py-2">{s.email}</td>
                  <td className="px-4 py-2">{s.role === "admin" ? "Administrator" : "Trainer"}</td>
                  <td className="px-4 py-2"><ActiveBadge active={s.is_active} /></td>
                  <td className="px-4 py-2 text-right">
                    {s.id === me ? (
                      <span className="text-steel-600">You</span>
                    ) : (
                      <Form method="post" action="/admin/staff" preventScrollReset>
                        <input type="hidden" name="user_id" value={s.id} />
                        <input type="hidden" name="is_active" value={s.is_active ? "false" : "true"} />
                        <RowActionButton
                          intent="toggle"
                          recordField="user_id"
                          recordId={s.id}
                          variant={s.is_active ? "secondary" : "primary"}
                          busyLabel="Updating..."
                          aria-label={`${s.is_active ? "Deactivate" : "Reactivate"} ${s.full_name}`}
                        >
                          {s.is_active ? "Deactivate" : "Reactivate"}
                        </RowActionButton>
                      </Form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Staff | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Staff" message="Failed to load staff accounts" />;
}
