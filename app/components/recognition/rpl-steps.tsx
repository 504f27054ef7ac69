import type { ReactNode } from "react";
import { Form } from "@remix-run/react";
import { Badge, ErrorSummary, SelectField, SubmitButton, TextAreaField, TextField, TitledCard } from "~/components/ui";
import type { RecognitionSessionKind } from "#db/schema-recognition";
import { RECOGNITION_SESSION_KINDS, REFEREE_LINK_DAYS, SESSION_KIND_LABELS, SESSION_MINUTES } from "~/schemas/recognition-rpl-text";
import { formatDate, formatDateTime } from "~/utils/format";
import { sessionWhen as when } from "./upcoming-rpl-sessions";

/**
 * An RPL's third-party reports and competency sessions on the application's pages
 * (docs/decisions/037-recognition.md): staff see the reports and book, move and cancel sessions;
 * the learner sees who was asked, whether the report arrived, and their sessions.
 */

export interface RefereeRequestView {
  id: string;
  referee_name: string;
  referee_email: string | null;
  relationship: string | null;
  requested_at: string;
  expires_at: string;
  submitted_at: string | null;
  state: "waiting" | "received" | "expired";
  report: {
    name: string;
    role: string;
    organisation: string;
    phone: string;
    known_how: string;
    work_witnessed: string;
    worked_from: string;
    worked_to: string;
  } | null;
}

export interface SessionView {
  id: string;
  kind: RecognitionSessionKind;
  title: string;
  assessor: { full_name: string };
  session_date: string;
  starts_at: string;
  ends_at: string;
  location: { id: string; name: string };
  notes: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
}

/** What a failed submission hands back, with the intent of the form it came from. */
export interface StepFailure {
  error?: string | null;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
  submittedAt?: number;
}

const STATE_WORDS = { waiting: "Waiting", received: "Received", expired: "Link expired" } as const;
const STATE_TONES = { waiting: "amber", received: "green", expired: "grey" } as const;

function Pair({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-[12rem_1fr]">
      <dt className="font-semibold text-steel-700">{label}</dt>
      <dd className="whitespace-pre-line break-words">{children}</dd>
    </div>
  );
}

/** The reports asked for, what each referee wrote (staff), and the form that asks another. */
export function RefereeReports({ requests, mayRequest, failure }: { requests: RefereeRequestView[]; mayRequest: boolean; failure?: StepFailure | null }) {
  const failed = failure?.values?.intent === "referee" ? failure : null;
  return (
    <TitledCard title="Third-party reports">
      {requests.length === 0 ? <p className="text-sm text-steel-600">No report asked for yet.</p> : null}
      <ul className="space-y-4 text-sm" aria-label="Third-party reports">
        {requests.map((q) => (
          <li key={q.id} className="rounded-md border border-steel-200 p-3">
            <p className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{q.referee_name}</span>
              {q.relationship ? <span className="text-steel-600">{q.relationship}</span> : null}
              <Badge tone={STATE_TONES[q.state]}>{STATE_WORDS[q.state]}</Badge>
            </p>
            <p className="text-steel-600">
              Asked {formatDateTime(q.requested_at)}
              {q.referee_email ? ` at ${q.referee_email}` : ""};{" "}
              {q.submitted_at ? `received ${formatDateTime(q.submitted_at)}` : `the link works until ${formatDateTime(q.expires_at)}`}
            </p>
            {q.report ? (
              <dl className="mt-3 grid gap-2">
                <Pair label="Reported by">{`${q.report.name}, ${q.report.role}, ${q.report.organisation}`}</Pair>
                <Pair label="Phone">{q.report.phone}</Pair>
                <Pair label="How they know the learner">{q.report.known_how}</Pair>
                <Pair label="Period">{`${formatDate(q.report.worked_from)} to ${formatDate(q.report.worked_to)}`}</Pair>
                <Pair label="Work they saw">{q.report.work_witnessed}</Pair>
              </dl>
            ) : null}
          </li>
        ))}
      </ul>
      {mayRequest ? (
        <Form method="post" noValidate className="mt-4 grid gap-3 sm:grid-cols-2">
          {failed ? <ErrorSummary failure={failed} only={["referee_name", "referee_email", "relationship"]} /> : null}
          <TextField
            label="Referee's name"
            name="referee_name"
            autoComplete="off"
            defaultValue={failed?.values?.referee_name ?? ""}
            error={failed?.fieldErrors?.referee_name}
          />
          <TextField
            label="Referee's email"
            name="referee_email"
            type="email"
            autoComplete="off"
            defaultValue={failed?.values?.referee_email ?? ""}
            error={failed?.fieldErrors?.referee_email}
          />
          <TextField
            className="sm:col-span-2"
            label="Relationship or employer"
            name="relationship"
            hint="Optional: for example, site supervisor at Acme Cranes"
            defaultValue={failed?.values?.relationship ?? ""}
            error={failed?.fieldErrors?.relationship}
          />
          <p className="text-xs text-steel-600 sm:col-span-2">The referee is mailed a link to a report form; it works once, for {REFEREE_LINK_DAYS} days.</p>
          <div className="sm:col-span-2">
            <SubmitButton intent="referee" busyLabel="Sending...">
              Ask for a report
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </TitledCard>
  );
}

function minutesOf(s: SessionView) {
  const [sh, sm] = s.starts_at.split(":").map(Number) as [number, number];
  const [eh, em] = s.ends_at.split(":").map(Number) as [number, number];
  return eh * 60 + em - (sh * 60 + sm);
}

function TimeFields({
  prefix,
  today,
  locations,
  values,
  errors,
  session,
}: {
  prefix: string;
  today: string;
  locations: { id: string; name: string }[];
  values: Record<string, string>;
  errors: Record<string, string>;
  session?: SessionView;
}) {
  const id = (name: string) => (session ? `${name}-${session.id}` : errors[name] ? name : `${prefix}-${name}`);
  return (
    <>
      <TextField
        id={id("session_date")}
        label="Date"
        name="session_date"
        type="date"
        min={today}
        defaultValue={values.session_date ?? session?.session_date ?? ""}
        error={errors.session_date}
      />
      <TextField
        id={id("starts_at")}
        label="Start time"
        name="starts_at"
        type="time"
        defaultValue={values.starts_at ?? session?.starts_at ?? ""}
        error={errors.starts_at}
      />
      <TextField
        id={id("duration_minutes")}
        label="Duration (minutes)"
        name="duration_minutes"
        type="number"
        inputMode="numeric"
        min={SESSION_MINUTES.min}
        max={SESSION_MINUTES.max}
        defaultValue={values.duration_minutes ?? (session ? String(minutesOf(session)) : "60")}
        error={errors.duration_minutes}
      />
      <SelectField
        id={id("location_id")}
        label="Location"
        name="location_id"
        placeholder="Choose a location"
        defaultValue={values.location_id ?? session?.location.id ?? ""}
        options={locations.map((l) => ({ value: l.id, label: l.name }))}
        error={errors.location_id}
      />
      <TextAreaField
        id={id("notes")}
        className="sm:col-span-2"
        label="Notes for the learner"
        name="notes"
        rows={2}
        hint="Optional: what to bring or prepare"
        defaultValue={values.notes ?? session?.notes ?? ""}
        error={errors.notes}
      />
    </>
  );
}

const TIME_FIELDS = ["session_date", "starts_at", "duration_minutes", "location_id", "notes"] as const;

/** The sessions booked, with (for staff) moving and cancelling each, and the form that books one. */
export function CompetencySessions({
  sessions,
  manage,
  locations = [],
  today,
  failure,
}: {
  sessions: SessionView[];
  manage: boolean;
  locations?: { id: string; name: string }[];
  today: string;
  failure?: StepFailure | null;
}) {
  const intent = failure?.values?.intent;
  const failedFor = (name: string, sessionId?: string) => (intent === name && (!sessionId || failure?.values?.session_id === sessionId) ? failure : null);
  const book = failedFor("book");
  return (
    <TitledCard title="Competency sessions">
      {sessions.length === 0 ? <p className="text-sm text-steel-600">No competency conversation or practical challenge booked.</p> : null}
      <ul className="space-y-3 text-sm" aria-label="Competency sessions">
        {sessions.map((s) => {
          const move = failedFor("reschedule", s.id);
          const cancel = failedFor("cancel-session", s.id);
          return (
            <li key={s.id} className="rounded-md border border-steel-200 p-3">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold">{s.title}</span>
                {s.cancelled_at ? <Badge tone="grey">Cancelled</Badge> : null}
              </p>
              <p className={s.cancelled_at ? "text-steel-500 line-through" : undefined}>
                <time dateTime={s.session_date}>{when(s)}</time> at {s.location.name}, with {s.assessor.full_name}
              </p>
              {s.notes ? <p className="whitespace-pre-line text-steel-700">{s.notes}</p> : null}
              {s.cancel_reason ? <p className="text-steel-700">Cancelled: {s.cancel_reason}</p> : null}
              {manage && !s.cancelled_at ? (
                <div className="mt-2 grid gap-2">
                  <details open={Boolean(move)}>
                    <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold underline">Move this session</summary>
                    <Form method="post" noValidate className="mt-2 grid gap-3 sm:grid-cols-2">
                      {move ? (
                        <ErrorSummary failure={move} only={TIME_FIELDS} fieldIds={Object.fromEntries(TIME_FIELDS.map((f) => [f, `${f}-${s.id}`]))} />
                      ) : null}
                      <input type="hidden" name="session_id" value={s.id} />
                      <TimeFields
                        prefix={`move-${s.id}`}
                        today={today}
                        locations={locations}
                        values={move?.values ?? {}}
                        errors={move?.fieldErrors ?? {}}
                        session={s}
                      />
                      <div className="sm:col-span-2">
                        <SubmitButton intent="reschedule" busyLabel="Saving...">
                          Move the session
                        </SubmitButton>
                      </div>
                    </Form>
                  </details>
                  <details open={Boolean(cancel)}>
                    <summary className="inline-flex min-h-11 cursor-pointer items-center font-semibold underline">Cancel this session</summary>
                    <Form method="post" noValidate className="mt-2 space-y-3">
                      {cancel ? <ErrorSummary failure={cancel} only={["cancel_reason"]} fieldIds={{ cancel_reason: `cancel_reason-${s.id}` }} /> : null}
                      <input type="hidden" name="session_id" value={s.id} />
                      <TextAreaField
                        id={`cancel_reason-${s.id}`}
                        label="Why it is cancelled"
                        name="cancel_reason"
                        rows={2}
                        hint="Mailed to the learner"
                        defaultValue={cancel?.values?.cancel_reason ?? ""}
                        error={cancel?.fieldErrors?.cancel_reason}
                      />
                      <SubmitButton intent="cancel-session" variant="secondary" busyLabel="Cancelling...">
                        Cancel the session
                      </SubmitButton>
                    </Form>
                  </details>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {manage ? (
        <Form method="post" noValidate className="mt-4 grid gap-3 sm:grid-cols-2">
          <h3 className="text-base font-semibold sm:col-span-2">Book a session</h3>
          {book ? <ErrorSummary failure={book} only={["kind", ...TIME_FIELDS]} /> : null}
          <SelectField
            className="sm:col-span-2"
            id={book?.fieldErrors?.kind ? "kind" : "book-kind"}
            label="Kind of session"
            name="kind"
            placeholder="Choose"
            defaultValue={book?.values?.kind ?? ""}
            options={RECOGNITION_SESSION_KINDS.map((k) => ({ value: k, label: SESSION_KIND_LABELS[k] }))}
            error={book?.fieldErrors?.kind}
          />
          <TimeFields prefix="book" today={today} locations={locations} values={book?.values ?? {}} errors={book?.fieldErrors ?? {}} />
          <div className="sm:col-span-2">
            <SubmitButton intent="book" busyLabel="Booking...">
              Book the session
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </TitledCard>
  );
}
