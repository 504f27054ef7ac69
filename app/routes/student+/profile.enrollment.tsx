import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  getAvetmissDetails,
  updateEnrollmentDetails,
  answerForm,
  redirectWithFlash,
  clientAddress,
} from "~/routes/student+/profile.enrollment.server";
import { AvetmissFields, avetmissFormValues } from "~/components/avetmiss/fields";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ButtonLink, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { avetmissListsFromForm, enrollmentDetailsSchema } from "~/schemas/avetmiss-details";
import { useDismissibleError } from "~/utils/use-form-error";
import { formToObject, type FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const ENROLLMENT_DETAILS_SAVED = "Enrolment details saved";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const details = await getAvetmissDetails(getDb(), user.id);
  return { values: avetmissFormValues({ ...details!, date_of_birth: user.date_of_birth }) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  return answerForm(request, {
    schema: enrollmentDetailsSchema,
    input: (form) => ({ ...formToObject(form), ...avetmissListsFromForm(form) }),
    // a post without the form's fields is not this form and must not wipe the details
    requires: ["sex", "postcode", "date_of_birth"],
    unreadable: "Failed to save your enrolment details",
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      await updateEnrollmentDetails(getDb(), user.id, input, undefined, clientAddress(request));
      return redirectWithFlash("/student/profile", { type: "success", message: ENROLLMENT_DETAILS_SAVED });
    },
  });
}

/** My enrolment details: the AVETMISS questions, over My Profile with its own URL (works without JavaScript). */
export default function EditEnrollmentDetails() {
  const current = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const { error, onChange } = useDismissibleError(data?.error, data);
  const errors: FieldErrors = error ? (data?.fieldErrors ?? {}) : {};
  const values = data?.values ?? current.values;
  return (
    <Modal title="My enrolment details" closeTo="/student/profile" size="lg">
      <Form method="post" noValidate onChange={onChange} preventScrollReset className="space-y-4" key={data?.submittedAt ?? "initial"}>
        {error ? <ErrorSummary failure={data} /> : null}
        <p className="text-sm text-steel-600">
          Registered training organisations report these to the National Centre for Vocational Education Research. Answer what you are comfortable with; "Not
          stated" is always fine.
        </p>
        <AvetmissFields values={values} errors={errors} withDateOfBirth />
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <ButtonLink to="/student/profile" variant="secondary" preventScrollReset>
            Cancel
          </ButtonLink>
          <SubmitButton busyLabel="Saving...">Save enrolment details</SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "My enrolment details | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError message={STUDENT_LOAD_ERROR} />;
}
