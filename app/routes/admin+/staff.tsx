import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  listStaff,
  setStaffActive,
  resetTwoStep,
  listAccreditationsByTrainer,
  redirectWithFlash,
  clientAddress,
  providerSettings,
  setRequireSsoForStaff,
  signInSettings,
  answerForm,
  formIntent,
  type FailedForm,
} from "~/routes/admin+/staff.server";
import { RouteError } from "~/components/route-error";
import { RowActionButton } from "~/components/admin/row-action-button";
import { PageTitle } from "~/components/portal-shell";
import { ActiveBadge } from "~/components/status-badges";
import { Card, ConfirmAction, EmptyState, SubmitButton, TitledCard } from "~/components/ui";
import { staffToggleSchema, staffTwoStepResetSchema } from "~/schemas/page-queries";
import { hrwDate } from "~/schemas/hrw-codes";
import { confirmationAnswer, requestConfirmed } from "~/utils/confirm";
import { signInSettingsSchema } from "~/schemas/sign-in-settings";

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const [staff, accreditations, signIn] = await Promise.all([listStaff(getDb()), listAccreditationsByTrainer(getDb()), signInSettings(getDb())]);
  // each trainer's HRW accreditations, in brief; the register page (/admin/staff/{id}/hrw) edits them
  const hrw = Object.fromEntries(
    [...accreditations].map(([id, list]) => [id, list.map((a) => `${a.regulator} ${a.classes.join(" ")} to ${hrwDate(a.expires_on)}`).join("; ")]),
  );
  // staff single sign-on: shown when a provider is configured
  const provider = providerSettings()?.name ?? null;
  return { staff, me: admin.id, hrw, sso: provider ? { provider, required: signIn.require_sso_for_staff } : null };
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const client = clientAddress(request);
  const confirmed = await requestConfirmed(request);
  // the page's buttons have no fields to show a message beside, so a failure is a flash on the
  // list: the model's message when it refused, else the button's own
  const failed =
    (unreadable: string) =>
    ({ message, refusal }: FailedForm) =>
      redirectWithFlash("/admin/staff", { type: "error", message: refusal ? message : unreadable });
  switch (await formIntent(request)) {
    case "reset-two-step":
      return answerForm(request, {
        schema: staffTwoStepResetSchema,
        failed: failed("Failed to reset two-step sign-in"),
        save: async ({ user_id }) => {
          await resetTwoStep(getDb(), { userId: user_id, actor: { id: admin.id, client, role: admin.role } });
          return redirectWithFlash("/admin/staff", { type: "success", message: "Two-step sign-in was reset; they set it up again at their next sign-in" });
        },
      });
    case "require-sso":
      return answerForm(request, {
        schema: signInSettingsSchema,
        failed: failed("Failed to change how staff sign in"),
        save: async ({ require_sso_for_staff: required }) => {
          // requiring single sign-on stops staff passwords (the break-glass administrator's
          // excepted), so turning it on is asked twice; turning it off is not
          if (required && !confirmed) return confirmationAnswer("require-sso");
          await setRequireSsoForStaff(getDb(), { required, provider: providerSettings()?.name ?? null, actor: { id: admin.id, client } });
          return redirectWithFlash("/admin/staff", {
            type: "success",
            message: required ? "Staff now sign in with single sign-on; their passwords no longer work" : "Staff may sign in with their passwords again",
          });
        },
      });
    default:
      return answerForm(request, {
        schema: staffToggleSchema,
        failed: failed("Failed to update the account"),
        save: async ({ user_id, is_active }) => {
          // deactivating is asked twice: the first post answers with the question (the page without JavaScript)
          if (!is_active && !confirmed) return { ...confirmationAnswer("deactivate"), user_id };
          const user = await setStaffActive(getDb(), { id: user_id, active: is_active, actorId: admin.id, client });
          return redirectWithFlash("/admin/staff", {
            type: "success",
            message: user.is_active ? `${user.full_name}'s account was reactivated` : `${user.full_name}'s account was deactivated`,
          });
        },
      });
  }
}

function RequireSso({ provider, required, confirming }: { provider: string; required: boolean; confirming: boolean }) {
  return (
    <TitledCard title="Single sign-on">
      <div className="space-y-3 text-sm text-steel-800">
        <p>
          {required
            ? `Trainers and administrators sign in with ${provider}; their portal passwords do not work. The administrator made with npm run admin:create keeps a password for emergencies.`
            : `Trainers and administrators may sign in with ${provider} or with their password.`}
        </p>
        {required ? (
          <Form method="post" action="/admin/staff">
            <input type="hidden" name="require_sso_for_staff" value="false" />
            <SubmitButton intent="require-sso" variant="secondary" busyLabel="Saving...">
              Allow staff passwords again
            </SubmitButton>
          </Form>
        ) : (
          <ConfirmAction
            intent="require-sso"
            fields={{ require_sso_for_staff: "true" }}
            trigger={`Require sign-in with ${provider}`}
            title={`Require staff to sign in with ${provider}?`}
            confirmLabel="Yes, require it"
            busyLabel="Saving..."
            keepLabel="Keep passwords"
            confirming={confirming}
          >
            <p>{`Every trainer and administrator must then sign in with ${provider}: their portal passwords stop working at once. The administrator made with npm run admin:create keeps a password for emergencies.`}</p>
          </ConfirmAction>
        )}
      </div>
    </TitledCard>
  );
}

/** Deactivating a staff account, asked twice: it names whose account and what they lose. */
function DeactivateAccount({ who, confirming }: { who: { id: string; full_name: string; role: string }; confirming: boolean }) {
  return (
    <ConfirmAction
      intent="toggle"
      fields={{ user_id: who.id, is_active: "false" }}
      trigger="Deactivate"
      triggerLabel={`Deactivate ${who.full_name}`}
      triggerVariant="secondary"
      triggerSize="sm"
      title={`Deactivate ${who.full_name}'s account?`}
      confirmLabel="Yes, deactivate"
      busyLabel="Updating..."
      keepLabel="Keep the account"
      confirming={confirming}
    >
      <p>{`${who.full_name} (${who.role}) can no longer sign in, and is signed out everywhere. Their records stay; you can reactivate the account later.`}</p>
    </ConfirmAction>
  );
}

export default function StaffManagement() {
  const { staff, me, hrw, sso } = useLoaderData<typeof loader>();
  const asked = useActionData<typeof action>();
  const confirmFor = asked && "confirm" in asked && "user_id" in asked ? staff.find((s) => s.id === asked.user_id) : undefined;
  const confirmingSso = Boolean(asked && "confirm" in asked && asked.confirm === "require-sso");
  return (
    <>
      <PageTitle title="Staff" subtitle="Trainers and administrators: switch an account off, and on again" />
      {confirmFor ? (
        <div className="mb-4">
          <DeactivateAccount who={confirmFor} confirming />
        </div>
      ) : null}
      {sso ? (
        <div className="mb-4">
          <RequireSso provider={sso.provider} required={sso.required} confirming={confirmingSso} />
        </div>
      ) : null}
      {staff.length === 0 ? (
        <EmptyState title="No staff accounts" />
      ) : (
        <Card>
          <table className="table-stack w-full text-left text-sm">
            <caption className="sr-only">Trainers and administrators</caption>
            <thead className="bg-steel-50 text-steel-700">
              <tr>
                <th scope="col" className="px-4 py-2">
                  Name
                </th>
                <th scope="col" className="px-4 py-2">
                  Email
                </th>
                <th scope="col" className="px-4 py-2">
                  Role
                </th>
                <th scope="col" className="px-4 py-2">
                  Status
                </th>
                <th scope="col" className="px-4 py-2">
                  Two-step sign-in
                </th>
                <th scope="col" className="px-4 py-2">
                  <span className="sr-only">Action</span>
                </th>
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
                  <td className="break-all px-4 py-2" data-label="Email">
                    {s.email}
                  </td>
                  <td className="px-4 py-2" data-label="Role">
                    {s.role === "admin" ? "Administrator" : "Trainer"}
                  </td>
                  <td className="px-4 py-2" data-label="Status">
                    <ActiveBadge active={s.is_active} />
                  </td>
                  <td className="px-4 py-2" data-label="Two-step sign-in">
                    {s.two_step ? "On" : "Off"}
                    {s.two_step && s.id !== me ? (
                      <Form method="post" action="/admin/staff" preventScrollReset className="mt-1">
                        <input type="hidden" name="user_id" value={s.id} />
                        <RowActionButton
                          intent="reset-two-step"
                          recordField="user_id"
                          recordId={s.id}
                          variant="secondary"
                          busyLabel="Resetting..."
                          aria-label={`Reset two-step sign-in of ${s.full_name}`}
                        >
                          Reset
                        </RowActionButton>
                      </Form>
                    ) : null}
                  </td>
                  <td className="px-4 py-2 sm:text-right">
                    {s.id === me ? (
                      <span className="text-steel-600">You</span>
                    ) : s.is_active ? (
                      <DeactivateAccount who={s} confirming={false} />
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
