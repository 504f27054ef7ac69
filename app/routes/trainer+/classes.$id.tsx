import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  data,
  requireRole,
  getDb,
  getRoster,
  markAttendance,
  classReviews,
  redirectWithFlash,
  answerForm,
  foundOr404,
  clientAddress,
} from "~/routes/trainer+/classes.$id.server";
import { Link, useActionData, useFetcher, useLoaderData } from "@remix-run/react";
import { sessionWhen } from "~/utils/format";
import { useEffect, useState } from "react";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { showToast } from "~/components/toaster";
import { Card, EmptyState, ErrorSummary } from "~/components/ui";
import { REVIEW_STATUS_LABELS, reviewSummary } from "~/schemas/review-text";
import { attendanceFormSchema } from "~/schemas/class";
import { ATTENDANCE_SAVED, ATTENDANCE_WORDS, classDates } from "~/schemas/class-text";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const roster = await foundOr404(params.id, (id) => getRoster(getDb(), id, user), "Class not found");
  // the pre-enrolment review's outcome and support needs (a trainer reads no more: personal-data.server.ts)
  return { roster, reviews: (await classReviews(getDb(), roster.id, user)) ?? [] };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const roster = await foundOr404(params.id, (id) => getRoster(getDb(), id, user), "Class not found");
  return answerForm(request, {
    schema: attendanceFormSchema,
    unreadable: "Failed to save attendance",
    save: async ({ session_id, enrollment_id, status, via }) => {
      if (!roster.sessions.some((s) => s.id === session_id))
        return data({ ok: false, toast: { type: "error" as const, message: "Session not found" } }, { status: 404 });
      await markAttendance(getDb(), { session_id, enrollment_id, status, user, client: clientAddress(request) });
      // with JavaScript a fetcher sent the mark: it toasts the answer, the page stays
      if (via === "fetcher") return { ok: true, toast: { type: "success" as const, message: ATTENDANCE_SAVED } };
      // without JavaScript the page loads again: the fragment brings the trainer back to the row just marked
      return redirectWithFlash(`/trainer/classes/${roster.id}#${markRowId(session_id, enrollment_id)}`, { type: "success", message: ATTENDANCE_SAVED });
    },
  });
}

/** The id of one learner's row under one session (the no-JavaScript answer returns to it). */
const markRowId = (sessionId: string, enrollmentId: string) => `mark-${sessionId}-${enrollmentId}`;

function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const STATUSES = ["present", "absent", "late"] as const;

/** One learner on one session: three buttons, the current mark pressed. */
function MarkCell({ sessionId, enrollmentId, current, who, when }: { sessionId: string; enrollmentId: string; current?: string; who: string; when: string }) {
  const fetcher = useFetcher<{ ok: boolean; toast?: { type: "success" | "error"; message: string } }>();
  const hydrated = useHydrated();
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.toast) showToast(fetcher.data.toast);
  }, [fetcher.state, fetcher.data]);
  const pending = fetcher.formData?.get("status")?.toString();
  const shown = pending ?? current;
  return (
    <fetcher.Form method="post" className="flex gap-1">
      <input type="hidden" name="session_id" value={sessionId} />
      <input type="hidden" name="enrollment_id" value={enrollmentId} />
      {hydrated ? <input type="hidden" name="via" value="fetcher" /> : null}
      {STATUSES.map((s) => (
        <button
          key={s}
          type="submit"
          name="status"
          value={s}
          aria-pressed={shown === s}
          aria-label={`${ATTENDANCE_WORDS[s]}: ${who}, ${when}`}
          className={`min-h-11 min-w-11 rounded border px-2 text-xs font-semibold ${shown === s ? (s === "absent" ? "border-red-700 bg-red-700 text-white" : s === "late" ? "border-amber-700 bg-amber-700 text-white" : "border-green-800 bg-green-800 text-white") : "border-steel-300 bg-white text-steel-800 hover:bg-steel-100"}`}
        >
          {ATTENDANCE_WORDS[s]}
        </button>
      ))}
    </fetcher.Form>
  );
}

type RosterData = ReturnType<typeof useLoaderData<typeof loader>>["roster"];
type RosterSession = RosterData["sessions"][number];

function SessionCard({ roster, session, next }: { roster: RosterData; session: RosterSession; next: boolean }) {
  const when = sessionWhen(session);
  const open = session.date <= roster.today;
  return (
    <Card className="mb-4 p-4 sm:p-5">
      <h2 className="text-base font-bold text-steel-900">
        {`Session ${when}`}
        {session.date === roster.today ? (
          <span className="ml-2 text-sm font-semibold text-green-800">(today)</span>
        ) : next ? (
          <span className="ml-2 text-sm font-semibold text-steel-700">(next)</span>
        ) : null}
      </h2>
      {open ? null : <p className="mt-1 text-sm text-steel-600">Not started yet: attendance is marked on the day.</p>}
      <ul className="mt-3 divide-y divide-steel-100">
        {roster.learners.map((l) => (
          <li
            key={l.enrollment_id}
            id={markRowId(session.id, l.enrollment_id)}
            className="flex scroll-mt-4 flex-wrap items-center justify-between gap-2 py-2 target:bg-hivis-50"
          >
            <span className="text-sm font-medium text-steel-900">{l.full_name}</span>
            {open ? (
              <MarkCell sessionId={session.id} enrollmentId={l.enrollment_id} current={l.marks[session.id]} who={l.full_name} when={when} />
            ) : (
              <span className="text-sm text-steel-600">Not marked</span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

export default function ClassRoster() {
  const { roster, reviews } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  // the session of today, else the next to come, first; the later ones after it; the past folded away
  const coming = roster.sessions.filter((s) => s.date >= roster.today);
  const past = roster.sessions.filter((s) => s.date < roster.today).reverse();
  return (
    <>
      <PageTitle
        title={`Roster: ${roster.course_name}`}
        subtitle={[classDates(roster.start_date, roster.end_date), roster.location].filter(Boolean).join(" · ")}
      />
      <p className="mb-4 text-sm">
        <Link to="/trainer/classes" className="font-semibold text-hivis-700 underline-offset-4 hover:underline">
          ← My Classes
        </Link>
      </p>
      {failed && "error" in failed ? <ErrorSummary failure={failed} /> : null}
      {reviews.length ? (
        <Card className="mb-4 p-4 sm:p-5">
          <h2 className="text-base font-bold text-steel-900">Pre-enrolment review</h2>
          <ul className="mt-2 divide-y divide-steel-100">
            {reviews.map((r) => (
              <li key={r.enrollment_id} className="flex flex-wrap justify-between gap-x-3 gap-y-1 py-2 text-sm">
                <span className="font-medium text-steel-900">{r.full_name}</span>
                <span className="text-steel-800">
                  {r.status === "confirmed"
                    ? reviewSummary(r.outcome, r.support)
                    : `${REVIEW_STATUS_LABELS[r.status]}${r.outcome ? ` (${reviewSummary(r.outcome, r.support)})` : ""}`}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      {roster.learners.length === 0 ? (
        <Card className="p-5">
          <EmptyState title="No learners yet">Learners appear here once they enrol in this class.</EmptyState>
        </Card>
      ) : (
        <>
          {coming.map((s, i) => (
            <SessionCard key={s.id} roster={roster} session={s} next={i === 0} />
          ))}
          {past.length ? (
            <details className="mb-4 rounded-lg border border-steel-200 bg-white p-4">
              <summary className="cursor-pointer text-base font-bold text-steel-900">
                {past.length === 1 ? "1 past session" : `${past.length} past sessions`}
              </summary>
              <div className="mt-4">
                {past.map((s) => (
                  <SessionCard key={s.id} roster={roster} session={s} next={false} />
                ))}
              </div>
            </details>
          ) : null}
        </>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Class Roster | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Class Roster" message="Failed to load the roster" />;
}
