import { foundOr404 } from "~/utils/http.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { RouteError } from "~/components/route-error";
import { avetmissFormValues } from "~/avetmiss/fields";
import { StudentFields, studentValuesFromSubmission, type StudentFormValues } from "~/components/admin/student-form";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { getDb } from "~/db.server";
import { getAvetmissDetails } from "~/avetmiss/details.server";
import { getStudentForEdit, updateStudent } from "~/models/student.server";
import { getStudentById } from "~/models/user.server";
import { studentFormInput, studentUpdateSchema } from "~/schemas/student";
import { answerForm } from "~/utils/form-action.server";
import { redirectWithFlash } from "~/utils/flash.server";
import type { FieldErrors } from "~/utils/validation";
import { clientAddress } from "~/http/request-context.server";

export const STUDENT_UPDATED = "Student updated successfully";
const UPDATE_FAILED = "Failed to update student";

function loadStudent(id: string | undefined) {
  return foundOr404(id, (studentId) => getStudentById(getDb(), studentId), "Student not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const admin = await requireRole(request, "admin");
  // the form shows the USI: the read is audited
  const student = await foundOr404(params.id, (studentId) => getStudentForEdit(getDb(), studentId, { id: admin.id, client: clientAddress(request) }), "Student not found");
  const details = await getAvetmissDetails(getDb(), student.id);
  return { student, details: details! };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const student = await loadStudent(params.id);
  return answerForm(request, {
    schema: studentUpdateSchema,
    input: studentFormInput,
    unreadable: UPDATE_FAILED,
    save: async (input) => {
      await updateStudent(getDb(), student.id, input, { id: admin.id, client: clientAddress(request) });
      return redirectWithFlash(`/admin/students${new URL(request.url).search}`, { type: "success", message: STUDENT_UPDATED });
    },
  });
}

export default function EditStudent() {
  const { student, details } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  useActionToast(data);
  const errors: FieldErrors = data?.fieldErrors ?? {};
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
      <Form method="post" action={`${pathname}${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} />
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
