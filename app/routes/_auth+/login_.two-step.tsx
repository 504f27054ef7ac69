import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  redirect,
  HOME_BY_ROLE,
  requireAnonymous,
  clearSecondStep,
  pendingSecondStep,
  completeSecondStep,
  STEP_EXPIRED,
  STEP_USED,
  getDb,
  clientAddress,
  redirectWithFlash,
  answerForm,
  retryAfterFromAction,
} from "~/routes/_auth+/login_.two-step.server";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import { secondStepSchema } from "~/schemas/auth";
import { isDomainError } from "~/utils/errors";
import { returnPath, withReturn } from "~/utils/safe-redirect";

/**
 * The second step of signing in (docs/decisions/010-staff-sign-in-and-audit.md, 018): after a right password, an account with
 * an authenticator lands here with a short-lived signed cookie naming its step on the server. A
 * right code (or an unused recovery code) starts the session and uses the step up: the cookie
 * completes one sign-in only. Wrong codes are limited per account.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const pending = await pendingSecondStep(getDb(), request);
  if (pending?.state !== "open") throw await backToSignIn(pending?.state);
  return data(null, { headers: { "Cache-Control": "no-store" } });
}

/** Back to the sign-in page, saying why when the step was used or ran out, and without the step's cookie. */
async function backToSignIn(state: "used" | "expired" | undefined): Promise<Response> {
  if (!state) return redirect("/login", { headers: { "Set-Cookie": await clearSecondStep() } });
  return redirectWithFlash("/login", { type: "error", message: state === "used" ? STEP_USED : STEP_EXPIRED }, [await clearSecondStep()]);
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const db = getDb();
  const pending = await pendingSecondStep(db, request);
  if (pending?.state !== "open") return backToSignIn(pending?.state ?? "expired");
  const { step } = pending;
  return answerForm(request, {
    schema: secondStepSchema,
    unreadable: "Enter the code",
    save: async ({ code }) => {
      let done;
      try {
        done = await completeSecondStep(db, { step, code, client: clientAddress(request) });
      } catch (error) {
        // used meanwhile by another request carrying the same cookie
        if (isDomainError(error) && error.message === STEP_USED) return backToSignIn("used");
        throw error;
      }
      const showOn = step.redirectTo === "/dashboard" ? `${HOME_BY_ROLE[done.user.role]}/overview` : undefined;
      const response = await redirectWithFlash(step.redirectTo, { type: "success", message: "Login successful!" }, [await clearSecondStep()], { showOn });
      response.headers.append("Set-Cookie", done.session);
      return response;
    },
  });
}

export default function SecondStep() {
  const data = useActionData<typeof action>();
  useActionToast(data);
  const error = data && "error" in data ? data.error : null;
  const fieldError = data && "fieldErrors" in data ? data.fieldErrors.code : undefined;
  // where the sign-in goes afterwards travels in the step's cookie; the query keeps it for "Start again"
  const back = returnPath(useSearchParams()[0].get("redirectTo"));
  return (
    <AuthLayout title="Two-step sign-in" subtitle="Enter the 6-digit code your authenticator app shows for this portal">
      <Form method="post" noValidate className="space-y-4">
        {error ? <ErrorSummary failure={data} /> : null}
        <TextField
          label="Code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          required
          autoFocus
          hint="Lost your phone? Enter one of your recovery codes instead."
          error={fieldError}
        />
        <SubmitButton busyLabel="Checking..." className="w-full" size="lg">
          Verify
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-steel-600">
        <Link to={withReturn("/login", back)} className="font-semibold text-hivis-700 underline-offset-4 hover:underline">
          Start again
        </Link>
      </p>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Two-step sign-in | Summit Crane & Rigging Training" }];

export const headers: HeadersFunction = retryAfterFromAction;
