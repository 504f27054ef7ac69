import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  getHrwAssessment,
  recordNotice,
  recordNsa,
  recordPartResult,
  rescheduleAssessment,
  latestAen,
  coveringAccreditation,
  stateRulesOn,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
  clientAddress,
  foundOr404,
} from "~/routes/trainer+/hrw_.$id.server";
import { PartsList, StageBadge } from "~/components/hrw/hrw-ui";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Alert, SelectField, SubmitButton, TextField, TitledCard, ErrorSummary, TableScroll } from "~/components/ui";
import { noticeSchema, nsaSchema, partResultSchema, rescheduleSchema } from "~/schemas/hrw";
import { HRW_MESSAGES, hrwDate, LICENCE_CLASSES, NAI_PART_CODES, NAI_PARTS, NAI_RESULT_CODES, NAI_RESULTS, type LicenceClass } from "~/schemas/hrw-codes";
import { clockTime, formatDateTime } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const NOTICE_RECORDED = "Regulator notice recorded";
export const PART_RECORDED = "Result recorded";
export const NSA_RECORDED = "NSA recorded";
export const RESCHEDULED = "Assessment moved";

function loadAssessment(id: string | undefined) {
  return foundOr404(id, (found) => getHrwAssessment(getDb(), found), "Assessment not found");
}

/**
 * One high-risk work assessment: the booking, the regulator's notice, the NAI parts (every
 * result kept) and the NSA. Any trainer may read it; only the booked assessor records, as
 * themselves (the models refuse anyone else).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const assessment = await loadAssessment(params.id);
  const db = getDb();
  const [covered, aen, rules] = await Promise.all([
    coveringAccreditation(db, {
      trainerId: assessment.assessor.id,
      state: assessment.state,
      licenceClass: assessment.licence_class,
      date: assessment.assessment_date,
      recordedBy: new Date().toISOString(),
    }),
    latestAen(db, assessment.candidate.id, assessment.state),
    stateRulesOn(db, assessment.state, assessment.assessment_date),
  ]);
  return {
    assessment,
    mine: assessment.assessor.id === user.id,
    today: organisationToday(),
    lapsed: !covered,
    aen: { needed: rules.flag("aen_required"), recorded: aen },
    noticeEachDay: rules.flag("notice_each_part_day"),
    scheduleDays: rules.number("booking_lead_days"),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const { id } = await loadAssessment(params.id);
  const db = getDb();
  const actor = { id: user.id, client: clientAddress(request) };
  const common = {
    invalid: FIX_HIGHLIGHTED_FIELDS,
  };
  const done = (message: string) => redirectWithFlash(`/trainer/hrw/${id}`, { type: "success", message });
  switch (await formIntent(request)) {
    case "notice":
      return answerForm(request, {
        ...common,
        schema: noticeSchema,
        save: async (input) => (await recordNotice(db, id, input, actor), done(NOTICE_RECORDED)),
      });
    case "part":
      return answerForm(request, {
        ...common,
        schema: partResultSchema,
        save: async (input) => (await recordPartResult(db, id, input, actor), done(PART_RECORDED)),
      });
    case "reschedule":
      return answerForm(request, {
        ...common,
        schema: rescheduleSchema,
        save: async (input) => (await rescheduleAssessment(db, id, input, actor), done(RESCHEDULED)),
      });
    case "nsa":
      return answerForm(request, {
        ...common,
        schema: nsaSchema,
        save: async (input) => (await recordNsa(db, id, input, actor), done(NSA_RECORDED)),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

export default function HrwAssessmentPage() {
  const { assessment: a, mine, today, lapsed, aen, noticeEachDay, scheduleDays } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  const error = (intent: string) => <ErrorSummary failure={failed === intent ? data : null} />;
  const field = (intent: string, name: string) => (failed === intent ? errors[name] : undefined);
  const noticesAsked = Boolean(a.notice_due_on);
  const started = a.assessment_date <= today;
  return (
    <>
      <PageTitle
        title={`${a.licence_class} assessment: ${a.candidate.full_name}`}
        subtitle={
          <>
            <Link to="/trainer/hrw" className="underline">
              Back to HRW licence assessments
            </Link>
            {mine ? (
              <>
                {" "}
                &middot;{" "}
                <Link to={`/trainer/evidence/hrw/${a.id}`} className="underline">
                  Evidence and declarations
                </Link>
              </>
            ) : null}
          </>
        }
        actions={<StageBadge stage={a.stage} />}
      />
      {lapsed && !a.nsa_number ? (
        <div className="mb-4">
          <Alert>{HRW_MESSAGES.accreditationLapsed(a.assessment_date)}</Alert>
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <TitledCard title="Booking">
          <dl className="grid grid-cols-[auto,1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Class</dt>
            <dd>
              {a.licence_class} — {LICENCE_CLASSES[a.licence_class as LicenceClass]} ({a.course.unit_code})
            </dd>
            <dt className="font-semibold">Regulator</dt>
            <dd>{a.state}</dd>
            <dt className="font-semibold">When</dt>
            <dd>
              {hrwDate(a.assessment_date)} at {clockTime(a.start_time)}
              {a.hours ? `, ${a.hours} hours` : ""}
            </dd>
            <dt className="font-semibold">Where</dt>
            <dd>{a.location.name}</dd>
            <dt className="font-semibold">Assessor</dt>
            <dd>
              {a.assessor.full_name}
              {a.accreditation_number ? `, accreditation ${a.accreditation_number}` : ""}
            </dd>
            <dt className="font-semibold">Plant</dt>
            <dd>
              {a.plant_description}, {a.plant_registration}
            </dd>
            <dt className="font-semibold">Regulator notice</dt>
            <dd>
              {a.notices.length
                ? a.notices.map((n) => `${hrwDate(n.held_on)}: ${n.reference} (given ${hrwDate(n.sent_on)})`).join("; ")
                : a.notice_due_on
                  ? HRW_MESSAGES.notifyBy(a.notice_due_on)
                  : "Not required in this state"}
            </dd>
            {aen.needed ? (
              <>
                <dt className="font-semibold">AEN</dt>
                <dd>
                  {aen.recorded ?? (
                    <Link to={`/trainer/hrw/candidates/${a.candidate.id}`} className="underline">
                      Not recorded: record it on the candidate&apos;s checks
                    </Link>
                  )}
                </dd>
              </>
            ) : null}
            <dt className="font-semibold">NSA</dt>
            <dd>{a.nsa_number ? `${a.nsa_number}, ${hrwDate(a.nsa_date!)} (apply by ${hrwDate(a.application_deadline!)})` : "Not issued"}</dd>
          </dl>
        </TitledCard>
        <TitledCard title="NAI parts">
          <PartsList parts={a.parts} />
          {a.history.length ? (
            // four columns of a part's name and two dates are wider than a phone: the table scrolls in its own box
            <TableScroll label="Every NAI part result" className="mt-3">
              <table className="w-full text-left text-sm">
                <caption className="text-left text-xs font-semibold text-steel-600">Every result, reassessments included</caption>
                <thead>
                  <tr>
                    <th scope="col">Part</th>
                    <th scope="col">Result</th>
                    <th scope="col">Assessed</th>
                    <th scope="col">Recorded</th>
                  </tr>
                </thead>
                <tbody>
                  {a.history.map((p) => (
                    <tr key={`${p.part}-${p.recorded_at}`}>
                      <td>{NAI_PARTS[p.part]}</td>
                      <td>{NAI_RESULTS[p.result]}</td>
                      <td>{hrwDate(p.assessed_on)}</td>
                      <td>{formatDateTime(p.recorded_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : null}
        </TitledCard>
        {!mine ? (
          <Alert tone="info">{HRW_MESSAGES.notYourAssessment}.</Alert>
        ) : (
          <>
            {noticesAsked && !a.nsa_number ? (
              <TitledCard title="Regulator notice">
                {!a.notice_reference ? <p className="mb-3 text-sm font-semibold text-amber-900">{HRW_MESSAGES.notifyBy(a.notice_due_on!)}</p> : null}
                {noticeEachDay ? (
                  <p className="mb-3 text-sm text-steel-700">Each part held on a non-consecutive day, and each reassessment, needs its own notice.</p>
                ) : scheduleDays !== null ? (
                  <p className="mb-3 text-sm text-steel-700">
                    Each day a part is held on, a reassessment included, is scheduled with the regulator at least {scheduleDays} days ahead.
                  </p>
                ) : null}
                <Form method="post" noValidate className="space-y-3">
                  {error("notice")}
                  <TextField
                    label="Notice reference"
                    name="notice_reference"
                    required
                    defaultValue={failed === "notice" ? v.notice_reference : undefined}
                    error={field("notice", "notice_reference")}
                    hint="The regulator's reference for this notice"
                  />
                  <TextField
                    label="Day the notice is for"
                    name="held_on"
                    type="date"
                    min={a.assessment_date}
                    defaultValue={failed === "notice" ? v.held_on : a.notice_reference ? undefined : a.assessment_date}
                    error={field("notice", "held_on")}
                    hint="The assessment day it covers"
                  />
                  <TextField
                    label="Day the notice was given"
                    name="sent_on"
                    type="date"
                    max={today}
                    defaultValue={failed === "notice" ? v.sent_on : today}
                    error={field("notice", "sent_on")}
                  />
                  <SubmitButton intent="notice" busyLabel="Saving...">
                    Record notice
                  </SubmitButton>
                </Form>
              </TitledCard>
            ) : null}
            {!a.nsa_number && !started ? (
              <TitledCard title="Record a part result">
                <p className="text-sm text-steel-700">Results can be recorded from {hrwDate(a.assessment_date)}, the day of the assessment.</p>
              </TitledCard>
            ) : null}
            {!a.nsa_number && started ? (
              <TitledCard title="Record a part result">
                <Form method="post" noValidate className="space-y-3">
                  {error("part")}
                  <SelectField
                    label="Part"
                    name="part"
                    required
                    placeholder="Choose the part"
                    defaultValue={failed === "part" ? v.part : ""}
                    error={field("part", "part")}
                    options={NAI_PART_CODES.map((p) => ({
                      value: p,
                      label: NAI_PARTS[p],
                    }))}
                  />
                  <SelectField
                    label="Result"
                    name="result"
                    required
                    placeholder="Choose the result"
                    defaultValue={failed === "part" ? v.result : ""}
                    error={field("part", "result")}
                    options={NAI_RESULT_CODES.map((r) => ({
                      value: r,
                      label: NAI_RESULTS[r],
                    }))}
                  />
                  <TextField
                    label="Date assessed"
                    name="assessed_on"
                    type="date"
                    required
                    min={a.assessment_date}
                    max={today}
                    defaultValue={failed === "part" ? v.assessed_on : undefined}
                    error={field("part", "assessed_on")}
                    hint="A part may be reassessed: the latest result counts, every one is kept"
                  />
                  <SubmitButton intent="part" busyLabel="Saving...">
                    Record result
                  </SubmitButton>
                </Form>
              </TitledCard>
            ) : null}
            {!a.history.length && !a.nsa_number ? (
              <TitledCard title="Move the assessment">
                <Form method="post" noValidate className="space-y-3">
                  {error("reschedule")}
                  <TextField
                    label="New assessment date"
                    name="assessment_date"
                    type="date"
                    required
                    min={today}
                    defaultValue={failed === "reschedule" ? v.assessment_date : a.assessment_date}
                    error={field("reschedule", "assessment_date")}
                  />
                  <TextField
                    label="New start time"
                    name="start_time"
                    type="time"
                    required
                    defaultValue={failed === "reschedule" ? v.start_time : a.start_time}
                    error={field("reschedule", "start_time")}
                  />
                  <SubmitButton intent="reschedule" variant="secondary" busyLabel="Saving...">
                    Move the assessment
                  </SubmitButton>
                </Form>
              </TitledCard>
            ) : null}
            {a.stage === "satisfactory" ? (
              <TitledCard title="Notice of Satisfactory Assessment">
                <Form method="post" noValidate className="space-y-3">
                  {error("nsa")}
                  <TextField
                    label="NSA number"
                    name="nsa_number"
                    required
                    defaultValue={failed === "nsa" ? v.nsa_number : undefined}
                    error={field("nsa", "nsa_number")}
                  />
                  <TextField
                    label="NSA date"
                    name="nsa_date"
                    type="date"
                    required
                    max={today}
                    defaultValue={failed === "nsa" ? v.nsa_date : today}
                    error={field("nsa", "nsa_date")}
                  />
                  <SubmitButton intent="nsa" busyLabel="Saving...">
                    Record NSA
                  </SubmitButton>
                </Form>
              </TitledCard>
            ) : null}
          </>
        )}
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "HRW assessment | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError title="HRW assessment" message="Failed to load the assessment" />;
}
