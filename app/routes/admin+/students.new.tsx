import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import { requireRole, getDb, createStudent, redirectWithFlash, answerForm } from "~/routes/admin+/students.new.server";
import { StudentFields, studentValuesFromSubmission } from "~/components/admin/student-form";
import { useActionToast } from "~/components/toaster";
import { buttonClasses, ErrorSummary, Modal, SubmitButton } from "~/components/ui";
import { studentCreateSchema, studentFormInput } from "~/schemas/student";

const CREATE_FAILED = "Failed to create student";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const admin = await requireRole(request, "admin");
  return answerForm(request, {
    schema: studentCreateSchema,
    input: studentFormInput,
    unreadable: CREATE_FAILED,
    save: async (input) => {
      const student = await createStudent(getDb(), input, admin.id);
      return redirectWithFlash(`/admin/students?${new URLSearchParams({ q: student.email })}`, {
        type: "success",
        message: `Student account created for ${student.full_name}`,
      });
    },
  });
}

export default function AddStudent() {
  const data = useActionData<typeof action>();
  const { search } = useLocation();
  useActionToast(data);
  return (
    <Modal title="Add Student" closeTo={`/admin/students${search}`} size="lg">
      <Form method="post" action={`/admin/students/new${search}`} noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} />
        <p className="text-sm text-steel-600">Creates an active student account that can sign in at once with the password you set.</p>
        <StudentFields values={data ? studentValuesFromSubmission(data.values) : { is_active: true }} errors={data?.fieldErrors ?? {}} withPassword />
        <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
          <Link to={`/admin/students${search}`} preventScrollReset className={buttonClasses("secondary")}>
            Cancel
          </Link>
          <SubmitButton busyLabel="Creating...">Create Student</SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Add Student | Summit Crane & Rigging Training" }];
