import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  HOME_BY_ROLE,
  requireSignedIn,
  changeOwnPassword,
  finishTwoStepSetUp,
  startTwoStepSetUp,
  turnOffTwoStep,
  currentSessionKey,
  needsTwoStepSetUp,
  twoStepSetUp,
  getDb,
  demoMode,
  clientAddress,
  redirectWithFlash,
  answerForm,
  formFailure,
  formIntent,
  retryAfterFromAction,
} from "~/routes/_auth+/account.security.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { REQUIRED_FOR_ADMINS, SET_UP_REQUIRED } from "~/schemas/two-step-text";
import { AuthLayout } from "~/components/auth-layout";
import { RecoveryCodes } from "~/components/recovery-codes";
import { useActionToast } from "~/components/toaster";
import { Alert, SubmitButton, TextField } from "~/components/ui";
import { ErrorSummary } from "~/components/ui/error-summary";
import { beginTwoStepSchema, confirmTwoStepSchema, ownerProofSchema, passwordChangeSchema } from "~/schemas/auth";
import { PASSWORD_HINT } from "~/schemas/password-text";

/**
 * Account security, for every signed-in user: two-step sign-in (set up with a QR code or the
 * key as text, confirmed with a code; ten recovery codes shown once) and Change password. An
 * administrator who must set up the second step is sent here from every other page. Every
 * change of how the account signs in asks for the owner (app/auth/factor-change.server.ts).
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

/** Beside the forms that change how the account signs in: what they ask for and why. */
const OWNER_HINT = "Asked for so that only you, not someone holding a signed-in browser, can change how your account signs in.";

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireSignedIn(request);
  const db = getDb();
  const asker = { user, client: clientAddress(request), session: await currentSessionKey(request) };
  switch (await formIntent(request)) {
    case "confirm":
      return answerForm(request, {
        schema: confirmTwoStepSchema,
        save: async (input) => {
          const recoveryCodes = await finishTwoStepSetUp(db, asker, input);
          // Shown in this answer only: a reload shows the page without them.
          return {
            recoveryCodes,
            toast: { type: "success" as const, message: "Two-step sign-in is on. Other devices have been signed out." },
            submittedAt: Date.now(),
          };
        },
      });
    case "password":
      return answerForm(request, {
        schema: passwordChangeSchema,
        save: async (input) => {
          await changeOwnPassword(db, asker, input);
          return redirectWithFlash(PAGE, { type: "success", message: "Your password was changed. Other devices have been signed out." });
        },
      });
    case "begin":
      return answerForm(request, {
        schema: beginTwoStepSchema,
        save: async (input) => {
          await startTwoStepSetUp(db, asker, input);
          return redirectWithFlash(PAGE, { type: "success", message: "Scan the QR code, then enter the code your app shows" });
        },
      });
    case "turn-off":
      return answerForm(request, {
        schema: ownerProofSchema,
        save: async (input) => {
          await turnOffTwoStep(db, asker, input);
          return redirectWithFlash(PAGE, { type: "success", message: "Two-step sign-in is off. Other devices have been signed out." });
        },
      });
    default:
      return formFailure("Unknown request");
  }
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

type Failed = (form: string, field: string) => string | undefined;

/**
 * The page has up to three forms asking for the same fields (current password, current code):
 * each field's id is its form's name and its own, so an error summary's link reaches the
 * field of the form that failed.
 */
const FIELDS = ["code", "current_password", "current_code", "password", "confirm_password"] as const;
const fieldId = (form: string, name: (typeof FIELDS)[number]) => `${form}-${name}`;
const fieldIdsOf = (form: string) => Object.fromEntries(FIELDS.map((name) => [name, fieldId(form, name)]));

/** The current password and, where two-step sign-in is on, a current code: what a change of sign-in factor asks for. */
function OwnerFields({ form, withCode, failed }: { form: string; withCode: boolean; failed: Failed }) {
  return (
    <>
      <input type="hidden" name="intent" value={form} />
      <TextField
        label="Current password"
        name="current_password"
        id={fieldId(form, "current_password")}
        type="password"
        autoComplete="current-password"
        required
        error={failed(form, "current_password")}
      />
      {withCode ? (
        <TextField
          label="Code from your authenticator app"
          name="current_code"
          id={fieldId(form, "current_code")}
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          hint="Or one of your recovery codes."
          error={failed(form, "current_code")}
        />
      ) : null}
    </>
  );
}

export default function AccountSecurity() {
  const { setUp, required, home, mayTurnOff } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const recoveryCodes = data && "recoveryCodes" in data ? data.recoveryCodes : null;
  const failure = data && "error" in data ? data : null;
  const failedForm = failure?.values.intent;
  const failed: Failed = (form, field) => (failedForm === form ? (failure?.fieldErrors as Record<string, string> | undefined)?.[field] : undefined);
  const formError = (form: string) => <ErrorSummary failure={failure && failedForm === form ? failure : null} fieldIds={fieldIdsOf(form)} />;
  return (
    <AuthLayout title="Account security" subtitle="Two-step sign-in and your password" wide>
      <div className="space-y-8">
        {required ? <Alert tone="info">{SET_UP_REQUIRED}.</Alert> : null}
        <ErrorSummary failure={failure && !failedForm ? failure : null} />

        <section aria-labelledby="two-step-heading" className="space-y-4">
          <h2 id="two-step-heading" className="text-lg font-semibold text-steel-900">
            Two-step sign-in
          </h2>
          {recoveryCodes ? (
            <div className="space-y-3">
              <Alert tone="success">Two-step sign-in is on. Save these recovery codes now: they are shown only once.</Alert>
              <p className="text-sm text-steel-700">Each code signs you in once if you lose your authenticator app.</p>
              <RecoveryCodes codes={recoveryCodes} />
            </div>
          ) : setUp.pending ? (
            <div className="space-y-4">
              {setUp.enabled ? <p className="text-sm text-steel-700">Your current authenticator app keeps working until the new one is confirmed.</p> : null}
              <ol className="list-decimal space-y-2 pl-5 text-sm text-steel-700">
                <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…) and add an account.</li>
                <li>Scan the QR code, or type the setup key.</li>
                <li>Enter the 6-digit code the app shows, and your current password.</li>
              </ol>
              <img src={setUp.pending.qr} alt="QR code for your authenticator app" width={200} height={200} className="rounded border border-steel-200" />
              <p className="text-sm text-steel-700">
                Setup key:{" "}
                <code data-testid="totp-secret" className="break-all rounded bg-steel-100 px-1 font-mono">
                  {setUp.pending.secret}
                </code>
              </p>
              <Form method="post" action={PAGE} noValidate className="space-y-3" aria-label="Confirm the authenticator app">
                {formError("confirm")}
                <input type="hidden" name="intent" value="confirm" />
                <TextField
                  label="Code from the app"
                  name="code"
                  id={fieldId("confirm", "code")}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  required
                  error={failed("confirm", "code")}
                />
                <TextField
                  label="Current password"
                  name="current_password"
                  id={fieldId("confirm", "current_password")}
                  type="password"
                  autoComplete="current-password"
                  required
                  hint={OWNER_HINT}
                  error={failed("confirm", "current_password")}
                />
                <SubmitButton busyLabel="Checking...">Turn on two-step sign-in</SubmitButton>
              </Form>
            </div>
          ) : setUp.enabled ? (
            <div className="space-y-6">
              <p className="text-sm text-steel-700">
                Two-step sign-in is on. You have {setUp.recoveryCodesLeft} unused recovery {setUp.recoveryCodesLeft === 1 ? "code" : "codes"}.
              </p>
              <p className="text-sm text-steel-700">{OWNER_HINT} Every other device signed in to your account is signed out, and we email you.</p>
              <Form method="post" action={PAGE} noValidate className="space-y-3" aria-label="Set up a new authenticator app">
                <h3 className="font-semibold text-steel-900">New phone or app</h3>
                {formError("begin")}
                <OwnerFields form="begin" withCode failed={failed} />
                <SubmitButton busyLabel="Starting..." variant="secondary" size="sm">
                  Set up a new authenticator app
                </SubmitButton>
              </Form>
              {mayTurnOff ? (
                <Form method="post" action={PAGE} noValidate className="space-y-3" aria-label="Turn off two-step sign-in">
                  <h3 className="font-semibold text-steel-900">Turn off</h3>
                  {formError("turn-off")}
                  <OwnerFields form="turn-off" withCode failed={failed} />
                  <SubmitButton busyLabel="Turning off..." variant="secondary" size="sm">
                    Turn off two-step sign-in
                  </SubmitButton>
                </Form>
              ) : (
                <p className="text-sm text-steel-600">{REQUIRED_FOR_ADMINS}.</p>
              )}
            </div>
          ) : (
            <div className="space-y-3">
              <p className="text-sm text-steel-700">
                After your password, sign-in asks for a code from an authenticator app on your phone, so a stolen password alone cannot open your account.
              </p>
              <Form method="post" action={PAGE}>
                <input type="hidden" name="intent" value="begin" />
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
            <Form method="post" action={PAGE} noValidate className="space-y-3" aria-label="Change password">
              {formError("password")}
              <OwnerFields form="password" withCode={setUp.enabled} failed={failed} />
              <TextField
                label="New password"
                name="password"
                id={fieldId("password", "password")}
                type="password"
                autoComplete="new-password"
                required
                hint={PASSWORD_HINT}
                error={failed("password", "password")}
              />
              <TextField
                label="Confirm new password"
                name="confirm_password"
                id={fieldId("password", "confirm_password")}
                type="password"
                autoComplete="new-password"
                required
                error={failed("password", "confirm_password")}
              />
              <SubmitButton busyLabel="Changing...">Change password</SubmitButton>
            </Form>
          </section>
        )}

        <div className="flex items-center justify-between gap-4 text-sm">
          {required ? (
            <span />
          ) : (
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
