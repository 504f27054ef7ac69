import {
  foundOr404,
  requireRole,
  getDb,
  getAvetmissDetails,
  getStudentForEdit,
  updateStudent,
  getStudentById,
  answerForm,
  formFailure,
  redirectWithFlash,
  clientAddress,
} from "~/routes/admin+/students.$id_.edit.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { RouteError } from "~/components/route-error";
import { avetmissFormValues } from "~/components/avetmiss/fields";
import { StudentFields, studentValuesFromSubmission, type StudentFormValues } from "~/components/admin/student-form";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, ConfirmAction, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { studentFormInput, studentUpdateSchema } from "~/schemas/student";
import { CONFIRMED_FIELD, confirmationAnswer, isConfirmed } from "~/utils/confirm";
import { keptValues } from "~/utils/validation";
import type { FieldErrors } from "~/utils/validation";

export const STUDENT_UPDATED = "Student updated successfully";
const UPDATE_FAILED = "Failed to update student";

function loadStudent(id: string | undefined) {
  return foundOr404(id, (studentId) => getStudentById(getDb(), studentId), "Student not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  // the form shows the USI: the read is audited
  const student = await foundOr404(
    params.id,
    (studentId) => getStudentForEdit(getDb(), studentId, { id: admin.id, client: clientAddress(request) }),
    "Student not found",
  );
  const details = await getAvetmissDetails(getDb(), student.id);
  return { student, details: details! };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const student = await loadStudent(params.id);
  const form = await request.formData().catch(() => null);
  if (!form) return formFailure(UPDATE_FAILED);
  return answerForm(request, {
    form,
    schema: studentUpdateSchema,
    input: studentFormInput,
    unreadable: UPDATE_FAILED,
    save: async (input) => {
      // switching the account off is asked twice: a valid save that unticks Active answers with
      // the question and the form as posted, sent again with the confirmation
      if (student.is_active && !input.is_active && !isConfirmed(form)) {
        const posted = [...form.entries()].flatMap(([name, value]) =>
          typeof value === "string" && name !== "intent" && name !== CONFIRMED_FIELD ? [[name, value] as [string, string]] : [],
        );
        return { ...confirmationAnswer("deactivate"), posted, values: keptValues(form), submittedAt: Date.now() };
      }
      await updateStudent(getDb(), student.id, input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/students${new URL(request.url).search}`, { type: "success", message: STUDENT_UPDATED });
    },
  });
}

export default function EditStudent() {
  const { student, details } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  useActionToast(data && "toast" in data ? data : undefined);
  const asked = data && "confirm" in data ? data : undefined;
  const errors: FieldErrors = data && "fieldErrors" in data ? data.fieldErrors : {};
  const values: StudentFormValues = data
    ? studentValuesFromSubmission(data.values)
    : {
        full_name: student.full_name,
        email: student.email,
        phone: student.phone ?? "",
        address: student.address ?? "",
        date_of_birth: student.date_of_birth ?? "",
        emergency_contact: student.emergency_contact ?? "",
        license_number: student.license_number ?? "",
        usi: student.usi ?? "",
        usi_verified_at: student.usi_verified_at,
        is_active: student.is_active,
        avetmiss: avetmissFormValues(details),
      };
  return (
    <Modal title="Edit Student" closeTo={`/admin/students${search}`} size="lg">
      {asked ? (
        <div className="mb-4">
          <ConfirmAction
            key={asked.submittedAt}
            intent="deactivate"
            posted={asked.posted}
            trigger="Save Changes"
            title={`Deactivate ${student.full_name}'s account?`}
            confirmLabel="Yes, deactivate and save"
            busyLabel="Saving..."
            keepLabel="Keep the account active"
            confirming
          >
            <p>{`${student.full_name} (student no. ${student.student_number ?? "none"}) can no longer sign in, and is signed out everywhere. Their enrolments and records stay; you can reactivate the account later. The other changes in the form are saved with it.`}</p>
          </ConfirmAction>
        </div>
      ) : null}
      <Form method="post" action={`${pathname}${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data && "error" in data ? data : undefined} />
        <p className="text-sm text-steel-600">
          Editing the record of <span className="font-semibold text-steel-900">{student.full_name}</span> (Student no.{" "}
          <span className="font-mono">{student.student_number ?? "none"}</span>).
        </p>
        <StudentFields values={values} errors={errors} />
        <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
          <Link to={`/admin/students${search}`} preventScrollReset className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <SubmitButton busyLabel="Saving...">Save Changes</SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Edit Student | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Edit Student" message="Failed to load student details" modalCloseTo="/admin/students" />;
}
