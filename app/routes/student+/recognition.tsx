import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  queryObject,
  requireRole,
  getDb,
  clientAddress,
  applyWithFiles,
  listRecognitions,
  recognitionChoices,
  redirectWithFlash,
  BAD_UPLOAD_MESSAGE,
  BadUpload,
  isMultipart,
  readUpload,
  answerForm,
  formFailure,
  getFileStore,
} from "~/routes/student+/recognition.server";
import { PageTitle } from "~/components/portal-shell";
import { RecognitionFilters } from "~/components/recognition/recognition-filters";
import { RecognitionTable } from "~/components/recognition/recognition-table";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SelectField, SubmitButton, TextAreaField, TitledCard } from "~/components/ui";
import { EVIDENCE_ACCEPT } from "~/files/types";
import { recognitionApplyInput, recognitionListQuery } from "~/schemas/recognition";
import { RECOGNITION_KIND_LABELS, RECOGNITION_KINDS } from "~/schemas/recognition-text";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";
import { formatPrice } from "~/utils/format";

/**
 * The learner's credit transfer and RPL applications (their own view of the register, with its
 * filters and CSV) and the form to apply for one of their current enrolments' units, with the
 * other RTO's document or the evidence of their work attached through the evidence store.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  const db = getDb();
  const raw = queryObject(request);
  const parsed = recognitionListQuery.safeParse(raw);
  const failure = parsed.success
    ? null
    : { error: "Please correct the filters", fieldErrors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])), submittedAt: 0 };
  const [items, choices] = await Promise.all([parsed.success ? listRecognitions(db, user, parsed.data) : [], recognitionChoices(db, user.id)]);
  const chosen = new URL(request.url).searchParams.get("enrollment") ?? "";
  return { items, choices, values: raw, failure, query: new URL(request.url).search, chosen };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  if (!isMultipart(request)) return formFailure(FORM_UNREADABLE);
  let read: Awaited<ReturnType<typeof readUpload>>;
  try {
    read = await readUpload(request);
  } catch (error) {
    if (error instanceof BadUpload) return formFailure(BAD_UPLOAD_MESSAGE);
    throw error;
  }
  try {
    return await answerForm(request, {
      form: read.form,
      schema: recognitionApplyInput,
      invalid: FIX_HIGHLIGHTED_FIELDS,
      save: async (input) => {
        const { recognition: r, fileProblem } = await applyWithFiles(
          getDb(),
          getFileStore(),
          user,
          input,
          { id: user.id, client: clientAddress(request) },
          read,
        );
        // a licence unit is refused on the spot: the form says why beside the unit (the refusal stays listed below)
        if (r.status === "refused") {
          const reason = r.reasons ?? "";
          return formFailure(`Refused: ${reason}`, {
            status: 409,
            fieldErrors: { enrollment_id: reason },
            values: { enrollment_id: input.enrollment_id, kind: input.kind },
          });
        }
        const message = fileProblem ? `Application made, but the files were not added: ${fileProblem}` : "Application made";
        return redirectWithFlash(`/student/recognition/${r.id}`, { type: fileProblem ? "error" : "success", message });
      },
    });
  } finally {
    read.dispose();
  }
}

export default function StudentRecognition() {
  const { items, choices, values, failure, query, chosen } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const v = data?.values ?? {};
  const fees = choices.filter((c) => Number(c.rpl_fee_cents) > 0);
  return (
    <>
      <PageTitle
        title="Credit transfer and RPL"
        subtitle="Ask for a unit you already hold, or can already do, to be recognised"
        actions={
          <a href={`/recognition.csv${query}`} className="underline">
            Download CSV
          </a>
        }
      />
      <div className="grid gap-6">
        <TitledCard title="Apply for recognition">
          {choices.length === 0 ? (
            <p className="text-sm text-steel-600">
              None of your current enrolments can apply: each has an application waiting or granted, or you have no current enrolment.
            </p>
          ) : (
            <Form method="post" encType="multipart/form-data" noValidate className="space-y-3">
              <ErrorSummary failure={data} />
              <SelectField
                label="Unit"
                name="enrollment_id"
                placeholder="Choose one of your enrolments"
                defaultValue={v.enrollment_id ?? chosen}
                options={choices.map((c) => ({ value: c.enrollment_id, label: `${c.unit_code} ${c.course_name}` }))}
                error={data?.fieldErrors?.enrollment_id}
              />
              <SelectField
                label="Recognition sought"
                name="kind"
                placeholder="Choose credit transfer or RPL"
                hint={`Credit transfer: you hold the unit (or an equivalent) from another RTO. RPL: you can show you already do the work${
                  fees.length
                    ? `; its fee is invoiced when you apply (${fees.map((c) => `${c.unit_code}: ${formatPrice(Number(c.rpl_fee_cents) / 100)} per unit`).join("; ")})`
                    : ", with no fee"
                }.`}
                defaultValue={v.kind ?? ""}
                options={RECOGNITION_KINDS.map((k) => ({ value: k, label: RECOGNITION_KIND_LABELS[k] }))}
                error={data?.fieldErrors?.kind}
              />
              <TextAreaField
                label="What you hold or have done"
                name="statement"
                rows={4}
                hint="Credit transfer: the document and the RTO that issued it. RPL: the work you have done, where and for how long."
                defaultValue={v.statement ?? ""}
                error={data?.fieldErrors?.statement}
              />
              <div>
                <label htmlFor="recognition-files" className="mb-1 block text-sm font-semibold text-steel-800">
                  Documents and photos
                </label>
                <input
                  id="recognition-files"
                  name="files"
                  type="file"
                  multiple
                  accept={EVIDENCE_ACCEPT}
                  aria-describedby="recognition-files-hint"
                  className="block min-h-11 w-full max-w-full text-sm file:mr-3 file:min-h-11 file:rounded-md file:border file:border-steel-300 file:bg-white file:px-4 file:font-semibold"
                />
                <p id="recognition-files-hint" className="mt-1 text-xs text-steel-500">
                  The other RTO&apos;s certificate or transcript, or evidence of your work: JPEG, PNG, HEIC, PDF or MP4, at most 25 MB each. You can add more
                  later.
                </p>
              </div>
              <SubmitButton busyLabel="Applying...">Apply</SubmitButton>
            </Form>
          )}
        </TitledCard>
        <TitledCard title="Filter">
          <RecognitionFilters values={values} failure={failure} search={false} />
        </TitledCard>
        <TitledCard title="My applications">
          <RecognitionTable items={items} base="/student/recognition" showLearner={false} />
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Credit transfer and RPL | Student Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Credit transfer and RPL" message="Failed to load your applications" />;
}
