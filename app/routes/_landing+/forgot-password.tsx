import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import {
  requireAnonymous,
  clientAddress,
  getDb,
  deliverNow,
  passwordResetLink,
  requestPasswordReset,
  TOO_MANY_RESET_REQUESTS,
  redirectWithFlash,
  retryAfterFromAction,
  logLine,
  answerForm,
} from "~/routes/_landing+/forgot-password.server";
import { useActionToast } from "~/components/toaster";
import { Alert, ButtonLink, Modal, SubmitButton, TextField } from "~/components/ui";
import { passwordResetRequestSchema } from "~/schemas/password-reset";
import { tooMany } from "~/utils/errors";

/** Said whether or not the email belongs to an account, so the form tells nobody who is registered. */
export const RESET_REQUESTED = "If an account exists for that email, a reset link has been sent.";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  return answerForm(request, {
    schema: passwordResetRequestSchema,
    unreadable: "Enter the email address of your account",
    save: async ({ email }) => {
      const outcome = await requestPasswordReset(getDb(), { email, client: clientAddress(request), link: (token) => passwordResetLink(request, token) });
      if (outcome.kind === "issued" && !outcome.mailId) {
        logLine({
          event: "password-reset-not-sent",
          reason: "APP_URL is not set and the request did not come to this machine; set APP_URL to send reset links",
        });
      } else if (outcome.kind === "issued" && outcome.mailId) {
        // Queued with the token; sent now by this process in the background, so the answer does
        // not wait for a mail server, whose time would tell whether the account exists.
        deliverNow([outcome.mailId]);
      } else if (outcome.kind === "limited") {
        logLine({ event: "password-reset-limited", by: outcome.by });
        // The client is told (it is counted whatever the emails); an email over its limit gets
        // the neutral answer, as every other request does.
        if (outcome.by === "client") throw tooMany(TOO_MANY_RESET_REQUESTS, outcome.retryAfterSeconds);
      }
      return redirectWithFlash("/", { type: "success", message: RESET_REQUESTED });
    },
  });
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <Modal title="Reset Password" closeTo="/">
      <Form method="post" action="/forgot-password" noValidate preventScrollReset className="space-y-4">
        {/* a field's own message shows beside the field; the box is for answers about the whole form */}
        {data?.error && !data.fieldErrors.email ? <Alert>{data.error}</Alert> : null}
        <p className="text-sm text-steel-700">Enter the email address of your account and we will send you a link to choose a new password.</p>
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          defaultValue={data?.values.email}
          error={data?.fieldErrors.email}
        />
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <ButtonLink to="/" variant="secondary" preventScrollReset>
            Cancel
          </ButtonLink>
          <SubmitButton busyLabel="Sending...">Send Reset Link</SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Reset password | Summit Crane & Rigging Training" }];

export const headers: HeadersFunction = retryAfterFromAction;
