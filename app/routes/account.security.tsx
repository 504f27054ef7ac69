import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { HOME_BY_ROLE, requireSignedIn } from "~/auth/guards.server";
import { createSession } from "~/auth/session.server";
import { beginTwoStep, confirmTwoStep, needsTwoStepSetUp, resetTwoStep, twoStepSetUp } from "~/auth/two-step.server";
import { REQUIRED_FOR_ADMINS, SET_UP_REQUIRED } from "~/schemas/two-step-text";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { Alert, SubmitButton, TextField } from "~/components/ui";
import { getDb } from "~/db.server";
import { demoMode } from "~/env.server";
import { clientAddress } from "~/http/request-context.server";
import { changePassword } from "~/models/user.server";
import { passwordChangeSchema, secondStepSchema } from "~/schemas/auth";
import { PASSWORD_HINT } from "~/schemas/password-text";
import { isDomainError } from "~/utils/errors";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm, formFailure } from "~/utils/form-action.server";
import { retryAfterFromAction } from "~/utils/http.server";

/**
 * Account security, for every signed-in user: two-step sign-in (set up with a QR code or the
 * key as text, confirmed with a code; ten recovery codes shown once) and Change password. An
 * administrator who must set up the second step is sent here from every other page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireSignedIn(request);
  const db = getDb();
  const [setUp, required] = await Promise.all([twoStepSetUp(db, user), needsTwoStepSetUp(db, user)]);
  return data(
    {
      setUp,
      required,
      home: HOME_BY_ROLE[user.role],
      mayTurnOff: user.role !== "admin" || demoMode(),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

const PAGE = "/account/security";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireSignedIn(request);
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request), role: user.role };
  const intent = new URL(request.url).searchParams.get("intent");
  if (intent === "confirm") {
    return answerForm(request, {
      schema: secondStepSchema,
      unreadable: "Enter the code from your authenticator app",
      save: async ({ code }) => {
        const recoveryCodes = await confirmTwoStep(db, { userId: user.id, code, actor });
        // Shown in this answer only: a reload shows the page without them.
        return { recoveryCodes, toast: { type: "success" as const, message: "Two-step sign-in is on" }, submittedAt: Date.now() };
      },
    });
  }
  if (intent === "password") {
    return answerForm(request, {
      schema: passwordChangeSchema,
      unreadable: "Fill in the Change password form",
      save: async ({ current_password, password }) => {
        await changePassword(db, { userId: user.id, current: current_password, next: password, client: actor.client });
        // Every session ended with the change; this browser continues in a new one.
        return redirectWithFlash(PAGE, { type: "success", message: "Your password was changed. Other devices have been signed out." }, [
          await createSession(db, user.id),
        ]);
      },
    });
  }
  try {
    if (intent === "begin") await beginTwoStep(db, user.id);
    else if (intent === "turn-off") await resetTwoStep(db, { userId: user.id, actor });
    else return formFailure("Unknown request");
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return formFailure(error.message, { status: error.status });
  }
  const message = intent === "begin" ? "Scan the QR code, then enter the code your app shows" : "Two-step sign-in is off";
  return redirectWithFlash(PAGE, { type: "success", message });
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

export default function AccountSecurity() {
  const { setUp, required, home, mayTurnOff } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const recoveryCodes = data && "recoveryCodes" in data ? data.recoveryCodes : null;
  const failure = data && "error" in data ? data : null;
  const failed = (field: string) => (failure?.fieldErrors as Record<string, string> | undefined)?.[field];
  return (
    <AuthLayout title="Account security" subtitle="Two-step sign-in and your password" wide>
      <div className="space-y-8">
        {required ? <Alert tone="info">{SET_UP_REQUIRED}.</Alert> : null}
        {failure && !failure.fieldErrors.code && !Object.keys(failure.fieldErrors).length ? <Alert>{failure.error}</Alert> : null}

        <section aria-labelledby="two-step-heading" className="space-y-4">
          <h2 id="two-step-heading" className="text-lg font-semibold text-steel-900">
            Two-step sign-in
          </h2>
          {recoveryCodes ? (
            <div className="space-y-3">
              <Alert tone="success">Two-step sign-in is on. Save these recovery codes now: they are shown only once.</Alert>
              <p className="text-sm text-steel-700">Each code signs you in once if you lose your authenticator app.</p>
              <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded bg-steel-50 p-4 font-mono text-sm">
                {recoveryCodes.map((code) => (
                  <li key={code}>{code}</li>
                ))}
              </ul>
            </div>
          ) : setUp.enabled ? (
            <div className="space-y-3">
              <p className="text-sm text-steel-700">
                Two-step sign-in is on. You have {setUp.recoveryCodesLeft} unused recovery {setUp.recoveryCodesLeft === 1 ? "code" : "codes"}.
              </p>
              {mayTurnOff ? (
                <Form method="post" action={`${PAGE}?intent=turn-off`}>
                  <SubmitButton busyLabel="Turning off..." variant="secondary" size="sm">
                    Turn off two-step sign-in
                  </SubmitButton>
                </Form>
              ) : (
                <p className="text-sm text-steel-600">{REQUIRED_FOR_ADMINS}.</p>
              )}
            </div>
          ) : setUp.pending ? (
            <div className="space-y-4">
              <ol className="list-decimal space-y-2 pl-5 text-sm text-steel-700">
                <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…) and add an account.</li>
                <li>Scan the QR code, or type the setup key.</li>
                <li>Enter the 6-digit code the app shows.</li>
              </ol>
              <img src={setUp.pending.qr} alt="QR code for your authenticator app" width={200} height={200} className="rounded border border-steel-200" />
              <p className="text-sm text-steel-700">
                Setup key: <code data-testid="totp-secret" className="break-all rounded bg-steel-100 px-1 font-mono">{setUp.pending.secret}</code>
              </p>
              <Form method="post" action={`${PAGE}?intent=confirm`} noValidate className="space-y-3">
                <TextField label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required error={failed("code")} />
                <SubmitButton busyLabel="Checking...">Turn on two-step sign-in</SubmitButton>
              </Form>
            </div>
          ) : (
            <div className="space-y-3">
              <p className="text-sm text-steel-700">
                After your password, sign-in asks for a code from an authenticator app on your phone, so a stolen password alone cannot open your account.
              </p>
              <Form method="post" action={`${PAGE}?intent=begin`}>
                <SubmitButton busyLabel="Starting...">Set up two-step sign-in</SubmitButton>
              </Form>
            </div>
          )}
        </section>

        {required ? null : (
          <section aria-labelledby="password-heading" className="space-y-4">
            <h2 id="password-heading" className="text-lg font-semibold text-steel-900">
              Change password
            </h2>
            <Form method="post" action={`${PAGE}?intent=password`} noValidate className="space-y-3">
              <TextField label="Current password" name="current_password" type="password" autoComplete="current-password" required error={failed("current_password")} />
              <TextField label="New password" name="password" type="password" autoComplete="new-password" required hint={PASSWORD_HINT} error={failed("password")} />
              <TextField label="Confirm new password" name="confirm_password" type="password" autoComplete="new-password" required error={failed("confirm_password")} />
              <SubmitButton busyLabel="Changing...">Change password</SubmitButton>
            </Form>
          </section>
        )}

        <div className="flex items-center justify-between gap-4 text-sm">
          {required ? <span /> : (
            <Link to={home} className={linkClass}>
              Back to your portal
            </Link>
          )}
          <Form method="post" action="/logout">
            <SubmitButton busyLabel="Signing out..." variant="secondary" size="sm">
              Sign out
            </SubmitButton>
          </Form>
        </div>
      </div>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Account security | Summit Crane & Rigging Training" }];

export const headers: HeadersFunction = retryAfterFromAction;
