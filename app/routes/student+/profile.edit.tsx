import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { requireRole, ownRecord, getDb, updateOwnProfile, redirectWithFlash, answerForm, clientAddress } from "~/routes/student+/profile.edit.server";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { UsiField } from "~/components/usi-field";
import { ButtonLink, ErrorSummary, Modal, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { profileSchema } from "~/schemas/profile";
import { useDismissibleError } from "~/utils/use-form-error";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const PROFILE_UPDATED = "Profile updated successfully";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = ownRecord(await requireRole(request, "student"));
  return {
    phone: user.phone ?? "",
    address: user.address ?? "",
    emergency_contact: user.emergency_contact ?? "",
    usi: user.usi ?? "",
    usi_verified: user.usi_verified_at !== null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  return answerForm(request, {
    schema: profileSchema,
    // blank clears a detail; a post without the fields is not this form and must not wipe the profile
    requires: ["phone", "address", "emergency_contact"],
    unreadable: "Failed to update profile",
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      await updateOwnProfile(getDb(), user.id, input, undefined, clientAddress(request));
      return redirectWithFlash("/student/profile", { type: "success", message: PROFILE_UPDATED });
    },
  });
}

/** Edit Profile: a modal over My Profile with its own URL, so it works without JavaScript. */
export default function EditProfile() {
  const current = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const { error, onChange } = useDismissibleError(data?.error, data);
  const errors: FieldErrors = error ? (data?.fieldErrors ?? {}) : {};
  const v = data?.values ?? current;
  return (
    <Modal title="Edit Profile" closeTo="/student/profile">
      <Form method="post" noValidate onChange={onChange} preventScrollReset className="space-y-4">
        {error ? <ErrorSummary failure={data} /> : null}
        <p className="text-sm text-steel-600">Keep your contact details and USI current so the training office can reach you and certify you.</p>
        <TextField label="Phone" name="phone" type="tel" autoComplete="tel" autoFocus defaultValue={v.phone} error={errors.phone} />
        <TextAreaField label="Address" name="address" rows={2} autoComplete="street-address" defaultValue={v.address} error={errors.address} />
        <TextField
          label="Emergency contact"
          name="emergency_contact"
          hint="Name and phone number"
          defaultValue={v.emergency_contact}
          error={errors.emergency_contact}
        />
        <UsiField defaultValue={v.usi} error={errors.usi} verified={data?.values ? undefined : current.usi_verified} />
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <ButtonLink to="/student/profile" variant="secondary" preventScrollReset>
            Cancel
          </ButtonLink>
          <SubmitButton busyLabel="Saving...">Save Changes</SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Profile | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
