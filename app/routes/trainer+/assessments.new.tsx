import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import {
  requireRole,
  getDb,
  recordAssessment,
  ENROLLMENT_OPTION_LIMIT,
  getEnrollmentForTrainer,
  listCurrentEnrollmentOptions,
  answerForm,
  redirectWithFlash,
  clientAddress,
} from "~/routes/trainer+/assessments.new.server";
import { useActionToast } from "~/components/toaster";
import { StatusBadge } from "~/components/status-badges";
import { Alert, Button, ErrorSummary, Modal, SelectField, SubmitButton, TextAreaField, TextField } from "~/components/ui";
import { ASSESSMENT_STATUSES, CURRENT_ENROLLMENT_STATUSES } from "#db/schema";
import { assessmentSchema } from "~/schemas/assessment";
import { organisationToday } from "~/utils/organisation-calendar";
import { ASSESSMENT_TYPES, MAX_SCORE_LIMIT } from "~/schemas/assessment-text";
import { uuid } from "~/schemas/fields";
import { enrollmentOptionQuery } from "~/schemas/page-queries";
import { statusLabel } from "~/utils/format";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const ASSESSMENT_RECORDED = "Assessment recorded successfully";

/**
 * Record an assessment: a modal over the assessments list with its own URL. The enrolment
 * comes from ?enrollment={id} (the Record assessment links) or is chosen in the form.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "trainer");
  const db = getDb();
  const params = new URL(request.url).searchParams;
  const requested = params.get("enrollment");
  const { q } = enrollmentOptionQuery.parse({ q: params.get("q") ?? "" });
  const options = await listCurrentEnrollmentOptions(db, { search: q });
  let selected: string | null = null;
  let notice: string | null = null;
  if (requested && options.some((o) => o.id === requested)) selected = requested;
  else if (requested) {
    const enrollment = uuid.safeParse(requested).success ? await getEnrollmentForTrainer(db, requested) : null;
    if (enrollment && enrollment.student.is_active && (CURRENT_ENROLLMENT_STATUSES as readonly string[]).includes(enrollment.status)) {
      // A current enrolment beyond the listed ones (the Record assessment links): offered first.
      options.unshift({ id: enrollment.id, student_name: enrollment.student.full_name, course_name: enrollment.course.name, status: enrollment.status });
      selected = requested;
    } else {
      notice = enrollment
        ? `${enrollment.student.full_name}'s enrolment in ${enrollment.course.name} is ${statusLabel(enrollment.status).toLowerCase()}${enrollment.student.is_active ? "" : " and their account is inactive"}: assessments can only be recorded for a current enrolment of an active student.`
        : "That enrolment was not found; choose one below.";
    }
  }
  return { q, limit: ENROLLMENT_OPTION_LIMIT, options, selected, notice, today: organisationToday() };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return answerForm(request, {
    schema: assessmentSchema,
    invalid: FIX_HIGHLIGHTED_FIELDS,
    fieldErrors: (error) => (error.status === 404 ? { enrollment_id: "That enrolment was not found" } : error.fieldErrors),
    save: async (input) => {
      await recordAssessment(getDb(), { ...input, actorId: user.id, client: clientAddress(request) });
      return redirectWithFlash("/trainer/assessments", { type: "success", message: ASSESSMENT_RECORDED });
    },
  });
}

export default function RecordAssessment() {
  const { q, limit, options, selected, notice, today } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const [choice, setChoice] = useState(v.enrollment_id ?? selected ?? "");
  const current = options.find((o) => o.id === choice);
  return (
    <Modal title="Record assessment" closeTo="/trainer/assessments" size="lg">
      {/* named: the assessments list behind the dialog has a search of its own */}
      <Form method="get" role="search" aria-label="Student search" className="mb-4 flex items-end gap-2">
        {selected ? <input type="hidden" name="enrollment" value={selected} /> : null}
        <TextField
          label="Find a student"
          name="q"
          type="search"
          defaultValue={q}
          className="flex-1"
          hint={`Name, email or course; the list shows up to ${limit} enrolments`}
        />
        <Button type="submit" variant="secondary">
          Find
        </Button>
      </Form>
      <Form method="post" noValidate className="space-y-4">
        <ErrorSummary failure={data} />
        {notice ? <Alert tone="info">{notice}</Alert> : null}
        <SelectField
          label="Student and course"
          name="enrollment_id"
          required
          defaultValue={v.enrollment_id ?? selected ?? ""}
          onChange={(event) => setChoice(event.currentTarget.value)}
          error={errors.enrollment_id}
          hint={options.length ? "Current enrolments (enrolled or in progress) of active students" : "No current enrolments to assess"}
          options={[
            { value: "", label: "Choose a student's enrolment" },
            ...options.map((o) => ({ value: o.id, label: `${o.student_name} \u2014 ${o.course_name} (${statusLabel(o.status)})` })),
          ]}
        />
        {current ? (
          <p className="-mt-2 text-sm text-steel-700" aria-live="polite">
            Selected: <span className="font-semibold">{current.student_name}</span>, {current.course_name} <StatusBadge status={current.status} />
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Assessment type"
            name="assessment_type"
            required
            defaultValue={v.assessment_type ?? ""}
            error={errors.assessment_type}
            options={[{ value: "", label: "Choose…" }, ...ASSESSMENT_TYPES.map((t) => ({ value: t, label: t }))]}
          />
          <SelectField
            label="Status"
            name="status"
            required
            // no result is assumed: the trainer chooses one
            defaultValue={v.status ?? ""}
            error={errors.status}
            hint="A result recorded for an assessment of this type still in progress completes it"
            options={[{ value: "", label: "Choose…" }, ...ASSESSMENT_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))]}
          />
          <TextField
            label="Score"
            name="score"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_SCORE_LIMIT}
            step={1}
            defaultValue={v.score}
            error={errors.score}
            hint="Whole number, not above the max score"
          />
          <TextField
            label="Max score"
            name="max_score"
            type="number"
            inputMode="numeric"
            min={1}
            max={MAX_SCORE_LIMIT}
            step={1}
            defaultValue={v.max_score ?? "100"}
            error={errors.max_score}
            hint={`Whole number from 1 to ${MAX_SCORE_LIMIT}`}
          />
        </div>
        <p className="text-xs text-steel-600">
          Passed and failed results need a score. An assessment still in progress or awaiting resubmission may leave both scores blank.
        </p>
        <TextField
          label="Assessment date"
          name="assessment_date"
          type="date"
          required
          max={today}
          defaultValue={v.assessment_date ?? today}
          error={errors.assessment_date}
          hint="Not in the future, and not before the training began (its planned start)"
        />
        <TextAreaField
          label="Feedback"
          name="feedback"
          rows={3}
          maxLength={2000}
          defaultValue={v.feedback}
          error={errors.feedback}
          hint="Required for failed and resubmission results, so the student knows what to improve"
        />
        {/* Actions on the left, clear of the toasts in the bottom-right corner. */}
        <div className="flex flex-wrap gap-2 pt-2">
          <SubmitButton busyLabel="Recording...">Record assessment</SubmitButton>
          <Link
            to="/trainer/assessments"
            className="inline-flex min-h-11 items-center rounded-md border border-steel-300 bg-white px-4 py-2 text-sm font-semibold text-steel-800 hover:bg-steel-100"
          >
            Cancel
          </Link>
        </div>
      </Form>
    </Modal>
  );
}

export const meta: MetaFunction = () => [{ title: "Record assessment | Trainer Portal" }];
