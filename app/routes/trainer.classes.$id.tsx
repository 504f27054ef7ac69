import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { requireRole } from "~/auth/guards.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { showToast } from "~/components/toaster";
import { Card, EmptyState } from "~/components/ui";
import { getDb } from "~/db.server";
import { getRoster, markAttendance } from "~/models/attendance.server";
import { attendanceFormSchema } from "~/schemas/class";
import { ATTENDANCE_SAVED, ATTENDANCE_WORDS, classDates } from "~/schemas/class-text";
import { redirectWithFlash } from "~/utils/flash.server";
import { answerForm } from "~/utils/form-action.server";
import { foundOr404 } from "~/utils/http.server";
import { clientAddress } from "~/http/request-context.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return { roster: await foundOr404(params.id, (id) => getRoster(getDb(), id, user), "Class not found") };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const roster = await foundOr404(params.id, (id) => getRoster(getDb(), id, user), "Class not found");
  return answerForm(request, {
    schema: attendanceFormSchema,
    unreadable: "Failed to save attendance",
    save: async ({ session_id, enrollment_id, status, via }) => {
      if (!roster.sessions.some((s) => s.id === session_id)) return data({ ok: false, toast: { type: "error" as const, message: "Session not found" } }, { status: 404 });
      await markAttendance(getDb(), { session_id, enrollment_id, status, user, client: clientAddress(request) });
      // with JavaScript a fetcher sent the mark: it toasts the answer, the page stays
      if (via === "fetcher") return { ok: true, toast: { type: "success" as const, message: ATTENDANCE_SAVED } };
      return redirectWithFlash(`/trainer/classes/${roster.id}`, { type: "success", message: ATTENDANCE_SAVED });
    },
  });
}

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

export default function ClassRoster() {
  const { roster } = useLoaderData<typeof loader>();
  const ordered = [...roster.sessions].sort((a, b) => Number(b.date === roster.today) - Number(a.date === roster.today));
  return (
    <>
      <PageTitle title={`Roster: ${roster.course_name}`} subtitle={[classDates(roster.start_date, roster.end_date), roster.location].filter(Boolean).join(" · ")} />
      <p className="mb-4 text-sm">
        <Link to="/trainer/classes" className="font-semibold text-hivis-700 underline-offset-4 hover:underline">
          ← My Classes
        </Link>
      </p>
      {roster.learners.length === 0 ? (
        <Card className="p-5">
          <EmptyState title="No learners yet">Learners appear here once they enrol in this class.</EmptyState>
        </Card>
      ) : (
        ordered.map((s) => {
          const when = `${s.date} ${s.starts_at}-${s.ends_at}`;
          return (
            <Card key={s.id} className="mb-4 p-4 sm:p-5">
              <h2 className="text-base font-bold text-steel-900">
                {`Session ${when}`}
                {s.date === roster.today ? <span className="ml-2 text-sm font-semibold text-green-800">(today)</span> : null}
              </h2>
              <ul className="mt-3 divide-y divide-steel-100">
                {roster.learners.map((l) => (
                  <li key={l.enrollment_id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                    <span className="text-sm font-medium text-steel-900">{l.full_name}</span>
                    <MarkCell sessionId={s.id} enrollmentId={l.enrollment_id} current={l.marks[s.id]} who={l.full_name} when={when} />
                  </li>
                ))}
              </ul>
            </Card>
          );
        })
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Class Roster | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Class Roster" message="Failed to load the roster" />;
}
