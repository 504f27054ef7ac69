import {
  foundOr404,
  requireRole,
  getDb,
  getStudentById,
  usiCheckFor,
  usiVerifiedMessage,
  verifyUsiAndIssue,
  clientAddress,
  answerForm,
  noFieldsSchema,
  redirectWithFlash,
} from "~/routes/trainer+/usi.$studentId.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { Alert, SubmitButton, TitledCard } from "~/components/ui";
import { formatDate, formatDateTime } from "~/utils/format";

/**
 * A trainer records that a student's USI was verified with the USI Registry (the Registry's web
 * service needs credentials the portal does not hold, so this is the staff member's recorded
 * check). A missing USI is entered by the student or the training office.
 */
function loadStudent(id: string | undefined) {
  return foundOr404(id, (studentId) => getStudentById(getDb(), studentId), "Student not found");
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const viewer = { id: user.id, client: clientAddress(request) };
  const s = await foundOr404(params.studentId, (studentId) => usiCheckFor(getDb(), { studentId, viewer }), "Student not found");
  return { student: s };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const student = await loadStudent(params.studentId);
  return answerForm(request, {
    // the form is its button alone: the student is the page's, and the model checks the rest
    schema: noFieldsSchema,
    // the refusal is shown above the record (its own Alert), beside no field of the page
    fieldErrors: () => ({}),
    save: async () => {
      const { issued } = await verifyUsiAndIssue(getDb(), { studentId: student.id, actor: { ...user, client: clientAddress(request) } });
      return redirectWithFlash("/trainer/certificates", { type: "success", message: usiVerifiedMessage(student.full_name, issued) });
    },
  });
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

export default function VerifyUsi() {
  const { student } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle
        title="Verify USI"
        subtitle={student.full_name}
        actions={
          <Link to="/trainer/certificates" className={linkClass}>
            Back to Certificates
          </Link>
        }
      />
      <TitledCard title="Unique Student Identifier">
        {data?.error ? (
          <div className="mb-4">
            <Alert>{data.error}</Alert>
          </div>
        ) : null}
        <dl className="space-y-3 text-sm">
          <div>
            <dt className="font-semibold text-steel-600">USI</dt>
            <dd className="font-mono text-lg text-steel-900">{student.usi ?? "No USI recorded"}</dd>
          </div>
          <div>
            <dt className="font-semibold text-steel-600">Date of birth</dt>
            <dd className="text-steel-900">{formatDate(student.date_of_birth, "Not recorded")}</dd>
          </div>
          <div>
            <dt className="font-semibold text-steel-600">Verified</dt>
            <dd className="text-steel-900">{student.usi_verified_at ? formatDateTime(student.usi_verified_at) : "Not yet"}</dd>
          </div>
        </dl>
        {student.usi && !student.usi_verified_at ? (
          <Form method="post" className="mt-4 space-y-3">
            <p className="text-sm text-steel-700">
              Check this USI with the student&apos;s name and date of birth in the USI Registry, then record it here. Recording it issues at once the
              certificate of each completed enrolment still waiting for one.
            </p>
            <SubmitButton busyLabel="Recording...">Record USI as verified</SubmitButton>
          </Form>
        ) : !student.usi ? (
          <p className="mt-4 text-sm text-steel-700">
            Ask {student.full_name} to add their USI on My Profile, or the training office to enter it on the student record.
          </p>
        ) : null}
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Verify USI | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
