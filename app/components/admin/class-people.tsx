import type { ClassPeople } from "~/models/class.server";
import { statusLabel, formatDateTime } from "~/utils/format";

/**
 * A class's roster and waitlist as the office sees them: each learner and their enrolment's
 * state; each learner waiting with their place, or the seat offered to them and until when.
 */
export function ClassPeopleLists({ people }: { people: ClassPeople }) {
  return (
    <div className="mt-6 grid gap-6 border-t border-steel-100 pt-4 sm:grid-cols-2">
      <section aria-labelledby="class-roster-title">
        <h3 id="class-roster-title" className="text-base font-bold text-steel-900">
          Learners ({people.learners.length})
        </h3>
        {people.learners.length ? (
          <ul className="mt-2 divide-y divide-steel-100 text-sm">
            {people.learners.map((l) => (
              <li key={l.enrollment_id} className="flex flex-wrap justify-between gap-2 py-1.5">
                <span className="font-medium text-steel-900">{l.full_name}</span>
                <span className="text-steel-600">{statusLabel(l.status)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="mt-2 text-sm text-steel-600">No one is enrolled in this class yet.</p>
        )}
      </section>
      <section aria-labelledby="class-waitlist-title">
        <h3 id="class-waitlist-title" className="text-base font-bold text-steel-900">
          Waitlist ({people.waitlist.length})
        </h3>
        {people.waitlist.length ? (
          <ol className="mt-2 divide-y divide-steel-100 text-sm">
            {people.waitlist.map((w) => (
              <li key={w.student_id} className="flex flex-wrap justify-between gap-2 py-1.5">
                <span className="font-medium text-steel-900">{w.full_name}</span>
                <span className="text-steel-600">
                  {w.status === "offered" ? `Seat offered until ${formatDateTime(w.offer_expires_at)}` : `Number ${w.place} waiting`}
                </span>
              </li>
            ))}
          </ol>
        ) : (
          <p className="mt-2 text-sm text-steel-600">No one is waiting for a seat.</p>
        )}
      </section>
    </div>
  );
}
