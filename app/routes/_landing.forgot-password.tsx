import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { requireAnonymous } from "~/auth/guards.server";
import { clientAddress } from "~/auth/request-context.server";
import { useActionToast } from "~/components/toaster";
import { ButtonLink, Modal, SubmitButton, TextField } from "~/components/ui";
import { getDb } from "~/db.server";
import { env } from "~/env.server";
import { passwordResetLink, sendPasswordResetEmail } from "~/mail/password-reset.server";
import { getMailer } from "~/mail/transport.server";
import { requestPasswordReset, RESET_TOKEN_TTL_MINUTES } from "~/models/password-reset.server";
import { passwordResetRequestSchema } from "~/schemas/password-reset";
import { redirectWithFlash } from "~/utils/flash.server";
import { logLine } from "~/utils/log.server";
import { formToObject, parseWith } from "~/utils/validation";

/** Said whether or not the email belongs to an account, so the form tells nobody who is registered. */
export const RESET_REQUESTED = "If an account exists for that email, a reset link has been sent.";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const form = await request.formData().catch(() => null);
  const raw = form ? formToObject(form) : {};
  const parsed = parseWith(passwordResetRequestSchema, raw);
  if (!parsed.success) {
    const email = typeof raw.email === "string" ? raw.email.slice(0, 254) : "";
    return json(
      {
        fieldErrors: parsed.fieldErrors,
        values: { email },
        toast: { type: "error" as const, message: parsed.message },
        submittedAt: Date.now(),
      },
      { status: 400 },
    );
  }
  const outcome = await requestPasswordReset(getDb(), { email: parsed.data.email, client: clientAddress(request) });
  if (outcome.kind === "issued") {
    // Sent after the answer, so how long a mail server takes tells nothing about the account.
    const message = {
      to: outcome.user.email,
      fullName: outcome.user.full_name,
      link: passwordResetLink(request, outcome.token),
      validMinutes: RESET_TOKEN_TTL_MINUTES,
      rto: { name: env().RTO_NAME, code: env().RTO_CODE },
    };
    void sendPasswordResetEmail(getMailer(), message).catch((error: unknown) =>
      logLine({ event: "mail-error", kind: "password-reset", error: String(error) }),
    );
  } else if (outcome.kind === "throttled") {
    logLine({ event: "password-reset-throttled", by: outcome.by });
  }
  return redirectWithFlash("/", { type: "success", message: RESET_REQUESTED });
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <Modal title="Reset Password" closeTo="/">
      <Form method="post" action="/forgot-password" noValidate preventScrollReset className="space-y-4">
        <p className="text-sm text-steel-700">
          Enter the email address of your account and we will send you a link to choose a new password.
        </p>
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
