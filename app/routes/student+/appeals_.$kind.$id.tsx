import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  jsonResponse,
  readOrRefuse,
  requireRole,
  getDb,
  organisation,
  clientAddress,
  lodgeAppeal,
  assessmentFor,
  answerForm,
  redirectWithFlash,
} from "~/routes/student+/appeals_.$kind.$id.server";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SubmitButton, TextAreaField, TitledCard } from "~/components/ui";
import { appealInput } from "~/schemas/complaint";
import { decisionRefSchema } from "~/schemas/evidence";
import { DETAILS_MAX } from "~/schemas/complaint-text";
import { formatDate } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

/** Appeal a decision on one of the learner's own assessments (another's, or an unknown one, is not found). */
async function ownAssessment(request: Request, params: LoaderFunctionArgs["params"]) {
  const user = await requireRole(request, "student");
  const ref = decisionRefSchema.safeParse({ kind: params.kind, id: params.id });
  if (!ref.success) throw jsonResponse("Assessment not found", { status: 404 });
  const assessment = await readOrRefuse(() => assessmentFor(getDb(), { id: user.id, role: user.role }, ref.data));
  return { user, assessment };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { assessment } = await ownAssessment(request, params);
  return {
    assessment: {
      kind: assessment.kind,
      title: assessment.title,
      course: assessment.course.name,
      assessor: assessment.assessor?.full_name ?? null,
      result_on: assessment.result_on,
    },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user, assessment } = await ownAssessment(request, params);
  return answerForm(request, {
    schema: appealInput,
    input: (form) => ({ assessment_kind: assessment.kind, assessment_id: assessment.id, details: form.get("details") ?? undefined }),
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      const lodged = await lodgeAppeal(getDb(), input, { by: { id: user.id, client: clientAddress(request) }, rto: organisation() });
      return redirectWithFlash("/student/appeals", { type: "success", message: `Appeal received: your reference is ${lodged.reference}` });
    },
  });
}

export default function AppealPage() {
  const { assessment } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle
        title="Appeal this decision"
        subtitle={`${assessment.title}, ${assessment.course}`}
        actions={
          <Link to="/student/appeals" className="underline">
            Back to my results
          </Link>
        }
      />
      <TitledCard title="Your appeal">
        <p className="mb-3 text-sm">
          {assessment.result_on ? `Decided ${formatDate(assessment.result_on)}` : "No decision yet"}
          {assessment.assessor ? ` by ${assessment.assessor}` : ""}. Someone other than the assessor decides your appeal, and you get the outcome and reasons by
          email.
        </p>
        <Form method="post" noValidate className="grid gap-4">
          <ErrorSummary failure={data} />
          <TextAreaField
            label="Why should the decision change?"
            name="details"
            rows={8}
            hint={`Up to ${DETAILS_MAX.toLocaleString("en-AU")} characters`}
            defaultValue={data?.values?.details}
            error={data?.fieldErrors?.details}
          />
          <div>
            <SubmitButton busyLabel="Sending...">Send appeal</SubmitButton>
          </div>
        </Form>
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Appeal a decision | Student Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Appeal a decision" message="This assessment could not be found" />;
}
