import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { Button, buttonClasses, ErrorSummary, SelectField, SubmitButton, TextField, type SummarisedFailure } from "~/components/ui";
import { sessionFieldId, type SessionRow } from "~/schemas/class-session-rows";

export interface ClassFormValues {
  sessions: SessionRow[];
  location_id: string;
  trainer_id: string;
  seats: string;
}

const BLANK: SessionRow = { date: "", starts_at: "", ends_at: "" };

/** The rows a failed or edited form sends back (the form's repeated fields, kept joined by commas: dates and times have none). */
export function sessionRowsFromValues(values: Record<string, string | undefined>): SessionRow[] | null {
  if (values.session_date === undefined && values.session_start === undefined && values.session_end === undefined) return null;
  const split = (v?: string) => (v === undefined ? [] : v.split(","));
  const dates = split(values.session_date);
  const starts = split(values.session_start);
  const ends = split(values.session_end);
  const count = Math.max(dates.length, starts.length, ends.length);
  return Array.from({ length: count }, (_, i) => ({ date: dates[i] ?? "", starts_at: starts[i] ?? "", ends_at: ends[i] ?? "" }));
}

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * The add and edit class form (a modal over the course list). One row per session: a date and
 * its start and end times on the RTO's clock, in fields made for them; the class's first and
 * last day follow from its sessions. "Add a session" and each row's "Remove" post the form back
 * with the rows changed (nothing is saved) so they work without JavaScript; with JavaScript they
 * change the rows in place.
 */
export function ClassForm({
  values,
  failure,
  focusRow,
  trainers,
  locations,
  closeTo,
  submitLabel,
}: {
  values: ClassFormValues;
  failure?: SummarisedFailure | null;
  /** the row to put the cursor in (one just added without JavaScript) */
  focusRow?: number | null;
  trainers: { id: string; full_name: string }[];
  locations: { id: string; name: string }[];
  closeTo: string;
  submitLabel: string;
}) {
  const errors = failure?.fieldErrors ?? {};
  const hydrated = useHydrated();
  const next = useRef(0);
  const keyed = (row: SessionRow) => ({ ...row, key: next.current++ });
  const [rows, setRows] = useState(() => (values.sessions.length ? values.sessions : [BLANK]).map(keyed));
  const [focus, setFocus] = useState<number | null>(focusRow ?? null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focus === null || !hydrated) return;
    formRef.current?.querySelector<HTMLInputElement>(`#${sessionFieldId("session_date", focus)}`)?.focus();
  }, [focus, hydrated, rows.length]);

  return (
    <Form ref={formRef} method="post" noValidate className="space-y-4">
      {/* pressing Enter in a field saves, not the first Remove button */}
      <button type="submit" name="intent" value="save" tabIndex={-1} aria-hidden="true" className="sr-only">
        {submitLabel}
      </button>
      <ErrorSummary failure={failure} />
      <fieldset className="rounded-md border border-steel-200 p-3" aria-describedby={errors.sessions ? "sessions-error" : "sessions-hint"}>
        <legend className="px-1 text-sm font-semibold text-steel-800">Sessions</legend>
        <p id="sessions-hint" className="mb-2 text-xs text-steel-600">
          Each day of the class with its start and end time, Sydney time. The class runs from its first session to its last.
        </p>
        <ol id="sessions" tabIndex={-1} className="space-y-3">
          {rows.map((row, i) => (
            <li
              key={row.key}
              className="grid grid-cols-1 items-end gap-2 rounded-md bg-steel-50 p-2 min-[420px]:grid-cols-2 sm:grid-cols-[1fr_9.5rem_9.5rem_auto]"
            >
              <TextField
                className="min-[420px]:col-span-2 sm:col-span-1"
                label={`Session ${i + 1} date`}
                id={sessionFieldId("session_date", i)}
                name="session_date"
                type="date"
                defaultValue={row.date}
                error={errors[sessionFieldId("session_date", i)]}
                autoFocus={!hydrated && focusRow === i}
              />
              <TextField
                label={`Session ${i + 1} starts`}
                id={sessionFieldId("session_start", i)}
                name="session_start"
                type="time"
                defaultValue={row.starts_at}
                error={errors[sessionFieldId("session_start", i)]}
              />
              <TextField
                label={`Session ${i + 1} ends`}
                id={sessionFieldId("session_end", i)}
                name="session_end"
                type="time"
                defaultValue={row.ends_at}
                error={errors[sessionFieldId("session_end", i)]}
              />
              <Button
                type="submit"
                name="intent"
                value={`remove-session-${i}`}
                variant="ghost"
                size="sm"
                className="justify-self-start min-[420px]:col-span-2 sm:col-span-1"
                disabled={rows.length === 1}
                onClick={(event) => {
                  if (!hydrated) return;
                  event.preventDefault();
                  setRows((current) => current.filter((r) => r.key !== row.key));
                  setFocus(null);
                }}
              >
                Remove<span className="sr-only"> session {i + 1}</span>
              </Button>
            </li>
          ))}
        </ol>
        {errors.sessions ? (
          <p id="sessions-error" className="mt-2 text-sm font-medium text-red-700">
            {errors.sessions}
          </p>
        ) : null}
        <Button
          type="submit"
          name="intent"
          value="add-session"
          variant="secondary"
          size="sm"
          className="mt-3"
          onClick={(event) => {
            if (!hydrated) return;
            event.preventDefault();
            setRows((current) => [...current, keyed(BLANK)]);
            setFocus(rows.length);
          }}
        >
          Add a session
        </Button>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField
          label="Delivery location"
          name="location_id"
          defaultValue={values.location_id}
          error={errors.location_id}
          options={locations.map((l) => ({ value: l.id, label: l.name }))}
        />
        <SelectField
          label="Trainer"
          name="trainer_id"
          defaultValue={values.trainer_id}
          error={errors.trainer_id}
          options={[{ value: "", label: "Choose a trainer" }, ...trainers.map((t) => ({ value: t.id, label: t.full_name }))]}
        />
        <TextField label="Seats" name="seats" type="number" min={1} max={100} defaultValue={values.seats} error={errors.seats} required />
      </div>
      <div className="flex flex-wrap justify-end gap-2 border-t border-steel-100 pt-4">
        <Link to={closeTo} preventScrollReset className={buttonClasses("secondary")}>
          Close
        </Link>
        <SubmitButton intent="save" busyLabel="Saving...">
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * The form's values and failure after an answer: a row button's rows, a failed save's values as
 * typed, else `initial` (a new class's defaults or the class as saved).
 */
export function classFormState(
  data: { rows: SessionRow[]; values: Record<string, string>; focusRow: number | null } | (SummarisedFailure & { values: Record<string, string> }) | undefined,
  initial: ClassFormValues,
): { values: ClassFormValues; failure: SummarisedFailure | null; focusRow: number | null } {
  if (!data) return { values: initial, failure: null, focusRow: null };
  const v = data.values;
  const sessions = "rows" in data ? data.rows : (sessionRowsFromValues(v) ?? initial.sessions);
  return {
    values: { sessions, location_id: v.location_id ?? initial.location_id, trainer_id: v.trainer_id ?? initial.trainer_id, seats: v.seats ?? initial.seats },
    failure: "rows" in data ? null : data,
    focusRow: "rows" in data ? data.focusRow : null,
  };
}
