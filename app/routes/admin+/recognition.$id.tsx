import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  answerRecognitionUpload,
  isMultipart,
  clientAddress,
  listLocations,
  assessorChoicesFor,
  recognitionDecisions,
  assignRecognitionAssessor,
  authenticateCreditTransfer,
  decideRecognition,
  getRecognition,
  recognitionEvidence,
  listRefereeRequests,
  requestRefereeReport,
  bookRecognitionSession,
  cancelRecognitionSession,
  listRecognitionSessions,
  rescheduleRecognitionSession,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
  readOrRefuse,
} from "~/routes/admin+/recognition.$id.server";
import { PageTitle } from "~/components/portal-shell";
import { RecognitionDetails, RecognitionEvidence } from "~/components/recognition/recognition-details";
import { RecognitionHistory } from "~/components/recognition/recognition-history";
import { CompetencySessions, RefereeReports } from "~/components/recognition/rpl-steps";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ErrorSummary, SelectField, SubmitButton, TextAreaField, TextField, TitledCard } from "~/components/ui";
import { recognitionAssignInput, recognitionAuthenticateInput, recognitionDecideInput } from "~/schemas/recognition";
import { refereeRequestInput, sessionBookInput, sessionCancelInput, sessionRescheduleInput } from "~/schemas/recognition-rpl";
import { DECISION_LABELS, EQUIVALENCE_LABELS, EQUIVALENCES } from "~/schemas/recognition-text";
import { organisationToday } from "~/utils/organisation-calendar";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

/**
 * One application for staff. Administrators record a credit transfer's authentication and
 * equivalence and decide it, assign an RPL's credentialed assessor, or refuse an application;
 * the RPL's assessor (trainer.recognition.$id re-exports this page) marks it against the unit's
 * checklist on the evidence page, asks referees for third-party reports, books competency
 * conversations and practical challenges, and decides granted (51) or not granted (52) with reasons.
 */
const basePath = (role: string) => (role === "admin" ? "/admin/recognition" : "/trainer/recognition");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const db = getDb();
  const r = await readOrRefuse(() => getRecognition(db, user, params.id ?? ""));
  const rpl = r.kind === "rpl";
  const [files, history, assessors, referees, sessions, locations] = await Promise.all([
    recognitionEvidence(db, user, r.id),
    recognitionDecisions(db, r),
    // after an upheld appeal, not the assessor whose decision it overturned (where another is credentialed)
    user.role === "admin" && rpl && r.status === "applied" ? assessorChoicesFor(db, r) : Promise.resolve([]),
    rpl ? listRefereeRequests(db, user, r.id) : Promise.resolve([]),
    rpl ? listRecognitionSessions(db, user, r.id) : Promise.resolve([]),
    rpl && r.status === "applied" ? listLocations(db) : Promise.resolve([]),
  ]);
  return {
    r,
    files,
    history,
    assessors,
    referees,
    sessions,
    locations: locations.map((l) => ({ id: l.id, name: l.suburb ? `${l.name}, ${l.suburb}` : l.name })),
    viewer: { id: user.id, role: user.role },
    base: basePath(user.role),
    today: organisationToday(),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "admin", "trainer");
  const db = getDb();
  const r = await readOrRefuse(() => getRecognition(db, user, params.id ?? ""));
  const here = `${basePath(user.role)}/${r.id}`;
  if (isMultipart(request)) return answerRecognitionUpload(request, user, r.id, here);
  const actor = { id: user.id, client: clientAddress(request) };
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  switch (await formIntent(request)) {
    case "authenticate":
      return answerForm(request, {
        ...common,
        schema: recognitionAuthenticateInput,
        save: async (input) => (
          await authenticateCreditTransfer(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: "Authentication recorded" })
        ),
      });
    case "assign":
      return answerForm(request, {
        ...common,
        schema: recognitionAssignInput,
        save: async (input) => (
          await assignRecognitionAssessor(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: "Assessor assigned" })
        ),
      });
    case "decide":
      return answerForm(request, {
        ...common,
        schema: recognitionDecideInput,
        save: async (input) => {
          const decided = await decideRecognition(db, user, r.id, input, actor);
          return redirectWithFlash(here, {
            type: "success",
            message: `Decision recorded and mailed: ${DECISION_LABELS[input.decision].toLowerCase()}${decided.outcome_code ? ` (${decided.outcome_code})` : ""}`,
          });
        },
      });
    case "referee":
      return answerForm(request, {
        ...common,
        schema: refereeRequestInput,
        save: async (input) => (
          await requestRefereeReport(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: `Report asked for: the link is mailed to ${input.referee_name}` })
        ),
      });
    case "book":
      return answerForm(request, {
        ...common,
        schema: sessionBookInput,
        save: async (input) => (
          await bookRecognitionSession(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: "Session booked and mailed to the learner" })
        ),
      });
    case "reschedule":
      return answerForm(request, {
        ...common,
        schema: sessionRescheduleInput,
        save: async (input) => (
          await rescheduleRecognitionSession(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: "Session moved and mailed to the learner" })
        ),
      });
    case "cancel-session":
      return answerForm(request, {
        ...common,
        schema: sessionCancelInput,
        save: async (input) => (
          await cancelRecognitionSession(db, user, r.id, input, actor),
          redirectWithFlash(here, { type: "success", message: "Session cancelled and the learner told" })
        ),
      });
    default:
      return formFailure(FORM_UNREADABLE);
  }
}

const AUTH_FIELDS = ["issuing_rto_code", "document_number", "checked_how", "checked_on", "equivalence", "held_unit_code", "mapping"] as const;

export default function RecognitionItemPage() {
  const { r, files, history, assessors, referees, sessions, locations, viewer, base, today } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const failed = data?.values?.intent;
  const v = (intent: string, name: string) => (failed === intent ? data?.values?.[name] : undefined);
  const err = (intent: string, name: string) => (failed === intent ? data?.fieldErrors?.[name] : undefined);
  const admin = viewer.role === "admin";
  const isAssessor = r.assessor?.id === viewer.id;
  const open = r.status === "applied";
  const decisions: ("granted" | "not_granted" | "refused")[] =
    r.kind === "credit_transfer" ? (admin ? ["granted", "refused"] : []) : isAssessor ? ["granted", "not_granted"] : admin ? ["refused"] : [];
  return (
    <>
      <PageTitle
        title={r.title}
        subtitle={r.student.full_name}
        actions={
          <Link to={base} className="underline">
            Back to the register
          </Link>
        }
      />
      <div className="grid gap-6">
        <RecognitionDetails r={r} />
        <RecognitionHistory decisions={history} waiting={open} />
        {r.kind === "rpl" && (isAssessor || admin) ? (
          <p className="text-sm">
            <Link to={`/${admin ? "admin" : "trainer"}/evidence/recognition/${r.id}`} className="inline-flex min-h-11 items-center font-semibold underline">
              Assess against the unit&apos;s checklist
            </Link>
          </p>
        ) : null}
        <RecognitionEvidence
          files={files}
          mayAdd={open && (admin || isAssessor)}
          error={failed === "upload" ? (data?.fieldErrors?.files ?? data?.error) : null}
        />
        {r.kind === "rpl" ? (
          <>
            <RefereeReports requests={referees} mayRequest={open && (admin || isAssessor)} failure={data} />
            {/* a session is the assessor's: none is booked before one is assigned */}
            <CompetencySessions
              sessions={sessions}
              manage={open && (admin || isAssessor) && r.assessor !== null}
              locations={locations}
              today={today}
              failure={data}
            />
          </>
        ) : null}

        {open && admin && r.kind === "credit_transfer" ? (
          <TitledCard title="Authentication and equivalence">
            <Form method="post" noValidate className="grid gap-3 sm:grid-cols-2">
              {failed === "authenticate" ? <ErrorSummary failure={data} only={AUTH_FIELDS} /> : null}
              <TextField
                label="Issuing RTO code"
                name="issuing_rto_code"
                inputMode="numeric"
                defaultValue={v("authenticate", "issuing_rto_code") ?? r.authentication?.issuing_rto_code}
                error={err("authenticate", "issuing_rto_code")}
              />
              <TextField
                label="Document number"
                name="document_number"
                defaultValue={v("authenticate", "document_number") ?? r.authentication?.document_number}
                error={err("authenticate", "document_number")}
              />
              <TextAreaField
                className="sm:col-span-2"
                label="How it was checked"
                name="checked_how"
                rows={3}
                hint="For example: confirmed with the issuing RTO by phone, or checked in the USI transcript"
                defaultValue={v("authenticate", "checked_how") ?? r.authentication?.checked_how}
                error={err("authenticate", "checked_how")}
              />
              <TextField
                label="Date checked"
                name="checked_on"
                type="date"
                max={today}
                defaultValue={v("authenticate", "checked_on") ?? r.authentication?.checked_on ?? today}
                error={err("authenticate", "checked_on")}
              />
              <SelectField
                label="Equivalence"
                name="equivalence"
                placeholder="Choose"
                defaultValue={v("authenticate", "equivalence") ?? r.equivalence?.kind ?? ""}
                options={EQUIVALENCES.map((e) => ({ value: e, label: EQUIVALENCE_LABELS[e] }))}
                error={err("authenticate", "equivalence")}
              />
              <TextField
                label="Unit held"
                name="held_unit_code"
                hint="When not the same unit"
                defaultValue={v("authenticate", "held_unit_code") ?? r.equivalence?.held_unit_code ?? ""}
                error={err("authenticate", "held_unit_code")}
              />
              <TextAreaField
                className="sm:col-span-2"
                label="Mapping"
                name="mapping"
                rows={2}
                defaultValue={v("authenticate", "mapping") ?? r.equivalence?.mapping ?? ""}
                error={err("authenticate", "mapping")}
              />
              <div className="sm:col-span-2">
                <SubmitButton intent="authenticate" busyLabel="Saving...">
                  Record authentication
                </SubmitButton>
              </div>
            </Form>
          </TitledCard>
        ) : null}

        {open && admin && r.kind === "rpl" ? (
          <TitledCard title="Assessor">
            <Form method="post" noValidate className="space-y-3">
              {failed === "assign" ? <ErrorSummary failure={data} only={["assessor_id"]} /> : null}
              <SelectField
                label="Assessor"
                name="assessor_id"
                hint="Trainers the credential matrix holds current for this unit today"
                placeholder={assessors.length ? "Choose a trainer" : "No trainer is credentialed for this unit"}
                defaultValue={v("assign", "assessor_id") ?? r.assessor?.id ?? ""}
                options={assessors.map((a) => ({ value: a.id, label: a.full_name }))}
                error={err("assign", "assessor_id")}
              />
              <SubmitButton intent="assign" busyLabel="Saving...">
                Assign assessor
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}

        {open && decisions.length ? (
          <TitledCard title="Decide">
            <Form method="post" noValidate className="space-y-3">
              {failed === "decide" ? <ErrorSummary failure={data} only={["decision", "reasons"]} /> : null}
              <SelectField
                label="Decision"
                name="decision"
                placeholder="Choose the decision"
                defaultValue={v("decide", "decision") ?? ""}
                options={decisions.map((d) => ({ value: d, label: DECISION_LABELS[d] }))}
                error={err("decide", "decision")}
              />
              <TextAreaField
                label="Reasons"
                name="reasons"
                rows={4}
                hint="Mailed to the learner, who may appeal"
                defaultValue={v("decide", "reasons") ?? ""}
                error={err("decide", "reasons")}
              />
              <SubmitButton intent="decide" busyLabel="Saving...">
                Record the decision
              </SubmitButton>
            </Form>
          </TitledCard>
        ) : null}
      </div>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.r.title ?? "Application"} | Recognition` }];

export function ErrorBoundary() {
  return <RouteError title="Credit transfer and RPL" message="This application could not be found" />;
}
