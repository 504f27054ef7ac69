import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  CONSENT_SAVED,
  listOwnBookings,
  setOwnConsent,
  redirectWithFlash,
  answerForm,
} from "~/routes/student+/employers.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, STUDENT_LOAD_ERROR } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Badge, Card, EmptyState, ErrorSummary, SubmitButton } from "~/components/ui";
import { classDates } from "~/schemas/class-text";
import { ownConsentSchema } from "~/schemas/employer";
import { CONSENT_LABELS } from "~/schemas/employer-text";

/** The bookings an employer made for this learner, and their answer about sharing results, which they may change at any time. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "student");
  return { bookings: await listOwnBookings(getDb(), user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "student");
  return answerForm(request, {
    schema: ownConsentSchema,
    requires: ["worker_id", "consent"],
    unreadable: "Failed to save your choice",
    save: async (input) => {
      await setOwnConsent(getDb(), { userId: user.id, workerId: input.worker_id, consent: input.consent, client: clientAddress(request) });
      return redirectWithFlash("/student/employers", { type: "success", message: CONSENT_SAVED });
    },
  });
}

export default function StudentEmployers() {
  const { bookings } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="Employer bookings" subtitle="Seats your employer booked for you, and whether they may see your results." />
      <ErrorSummary failure={data} />
      {bookings.length === 0 ? (
        <EmptyState title="No employer bookings">When an employer books you a seat, it shows here.</EmptyState>
      ) : (
        <ul className="space-y-3">
          {bookings.map((b) => {
            const sharing = b.consent === true;
            return (
              <li key={b.worker_id}>
                <Card>
                  <div className="flex flex-wrap items-center justify-between gap-3 p-4">
                    <div className="min-w-0">
                      <h2 className="font-bold text-steel-900">{b.course}</h2>
                      <p className="text-sm text-steel-600">
                        Booked by {b.employer} · {classDates(b.start_date, b.end_date)}
                      </p>
                      <p className="mt-1 text-sm">
                        {b.accepted ? (
                          <Badge tone={sharing ? "green" : "grey"}>{CONSENT_LABELS[b.consent === null ? "unanswered" : sharing ? "yes" : "no"]}</Badge>
                        ) : (
                          "Not accepted yet: use the link in the invitation email."
                        )}
                      </p>
                    </div>
                    {b.accepted ? (
                      <Form method="post">
                        <input type="hidden" name="worker_id" value={b.worker_id} />
                        <input type="hidden" name="consent" value={sharing ? "no" : "yes"} />
                        <SubmitButton
                          variant={sharing ? "secondary" : "primary"}
                          busyLabel="Saving..."
                          aria-label={`${sharing ? "Stop sharing" : "Share"} my results with ${b.employer} for ${b.course}`}
                        >
                          {sharing ? "Stop sharing my results" : "Share my results"}
                        </SubmitButton>
                      </Form>
                    ) : null}
                  </div>
                </Card>
              </li>
            );
          })}
        </ul>
      )}
      <p className="mt-4 text-sm text-steel-700">
        While you share your results, your employer sees your statements of attainment, NSA dates and licence deadlines for the booked course. When you stop,
        they no longer see them.
      </p>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Employer bookings | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Employer bookings" message={STUDENT_LOAD_ERROR} />;
}
