import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  assessmentFor,
  ownEvidenceByAssessment,
  signAssessment,
  answerForm,
  redirectWithFlash,
} from "~/routes/student+/evidence.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, SubmitButton, TextField, TitledCard, TAP_LINK } from "~/components/ui";
import { cn } from "~/utils/cn";
import { EVIDENCE_MEDIA_TYPES, isEvidenceMediaType } from "~/files/types";
import { assessmentRefSchema, signatureSchema } from "~/schemas/evidence";
import { formatDateTime } from "~/utils/format";

/** The learner's own assessment evidence, and the candidate's declaration to sign from their own login. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return { groups: await ownEvidenceByAssessment(getDb(), user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  return answerForm(request, {
    schema: signatureSchema.extend({ kind: assessmentRefSchema.shape.kind, id: assessmentRefSchema.shape.id }),
    save: async (input) => {
      const assessment = await assessmentFor(db, user, { kind: input.kind, id: input.id });
      await signAssessment(db, {
        assessment,
        role: "candidate",
        full_name: input.full_name,
        userAgent: request.headers.get("User-Agent"),
        actor: { id: user.id, client: clientAddress(request) },
      });
      return redirectWithFlash("/student/evidence", { type: "success", message: "Declaration signed" });
    },
  });
}

export default function StudentEvidence() {
  const { groups } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="My assessment evidence" subtitle="The photos and documents your assessor kept for your assessments" />
      {groups.length === 0 ? <p className="text-sm text-steel-600">No evidence has been attached to your assessments yet.</p> : null}
      <div className="grid gap-6 lg:grid-cols-2">
        {groups.map(({ assessment: a, files, signatures }) => {
          const failed = data?.values?.id === a.id;
          const candidate = signatures.find((s) => s.role === "candidate");
          return (
            <TitledCard key={`${a.kind}-${a.id}`} title={`${a.course.name}: ${a.title}`}>
              <ul className="space-y-1 text-sm" aria-label={`Evidence for ${a.title}`}>
                {files.map((f) => (
                  <li key={f.id} className="break-words">
                    <a href={`/evidence/${f.id}/download`} className={cn(TAP_LINK, "font-semibold underline")}>
                      {f.original_name}
                    </a>{" "}
                    <span className="text-steel-600">
                      {isEvidenceMediaType(f.media_type) ? EVIDENCE_MEDIA_TYPES[f.media_type].label : f.media_type}, {formatDateTime(f.uploaded_at)}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="mt-3 text-sm">
                {signatures
                  .map((s) => `${s.role === "assessor" ? "Assessor" : "Candidate"} signed as ${s.full_name}, ${formatDateTime(s.signed_at)}`)
                  .join(". ") || "No declarations signed yet."}
              </p>
              {!candidate ? (
                <Form method="post" noValidate className="mt-3 space-y-2">
                  <input type="hidden" name="kind" value={a.kind} />
                  <input type="hidden" name="id" value={a.id} />
                  <input type="hidden" name="role" value="candidate" />
                  {failed && data?.error ? <Alert>{data.error}</Alert> : null}
                  <TextField
                    label="Your full name"
                    name="full_name"
                    autoComplete="name"
                    required
                    hint="I declare that the evidence is my own work and that I was told the result and my right to appeal."
                    error={failed ? data?.fieldErrors?.full_name : undefined}
                    defaultValue={failed ? data?.values?.full_name : undefined}
                  />
                  <SubmitButton busyLabel="Signing...">Sign my declaration</SubmitButton>
                </Form>
              ) : null}
            </TitledCard>
          );
        })}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My assessment evidence | Student Portal" }];

export function ErrorBoundary() {
  return <RouteError title="My assessment evidence" message="Failed to load your evidence" />;
}
