import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/auth-layout";
import { RouteError } from "~/components/route-error";
import { ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import {
  getDb,
  readOrRefuse,
  acceptEmployerInvitation,
  employerInvitationFor,
  redirectWithFlash,
  answerForm,
} from "~/routes/_auth+/employer-invitation.$token.server";
import { invitationPasswordSchema } from "~/schemas/employer";
import { EMPLOYER_PASSWORD_SET } from "~/schemas/employer-text";
import { passwordRule } from "~/schemas/password-text";
import { secretPageHeaders, secretPageMeta } from "~/utils/secret-page";

export async function loader({ params }: LoaderFunctionArgs) {
  // a link that is not one (or was spent) answers 404 with its reason, not a server error
  const invitation = await readOrRefuse(() => employerInvitationFor(getDb(), params.token ?? ""));
  return { full_name: invitation.full_name, employer: invitation.employer };
}

/** The invited employer's user chooses their password; the link is spent. */
export async function action({ request, params }: ActionFunctionArgs) {
  return answerForm(request, {
    schema: invitationPasswordSchema,
    requires: ["password", "confirm_password"],
    unreadable: "Failed to set the password",
    save: async (input) => {
      await acceptEmployerInvitation(getDb(), { token: params.token ?? "", password: input.password });
      return redirectWithFlash("/login", { type: "success", message: EMPLOYER_PASSWORD_SET });
    },
  });
}

export default function EmployerInvitation() {
  const { full_name, employer } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  return (
    <AuthLayout title={`Welcome, ${full_name}`} subtitle={`Choose a password for your ${employer} account`}>
      <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint={passwordRule("employer")}
          error={data?.fieldErrors?.password}
        />
        <TextField
          label="Confirm password"
          name="confirm_password"
          type="password"
          autoComplete="new-password"
          required
          error={data?.fieldErrors?.confirm_password}
        />
        <SubmitButton busyLabel="Saving...">Set password</SubmitButton>
      </Form>
    </AuthLayout>
  );
}

export const headers = secretPageHeaders;

export const meta: MetaFunction = () => [{ title: "Your employer account | Summit Crane & Rigging Training" }, ...secretPageMeta];

export function ErrorBoundary() {
  return <RouteError title="Invitation" message="This invitation link is not valid, has expired or was used" />;
}
