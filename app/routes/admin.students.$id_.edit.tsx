import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { requireRole } from "~/auth/guards.server";
import { ModalRouteError } from "~/components/admin/admin-modal-error";
import { StudentFields, studentValuesFromSubmission, type StudentFormValues } from "~/components/admin/student-form";
import { useActionToast } from "~/components/toaster";
import { Alert, buttonClasses, Modal, SubmitButton } from "~/components/ui";
import { getDb } from "~/db.server";
import { updateStudent } from "~/models/student.server";
import { getUserById, EMAIL_TAKEN } from "~/models/user.server";
import { uuid } from "~/schemas/fields";
import { studentFormInput, studentUpdateSchema } from "~/schemas/student";
import { isDomainError } from "~/utils/errors";
import { redirectWithFlash } from "~/utils/flash.server";
import { keptValues, parseWith, type FieldErrors } from "~/utils/validation";

export const STUDENT_UPDATED = "Student updated successfully";
const UPDATE_FAILED = "Failed to update student";

async function loadStudent(id: string | undefined) {
  const parsed = uuid.safeParse(id);
  const student = parsed.success ? await getUserById(getDb(), parsed.data) : null;
  if (!student || student.role !== "student") throw json("Student not found", { status: 404 });
  return student;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const student = await loadStudent(params.id);
  return json({ student });
}

function failure(message: string, fieldErrors: FieldErrors, values: Record<string, string>, status: number) {
  return json({ error: message, fieldErrors, values, toast: { type: "error" as const, message }, submittedAt: Date.now() }, { status });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  const student = await loadStudent(params.id);
  const form = await request.formData().catch(() => null);
  if (!form) return failure(UPDATE_FAILED, {}, {}, 400);
  const values = keptValues(form);
  const parsed = parseWith(studentUpdateSchema, studentFormInput(form));
  if (!parsed.success) return failure(parsed.message, parsed.fieldErrors, values, 400);
  try {
    await updateStudent(getDb(), student.id, parsed.data, admin.id);
  } catch (error) {
    if (isDomainError(error)) {
      const fieldErrors = error.message === EMAIL_TAKEN ? { email: error.message } : error.fieldErrors;
      return failure(error.message || UPDATE_FAILED, fieldErrors, values, error.status);
    }
    throw error;
  }
  const search = new URL(request.url).search;
  return redirectWithFlash(`/admin/students${search}`, { type: "success", message: STUDENT_UPDATED });
}

export default function EditStudent() {
  const { student } = useLoaderData<typeof loader>();
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
        is_active: student.is_active,
      };
  return (
    <Modal title="Edit Student" closeTo={`/admin/students${search}`} size="lg">
      <Form method="post" action={`${pathname}${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        {data?.error ? <Alert>{data.error}</Alert> : null}
        <p className="text-sm text-steel-600">
          Editing the record of <span className="font-semibold text-steel-900">{student.full_name}</span> (ID{" "}
          <span className="font-mono">{student.id.slice(-8)}</span>).
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
  return <ModalRouteError title="Edit Student" message="Failed to load student details" closeTo="/admin/students" />;
}
