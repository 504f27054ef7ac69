import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  readOrRefuse,
  requireRole,
  getDb,
  clientAddress,
  invitationLink,
  getEmployer,
  inviteEmployerUser,
  listEmployerUsers,
  updateEmployer,
  redirectWithFlash,
  answerForm,
  formIntent,
} from "~/routes/admin+/employers_.$id.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { EmployerFields } from "~/components/employer/employer-fields";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, Card, ErrorSummary, SubmitButton, TextField, TitledCard } from "~/components/ui";
import { employerSchema, employerUserInviteSchema } from "~/schemas/employer";
import { EMPLOYER_SAVED, EMPLOYER_USER_INVITED } from "~/schemas/employer-text";
import { formatAbn } from "~/utils/abn";
import { formatDateTime } from "~/utils/format";

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const employer = await readOrRefuse(() => getEmployer(db, params.id ?? ""));
  return { employer, users: await listEmployerUsers(db, employer.id) };
}

/** Save the employer (intent=save) or invite a user of it (intent=invite). */
export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const db = getDb();
  const employer = await readOrRefuse(() => getEmployer(db, params.id ?? ""));
  const actor = { id: admin.id, client: clientAddress(request) };
  const here = `/admin/employers/${employer.id}`;
  const intent = await formIntent(request);
  if (intent === "invite") {
    return answerForm(request, {
      schema: employerUserInviteSchema,
      requires: ["full_name", "email"],
      unreadable: "Failed to send the invitation",
      save: async (input) => {
        await inviteEmployerUser(db, { ...input, employerId: employer.id, actor, link: (token) => invitationLink(request, token, "/employer-invitation") });
        return redirectWithFlash(here, { type: "success", message: EMPLOYER_USER_INVITED });
      },
    });
  }
  return answerForm(request, {
    schema: employerSchema,
    requires: ["name", "abn"],
    unreadable: "Failed to save the employer",
    save: async (input) => {
      await updateEmployer(db, employer.id, input, actor);
      return redirectWithFlash(here, { type: "success", message: EMPLOYER_SAVED });
    },
  });
}

export default function EmployerPage() {
  const { employer, users } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const inviting = data?.values && "full_name" in data.values;
  return (
    <>
      <PageTitle title={employer.name} subtitle={`ABN ${formatAbn(employer.abn)}`} />
      <TitledCard title="Users">
        {users.length === 0 ? (
          <p className="text-sm text-steel-700">No users yet: invite the person who books for this organisation.</p>
        ) : (
          <ul className="divide-y divide-steel-100 text-sm">
            {users.map((u) => (
              <li key={u.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span>
                  <span className="font-semibold">{u.full_name}</span> <span className="text-steel-700">{u.email}</span>
                </span>
                {u.active ? (
                  <Badge tone="green">{u.last_login ? `Last signed in ${formatDateTime(u.last_login)}` : "Password set"}</Badge>
                ) : (
                  <Badge tone="amber">Invited</Badge>
                )}
              </li>
            ))}
          </ul>
        )}
        <Form method="post" noValidate className="mt-4 space-y-4" key={inviting ? data?.submittedAt : "invite"}>
          {inviting ? <ErrorSummary failure={data} /> : null}
          <input type="hidden" name="intent" value="invite" />
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Full name"
              name="full_name"
              required
              defaultValue={inviting ? (data?.values.full_name ?? "") : ""}
              error={inviting ? data?.fieldErrors?.full_name : undefined}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              required
              defaultValue={inviting ? (data?.values.email ?? "") : ""}
              error={inviting ? data?.fieldErrors?.email : undefined}
            />
          </div>
          <div className="flex justify-end">
            <SubmitButton busyLabel="Inviting...">Invite user</SubmitButton>
          </div>
        </Form>
      </TitledCard>
      <Card className="mt-6 p-4">
        <h2 className="mb-4 text-lg font-semibold">Organisation and billing</h2>
        <Form method="post" noValidate className="space-y-4" key={!inviting ? (data?.submittedAt ?? "save") : "save"}>
          {!inviting ? <ErrorSummary failure={data} /> : null}
          <input type="hidden" name="intent" value="save" />
          <EmployerFields values={!inviting && data?.values ? data.values : employer} errors={!inviting ? (data?.fieldErrors ?? {}) : {}} />
          <div className="flex justify-end">
            <SubmitButton busyLabel="Saving...">Save employer</SubmitButton>
          </div>
        </Form>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Employer | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Employer" message="Failed to load the employer" />;
}
