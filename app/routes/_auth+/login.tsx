import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import {
  authenticator,
  LoginFailure,
  HOME_BY_ROLE,
  requireAnonymous,
  createSession,
  startSecondStep,
  redirect,
  getDb,
  redirectWithFlash,
  formFailure,
  retryAfterFromAction,
  logLine,
  providerSettings,
} from "~/routes/_auth+/login.server";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import { returnPath, safeRedirect, withReturn } from "~/utils/safe-redirect";
import { useDismissibleError } from "~/utils/use-form-error";
import { buttonClasses } from "~/components/ui/button";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  // staff single sign-on, when configured: its button names the provider
  return { provider: providerSettings()?.name ?? null };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get("redirectTo"));
  // remix-auth consumes the body; a copy keeps the typed email for re-rendering the form
  const copy = request.clone();
  let user;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    const failure = error instanceof LoginFailure ? error : new LoginFailure(400, "An error occurred during login");
    if (!(error instanceof LoginFailure)) logLine({ event: "login-error", error: String(error) });
    if (failure.secondStepUserId) {
      return redirect(`/login/two-step?${new URLSearchParams({ redirectTo })}`, {
        headers: { "Set-Cookie": await startSecondStep(getDb(), failure.secondStepUserId, redirectTo) },
      });
    }
    const form = await copy.formData().catch(() => null);
    const email = typeof form?.get("email") === "string" ? String(form.get("email")).slice(0, 254) : "";
    return formFailure(failure.message || "Login failed", {
      status: failure.status,
      fieldErrors: failure.fieldErrors,
      values: { email },
      retryAfterSeconds: failure.retryAfterSeconds,
    });
  }
  const showOn = redirectTo === "/dashboard" ? `${HOME_BY_ROLE[user.role]}/overview` : undefined;
  // The answer is complete before the session exists, so nothing after it can fail and leave
  // a session nobody holds.
  const response = await redirectWithFlash(redirectTo, { type: "success", message: "Login successful!" }, [], { showOn });
  response.headers.append("Set-Cookie", await createSession(getDb(), user.id));
  return response;
}

export default function Login() {
  const data = useActionData<typeof action>();
  const { provider } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  useActionToast(data);
  const { error, onChange } = useDismissibleError(data?.error, data);
  const fieldErrors = error ? (data?.fieldErrors ?? {}) : {};
  const redirectTo = returnPath(params.get("redirectTo"));
  return (
    <AuthLayout title="Welcome Back" subtitle="Sign in to access your training portal">
      <Form method="post" action={withReturn("/login", redirectTo)} noValidate onChange={onChange} className="space-y-4">
        {error ? <ErrorSummary failure={data} /> : null}
        <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={data?.values.email} error={fieldErrors.email} />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required error={fieldErrors.password} />
        <SubmitButton busyLabel="Signing In..." className="w-full" size="lg">
          Sign In
        </SubmitButton>
      </Form>
      {provider ? (
        <div className="mt-6 border-t border-steel-200 pt-6 text-center">
          <p className="mb-3 text-sm text-steel-700">Trainers and administrators</p>
          {/* a plain link (a full page load): the provider's page is on another site */}
          <a href={redirectTo ? `/login/sso?${new URLSearchParams({ redirectTo })}` : "/login/sso"} className={buttonClasses("secondary", "lg", "w-full")}>
            {`Sign in with ${provider}`}
          </a>
        </div>
      ) : null}
      <p className="mt-6 text-center text-sm text-steel-600">
        New to Summit?{" "}
        <Link to={withReturn("/register", redirectTo)} className="font-semibold text-hivis-700 underline-offset-4 hover:underline">
          Create Account
        </Link>
      </p>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Sign in | Summit Crane & Rigging Training" }];

export const headers: HeadersFunction = retryAfterFromAction;
