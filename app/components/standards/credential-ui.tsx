import { Form, Link } from "@remix-run/react";
import { Badge, type BadgeTone, ErrorSummary, SelectField, SubmitButton, TableScroll, TextAreaField, TextField, TitledCard } from "~/components/ui";
import type { SummarisedFailure } from "~/components/ui";
import { EVIDENCE_ACCEPT } from "~/files/types";
import { ACTIVITY_KIND_CODES, ACTIVITY_KINDS, MATRIX_STATES, type MatrixState } from "~/schemas/standards-text";
import { formatDate } from "~/utils/format";

/** The pieces of trainer credential pages (admin and trainer) and the credential matrix. */

interface Activity {
  id: string;
  kind_label: string;
  activity_date: string;
  hours: number;
  description: string;
  evidence: string | null;
  evidence_file: string | null;
  confirmed: { by: string; at: string } | null;
}

interface Profile {
  trainer: { full_name: string };
  credentials: Array<{ id: string; label: string; issued_on: string; expires_on: string | null }>;
  currency: { months: number; industry_hours: number; development_hours: number; unconfirmed: number };
  standing: string | null;
}

/** Where the trainer stands today and their confirmed hours in the last 12 months. */
export function CredentialSummary({ profile }: { profile: Profile }) {
  return (
    <TitledCard title="Standing today">
      <p className="text-sm">{profile.standing ?? `${profile.trainer.full_name} holds a training and assessment credential today.`}</p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {profile.credentials.map((c) => (
          <li key={c.id}>
            {c.label}: from {formatDate(c.issued_on)}
            {c.expires_on ? `, expires ${formatDate(c.expires_on)}` : ", no expiry"}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        Confirmed in the last {profile.currency.months} months: {profile.currency.industry_hours} hours of industry currency,{" "}
        {profile.currency.development_hours} hours of professional development
        {profile.currency.unconfirmed ? ` (${profile.currency.unconfirmed} waiting for confirmation)` : ""}.
      </p>
    </TitledCard>
  );
}

/** The activities, newest first; administrators get a Confirm button on each unconfirmed one. */
export function ActivityList({ activities, confirmIntent }: { activities: Activity[]; confirmIntent?: string }) {
  if (!activities.length) return <p className="text-sm">No activities recorded.</p>;
  return (
    <ul className="space-y-3 text-sm">
      {activities.map((a) => (
        <li key={a.id} className="flex flex-wrap items-start justify-between gap-2">
          <span>
            <span className="font-semibold">
              {formatDate(a.activity_date)}, {a.kind_label}, {a.hours} h
            </span>
            : {a.description}
            {a.evidence ? <span className="block text-steel-600">Evidence: {a.evidence}</span> : null}
            {a.evidence_file ? (
              <a href={`/trainer-activities/${a.id}/evidence`} className="block break-all underline" download>
                Download {a.evidence_file}
              </a>
            ) : null}
            <span className="block">
              {a.confirmed ? <Badge tone="green">Confirmed by {a.confirmed.by}</Badge> : <Badge tone="amber">Waiting for confirmation</Badge>}
            </span>
          </span>
          {confirmIntent && !a.confirmed ? (
            <Form method="post">
              <input type="hidden" name="activity_id" value={a.id} />
              <SubmitButton
                intent={confirmIntent}
                variant="secondary"
                size="sm"
                busyLabel="Confirming..."
                aria-label={`Confirm the activity of ${formatDate(a.activity_date)}`}
              >
                Confirm
              </SubmitButton>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

const ACTIVITY_FIELDS = ["kind", "activity_date", "hours", "description", "evidence", "evidence_file"];

/** Adds an activity (intent "activity"); re-renders what was typed when it fails. */
export function ActivityForm({ failure }: { failure: (SummarisedFailure & { values?: Record<string, string> }) | null | undefined }) {
  const v = failure?.values ?? {};
  const e = failure?.fieldErrors ?? {};
  return (
    <Form method="post" encType="multipart/form-data" noValidate className="mt-4 space-y-3">
      {failure ? <ErrorSummary failure={failure} only={ACTIVITY_FIELDS} /> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField
          label="Kind"
          name="kind"
          defaultValue={v.kind ?? "industry"}
          error={e.kind}
          options={ACTIVITY_KIND_CODES.map((k) => ({ value: k, label: ACTIVITY_KINDS[k] }))}
        />
        <TextField label="Activity date" name="activity_date" type="date" required defaultValue={v.activity_date} error={e.activity_date} />
        <TextField label="Hours" name="hours" inputMode="decimal" required defaultValue={v.hours} error={e.hours} />
      </div>
      <TextAreaField label="What was done" name="description" rows={2} required defaultValue={v.description} error={e.description} />
      <TextField label="Evidence (what shows it)" name="evidence" defaultValue={v.evidence} error={e.evidence} />
      <TextField
        label="Evidence file (optional)"
        name="evidence_file"
        type="file"
        accept={EVIDENCE_ACCEPT}
        hint="A certificate, letter or photo: JPEG, PNG, HEIC, PDF or MP4, at most 25 MB"
        error={e.evidence_file}
        className="max-w-full"
      />
      <SubmitButton intent="activity" busyLabel="Adding...">
        Add activity
      </SubmitButton>
    </Form>
  );
}

const STATE_TONES: Record<MatrixState, BadgeTone> = { held: "green", expiring: "amber", missing: "red" };

interface Matrix {
  courses: Array<{ id: string; name: string; unit_code: string }>;
  trainers: Array<{ id: string; full_name: string; credential: string | null; standing: string | null }>;
  cells: Record<string, Record<string, { state: MatrixState; reason: string | null; expires_on: string | null }>>;
}

/** Courses (their units) by trainers: held, expiring or missing, each missing or expiring cell with its reason. */
export function CredentialMatrixTable({ matrix }: { matrix: Matrix }) {
  return (
    <TableScroll label="Credential matrix: courses by trainers">
      <table className="min-w-full text-sm">
        <thead>
          <tr className="border-b border-steel-200 text-left">
            <th scope="col" className="px-3 py-2">
              Course (unit)
            </th>
            {matrix.trainers.map((t) => (
              <th key={t.id} scope="col" className="px-3 py-2">
                <Link to={`/admin/credentials/${t.id}`} className="underline">
                  {t.full_name}
                </Link>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.courses.map((c) => (
            <tr key={c.id} className="border-b border-steel-100 align-top">
              <th scope="row" className="px-3 py-2 text-left font-normal">
                {c.name} <span className="text-steel-600">({c.unit_code})</span>
              </th>
              {matrix.trainers.map((t) => {
                const cell = matrix.cells[t.id]?.[c.id];
                if (!cell) return <td key={t.id} />;
                return (
                  <td key={t.id} className="px-3 py-2" data-cell={`${t.full_name} / ${c.unit_code}`}>
                    <Badge tone={STATE_TONES[cell.state]}>{MATRIX_STATES[cell.state]}</Badge>
                    {cell.state === "expiring" && cell.expires_on ? <span className="block text-xs">until {formatDate(cell.expires_on)}</span> : null}
                    {cell.state === "missing" && cell.reason ? <span className="sr-only">{cell.reason}</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
