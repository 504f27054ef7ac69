import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PASSWORD_HINT } from "~/schemas/password-text";
import {
  data,
  destroySession,
  getDb,
  clientAddress,
  inspectResetToken,
  resetPassword,
  RESET_TOKEN_TTL_MINUTES,
  type ResetTokenProblem,
  redirectWithFlash,
  answerForm,
} from "~/routes/_auth+/reset-password.$token.server";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { Alert, ButtonLink, SubmitButton, TextField } from "~/components/ui";
import { passwordResetSchema } from "~/schemas/password-reset";
import { secretPageHeaders, secretPageMeta } from "~/utils/secret-page";

export const PASSWORD_RESET_DONE = "Your password has been reset. Please sign in with your new password.";

const STATUS: Record<ResetTokenProblem, number> = { unknown: 404, expired: 410, used: 410 };

/**
 * The page an emailed link opens. The token in the URL is the only credential, so it is open
 * to anyone holding the link, signed in or not; the link's state is checked before the form
 * is shown and again, atomically, when it is used.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const state = await inspectResetToken(getDb(), params.token ?? "");
  const headers = { "Cache-Control": "no-store" };
  if (!state.ok) return data({ problem: state.reason, email: null }, { status: STATUS[state.reason], headers });
  return data({ problem: null, email: state.email }, { headers });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return answerForm(request, {
    schema: passwordResetSchema,
    unreadable: "Choose a new password",
    save: async ({ password }) => {
      const db = getDb();
      const result = await resetPassword(db, { token: params.token ?? "", password, client: clientAddress(request) });
      if (!result.ok) {
        const message = PROBLEMS[result.reason].title;
        return data({ problem: result.reason, toast: { type: "error" as const, message }, submittedAt: Date.now() }, { status: STATUS[result.reason] });
      }
      // Every session of the user has ended on the server; clear this browser's cookie as well.
      const cleared = await destroySession(db, request);
      return redirectWithFlash("/login", { type: "success", message: PASSWORD_RESET_DONE }, [cleared]);
    },
  });
}

const PROBLEMS: Record<ResetTokenProblem, { title: string; text: string }> = {
  expired: {
    title: "This reset link has expired",
    text: `Reset links work for ${RESET_TOKEN_TTL_MINUTES} minutes. Ask for a new link and use it within the hour.`,
  },
  used: {
    title: "This reset link has already been used",
    text: "Each reset link works once. If you still need to change your password, ask for a new link.",
  },
  unknown: {
    title: "This reset link is not valid",
    text: "It may be incomplete, or a newer link may have replaced it. Use the most recent email, or ask for a new link.",
  },
};

export default function ResetPassword() {
  const { problem: linkProblem, email } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const problem: ResetTokenProblem | null = (data && "problem" in data ? data.problem : null) ?? linkProblem;

  if (problem) {
    const { title, text } = PROBLEMS[problem];
    return (
      <AuthLayout title={title} subtitle="Your password has not been changed.">
        <div className="space-y-5">
          <Alert>{text}</Alert>
          <ButtonLink to="/forgot-password" size="lg" className="w-full">
            Request a new link
          </ButtonLink>
          <ButtonLink to="/login" variant="secondary" className="w-full">
            Back to sign in
          </ButtonLink>
        </div>
      </AuthLayout>
    );
  }

  const errors = data && "fieldErrors" in data ? data.fieldErrors : {};
  return (
    <AuthLayout title="Choose a new password" subtitle={`For the account ${email}`}>
      <Form method="post" noValidate className="space-y-4">
        <TextField label="New password" name="password" type="password" autoComplete="new-password" required hint={PASSWORD_HINT} error={errors.password} />
        <TextField label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" required error={errors.confirm_password} />
        <p className="text-xs leading-relaxed text-steel-600">
          Saving signs you out on every device and ends API access, so only the new password works from then on.
        </p>
        <SubmitButton busyLabel="Saving..." size="lg" className="w-full">
          Reset Password
        </SubmitButton>
      </Form>
    </AuthLayout>
  );
}

/** A page holding a live token is never cached, by the browser or anything in between. */
export const headers = secretPageHeaders;

export const meta: MetaFunction = () => [{ title: "Choose a new password | Summit Crane & Rigging Training" }, ...secretPageMeta];
