import { Form } from "@remix-run/react";
import { Alert, SubmitButton } from "~/components/ui";
import { classDates, seatsWording } from "~/schemas/class-text";
import { clockTime, formatDateTime } from "~/utils/format";

/** What the enrolment page shows of a class (docs/decisions/013-classes.md). */
export interface ClassOption {
  id: string;
  start_date: string;
  end_date: string;
  location: string | null;
  trainer_name: string | null;
  seats_left: number;
  sessions: { date: string; starts_at: string; ends_at: string }[];
}

export interface MyWaitlistEntry {
  class_id: string;
  status: string;
  place: number | null;
  offer_expires_at: string | null;
}

function sessionLine(c: ClassOption): string {
  const first = c.sessions[0];
  if (!first) return "";
  const days = c.sessions.length === 1 ? "1 session" : `${c.sessions.length} sessions`;
  return `${days}, from ${clockTime(first.starts_at)}`;
}

/**
 * The radio list of a course's classes inside the enrolment form: the first class with a free
 * seat is chosen until the learner picks another; a full class cannot be chosen (its waitlist
 * is the forms under the enrolment form). Plain inputs, so it works without JavaScript.
 */
export function ClassRadioList({ classes, error, chosen }: { classes: ClassOption[]; error?: string; chosen?: string }) {
  const firstFree = classes.find((c) => c.seats_left > 0)?.id;
  const selected = chosen && classes.some((c) => c.id === chosen && c.seats_left > 0) ? chosen : firstFree;
  return (
    <fieldset aria-describedby={error ? "class-error" : undefined}>
      <legend className="text-sm font-bold text-steel-900">Choose a class</legend>
      <div className="mt-2 space-y-2">
        {classes.map((c) => {
          const full = c.seats_left <= 0;
          return (
            <label key={c.id} className={`flex gap-3 rounded-md border p-3 text-sm ${full ? "border-steel-200 bg-steel-50 text-steel-600" : "border-steel-300 text-steel-800"}`}>
              <input type="radio" name="class_id" value={c.id} defaultChecked={c.id === selected} disabled={full} className="mt-0.5 h-4 w-4 accent-hivis-600" />
              <span>
                <span className="block font-semibold">{classDates(c.start_date, c.end_date)}</span>
                <span className="block">{[c.location, sessionLine(c), c.trainer_name ? `Trainer: ${c.trainer_name}` : null].filter(Boolean).join(" · ")}</span>
                <span className={`block font-semibold ${full ? "text-red-700" : "text-green-800"}`}>{seatsWording(c.seats_left)}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p id="class-error" role="alert" className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Full classes' waitlists, and the learner's own place or offer: one small form each. */
export function WaitlistForms({ classes, mine }: { classes: ClassOption[]; mine: MyWaitlistEntry[] }) {
  const full = classes.filter((c) => c.seats_left <= 0 || mine.some((m) => m.class_id === c.id));
  if (full.length === 0) return null;
  return (
    <section aria-labelledby="waitlist-title" className="mt-6 border-t border-steel-100 pt-4">
      <h3 id="waitlist-title" className="text-sm font-bold text-steel-900">
        Waitlist
      </h3>
      <ul className="mt-2 space-y-3">
        {full.map((c) => {
          const entry = mine.find((m) => m.class_id === c.id);
          const label = classDates(c.start_date, c.end_date);
          return (
            <li key={c.id} className="text-sm text-steel-800">
              <p className="font-semibold">{label}</p>
              {entry?.status === "offered" ? (
                <Form method="post" className="mt-1 space-y-2">
                  <Alert tone="info">{`A seat is kept for you until ${formatDateTime(entry.offer_expires_at)}.`}</Alert>
                  <input type="hidden" name="class_id" value={c.id} />
                  <SubmitButton intent="accept" busyLabel="Accepting..." size="sm">
                    {`Accept the seat (${label})`}
                  </SubmitButton>
                </Form>
              ) : entry ? (
                <Form method="post" className="mt-1 flex flex-wrap items-center gap-2">
                  <span>{`You are number ${entry.place} on the waitlist.`}</span>
                  <input type="hidden" name="class_id" value={c.id} />
                  <SubmitButton intent="leave" busyLabel="Leaving..." size="sm" variant="secondary">
                    {`Leave the waitlist (${label})`}
                  </SubmitButton>
                </Form>
              ) : (
                <Form method="post" className="mt-1">
                  <input type="hidden" name="class_id" value={c.id} />
                  <SubmitButton intent="waitlist" busyLabel="Joining..." size="sm" variant="secondary">
                    {`Join the waitlist (${label})`}
                  </SubmitButton>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
