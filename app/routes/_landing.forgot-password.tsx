import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { requireAnonymous } from "~/auth/guards.server";
import { useActionToast } from "~/components/toaster";
import { ButtonLink, Modal, SubmitButton, TextField } from "~/components/ui";
import { passwordResetRequestSchema } from "~/schemas/password-reset";
import { redirectWithFlash } from "~/utils/flash.server";
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
  return redirectWithFlash("/", { type: "success", message: RESET_REQUESTED });
}

export default function ForgotPassword() {
  const data = useActionData<typeof action>();
  const navigate = useNavigate();
  useActionToast(data);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") navigate("/", { preventScrollReset: true });
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [navigate]);
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
