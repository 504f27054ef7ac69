import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { PASSWORD_HINT } from "~/schemas/password-text";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import {
  requireAnonymous,
  clientAddress,
  getDb,
  registeredMessage,
  registerUser,
  answerForm,
  redirectWithFlash,
  retryAfterFromAction,
} from "~/routes/_auth+/register.server";
import { AuthLayout } from "~/components/auth-layout";
import { useActionToast } from "~/components/toaster";
import { UsiField } from "~/components/usi-field";
import { ErrorSummary, SelectField, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { registerFormSchema } from "~/schemas/auth";
import type { FieldErrors } from "~/utils/validation";
import { useDismissibleError } from "~/utils/use-form-error";
import { returnPath, withReturn } from "~/utils/safe-redirect";
import { PolicyLinks } from "~/components/policy-links";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAnonymous(request);
  return answerForm(request, {
    schema: registerFormSchema,
    unreadable: "An error occurred during registration",
    save: async ({ confirm_password: _confirm, ...input }) => {
      const { pending } = await registerUser(getDb(), input, { client: clientAddress(request) });
      // a visitor who came to enrol signs in next and goes back to the course
      const back = returnPath(new URL(request.url).searchParams.get("redirectTo"));
      return redirectWithFlash(withReturn("/login", back), { type: "success", message: registeredMessage(pending) });
    },
  });
}

const ACCOUNT_TYPES = [
  { value: "student", label: "Student" },
  { value: "trainer", label: "Trainer" },
  { value: "admin", label: "Administrator" },
];

export default function Register() {
  const data = useActionData<typeof action>();
  useActionToast(data);
  const { error, onChange } = useDismissibleError(data?.error, data);
  const errors: FieldErrors = error ? (data?.fieldErrors ?? {}) : {};
  const v = data?.values ?? {};
  const back = returnPath(useSearchParams()[0].get("redirectTo"));
  return (
    <AuthLayout wide title="Create Account" subtitle="Register to enrol in nationally recognised crane and rigging training">
      <Form method="post" action={withReturn("/register", back)} noValidate onChange={onChange} className="space-y-4">
        {error ? <ErrorSummary failure={data} /> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Full name" name="full_name" autoComplete="name" required defaultValue={v.full_name} error={errors.full_name} />
          <TextField label="Email" name="email" type="email" autoComplete="email" required defaultValue={v.email} error={errors.email} />
          <TextField label="Password" name="password" type="password" autoComplete="new-password" required hint={PASSWORD_HINT} error={errors.password} />
          <TextField label="Confirm password" name="confirm_password" type="password" autoComplete="new-password" required error={errors.confirm_password} />
          <TextField label="Phone" name="phone" type="tel" autoComplete="tel" defaultValue={v.phone} error={errors.phone} />
          <TextField label="Date of birth" name="date_of_birth" type="date" autoComplete="bday" defaultValue={v.date_of_birth} error={errors.date_of_birth} />
        </div>
        <TextAreaField label="Address" name="address" rows={2} autoComplete="street-address" defaultValue={v.address} error={errors.address} />
        <TextField
          label="Emergency contact"
          name="emergency_contact"
          hint="Name and phone number"
          defaultValue={v.emergency_contact}
          error={errors.emergency_contact}
        />
        <UsiField defaultValue={v.usi} error={errors.usi} />
        <SelectField
          label="Account type"
          name="role"
          options={ACCOUNT_TYPES}
          defaultValue={v.role ?? "student"}
          hint="Trainer and Administrator accounts are activated once an administrator approves them."
          error={errors.role}
        />
        <p className="rounded-md bg-steel-50 p-3 text-xs leading-relaxed text-steel-600">
          By creating an account you agree to our RTO terms and conditions, which meet ASQA compliance requirements, to the student code of conduct, and to our
          privacy policy.
        </p>
        <PolicyLinks />
        <SubmitButton busyLabel="Creating Account..." className="w-full" size="lg">
          Create Account
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-steel-600">
        Already have an account?{" "}
        <Link to={withReturn("/login", back)} className="font-semibold text-hivis-700 underline-offset-4 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthLayout>
  );
}

export const meta: MetaFunction = () => [{ title: "Create account | Summit Crane & Rigging Training" }];

export const headers: HeadersFunction = retryAfterFromAction;
