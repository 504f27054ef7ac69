import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui";
import { classDates, seatHeldWording, seatsWording } from "~/schemas/class-text";
import { enrolPath } from "~/utils/course-links";
import { formatDateTime, sessionWhen } from "~/utils/format";

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

/** The offer of a seat a learner holds in one of a class's (an entry of `mine` that is offered), or undefined. */
const offerFor = (mine: MyWaitlistEntry[], classId: string) => mine.find((m) => m.class_id === classId && m.status === "offered" && m.offer_expires_at);

/**
 * The radio list of a course's classes inside the enrolment form. A class whose seat is held for
 * this learner (a waitlist offer) is chosen and says until when; otherwise the first class with
 * a free seat is chosen until the learner picks another. A full class cannot be chosen (its
 * waitlist is the forms under the enrolment form). Plain inputs, so it works without JavaScript.
 */
export function ClassRadioList({ classes, error, chosen, mine = [] }: { classes: ClassOption[]; error?: string; chosen?: string; mine?: MyWaitlistEntry[] }) {
  const open = (c: ClassOption) => c.seats_left > 0 || offerFor(mine, c.id) !== undefined;
  const first = classes.find((c) => offerFor(mine, c.id)) ?? classes.find(open);
  const selected = chosen && classes.some((c) => c.id === chosen && open(c)) ? chosen : first?.id;
  return (
    <fieldset id="class_id" tabIndex={-1} aria-describedby={error ? "class-error" : undefined}>
      <legend className="text-sm font-bold text-steel-900">Choose a class</legend>
      <div className="mt-2 space-y-2">
        {classes.map((c) => {
          const offer = offerFor(mine, c.id);
          const full = !open(c);
          return (
            <label
              key={c.id}
              className={`flex gap-3 rounded-md border p-3 text-sm ${full ? "border-steel-200 bg-steel-50 text-steel-600" : "border-steel-300 text-steel-800"}`}
            >
              <input type="radio" name="class_id" value={c.id} defaultChecked={c.id === selected} disabled={full} className="mt-0.5 h-4 w-4 accent-hivis-600" />
              <span>
                <span className="block font-semibold">{classDates(c.start_date, c.end_date)}</span>
                <span className="block">{[c.location, c.trainer_name ? `Trainer: ${c.trainer_name}` : null].filter(Boolean).join(" · ")}</span>
                {/* inside a label only phrasing content is allowed: one line per session, no list */}
                {c.sessions.map((session) => (
                  <span key={`${session.date} ${session.starts_at}`} className="block text-steel-700">
                    {sessionWhen(session)}
                  </span>
                ))}
                <span className={`block font-semibold ${full ? "text-red-700" : "text-green-800"}`}>
                  {offer ? seatHeldWording(formatDateTime(offer.offer_expires_at)) : seatsWording(c.seats_left)}
                </span>
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

/**
 * Seats held for the learner (waitlist offers), first on their dashboard and on the course's
 * enrolment page: the class, until when, and "Accept the seat" (the enrolment page's action, so
 * the dashboard's form posts there too). `showCourse` names each offer's course, for a list that
 * spans courses.
 */
export function SeatOffers({
  offers,
  showCourse = false,
}: {
  offers: (MyWaitlistEntry & { course_id: string; course_name: string; start_date: string; end_date: string })[];
  showCourse?: boolean;
}) {
  const held = offers.filter((o) => o.status === "offered" && o.offer_expires_at);
  if (held.length === 0) return null;
  return (
    <section aria-labelledby="seat-offers-title" className="mb-6 rounded-xl border-2 border-hivis-500 bg-hivis-50 p-4 sm:p-5">
      <h2 id="seat-offers-title" className="text-lg font-bold text-steel-900">
        {held.length === 1 ? "A seat is held for you" : "Seats are held for you"}
      </h2>
      <ul className="mt-3 space-y-4">
        {held.map((o) => {
          const dates = classDates(o.start_date, o.end_date);
          return (
            <li key={o.class_id} className="text-sm text-steel-800">
              <p className="font-semibold text-steel-900">
                {showCourse ? (
                  <Link to={enrolPath(o.course_id)} className="underline underline-offset-4">
                    {`${o.course_name}, class of ${dates}`}
                  </Link>
                ) : (
                  `Class of ${dates}`
                )}
              </p>
              <p>{`${seatHeldWording(formatDateTime(o.offer_expires_at))}. Accept it before then or it goes to the next learner waiting.`}</p>
              <Form method="post" action={enrolPath(o.course_id)} className="mt-2">
                <input type="hidden" name="class_id" value={o.class_id} />
                <SubmitButton intent="accept" busyLabel="Accepting...">
                  {`Accept the seat (${dates})`}
                </SubmitButton>
              </Form>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Full classes' waitlists and the learner's own places on them: one small form each (offers are SeatOffers'). */
export function WaitlistForms({ classes, mine }: { classes: ClassOption[]; mine: MyWaitlistEntry[] }) {
  const full = classes.filter((c) => !offerFor(mine, c.id) && (c.seats_left <= 0 || mine.some((m) => m.class_id === c.id)));
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
              {entry ? (
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
