import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import {
  getOptionalUser,
  getDb,
  readOrRefuse,
  clientAddress,
  acceptWorkerInvitation,
  declineWorkerInvitation,
  workerInvitationFor,
  redirectWithFlash,
  answerForm,
  formIntent,
} from "~/routes/_auth+/invitation.$token.server";
import { AuthLayout } from "~/components/auth-layout";
import { RouteError } from "~/components/route-error";
import { ConfirmAction, ErrorSummary, SubmitButton, TextField } from "~/components/ui";
import { classDates } from "~/schemas/class-text";
import { workerAcceptSchema, workerNewAccountSchema } from "~/schemas/employer";
import { WORKER_ACCEPTED, WORKER_DECLINED } from "~/schemas/employer-text";
import { passwordRule } from "~/schemas/password-text";
import { confirmationAnswer, requestConfirmed } from "~/utils/confirm";
import { formatDate } from "~/utils/format";
import { secretPageHeaders, secretPageMeta } from "~/utils/secret-page";

export async function loader({ request, params }: LoaderFunctionArgs) {
  // a link that is not one (or was spent) answers 404 with its reason, not a server error
  const invitation = await readOrRefuse(() => workerInvitationFor(getDb(), params.token ?? ""));
  const user = await getOptionalUser(request);
  return { invitation: { ...invitation, userId: undefined }, signedIn: user?.id === invitation.userId };
}

/** The form's fields top to bottom: the error summary lists them in this order. */
const FIELD_ORDER = ["full_name", "password", "confirm_password", "date_of_birth", "phone", "usi", "consent"] as const;

/**
 * The worker accepts their seat: a new account's password and details, their USI, and their
 * answer about sharing results. Or declines it (asked twice): the link is spent and the seat is
 * the employer's to name again.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  const db = getDb();
  const invitation = await readOrRefuse(() => workerInvitationFor(db, token));
  if ((await formIntent(request)) === "decline") {
    if (!(await requestConfirmed(request))) return confirmationAnswer("decline");
    const { employer } = await readOrRefuse(() => declineWorkerInvitation(db, { token, client: clientAddress(request) }));
    return redirectWithFlash("/", { type: "success", message: WORKER_DECLINED(employer) });
  }
  const user = await getOptionalUser(request);
  const save = async (input: {
    consent: "yes" | "no";
    usi: string | null;
    phone: string | null;
    date_of_birth: string | null;
    full_name?: string;
    password?: string;
  }) => {
    await acceptWorkerInvitation(db, { ...input, token, signedInUserId: user?.id ?? null, client: clientAddress(request) });
    return redirectWithFlash(invitation.hasAccount ? "/student" : "/login", { type: "success", message: WORKER_ACCEPTED });
  };
  // `requires` names fields the form always sends: an unanswered radio group sends none, so the
  // consent question is left to the schema, whose message shows at its field
  return invitation.hasAccount
    ? answerForm(request, { schema: workerAcceptSchema, requires: ["usi"], unreadable: "Failed to accept the invitation", save })
    : answerForm(request, { schema: workerNewAccountSchema, requires: ["full_name", "password"], unreadable: "Failed to accept the invitation", save });
}

export default function WorkerInvitation() {
  const { invitation, signedIn } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const confirming = answer !== undefined && "confirm" in answer && answer.confirm === "decline";
  const data = answer && "fieldErrors" in answer ? answer : undefined;
  const { pathname } = useLocation();
  const errors = data?.fieldErrors ?? {};
  const values = data?.values ?? {};
  const title = `${invitation.employer} has booked you a seat`;
  const subtitle = `${invitation.course}, ${classDates(invitation.start_date, invitation.end_date)}`;
  const deadline = invitation.releaseOn ? (
    <p className="mb-4 text-sm">
      Accept before {formatDate(invitation.releaseOn)}: on that day seats nobody has accepted are released and may go to someone else.
    </p>
  ) : null;
  const decline = <DeclineSeat employer={invitation.employer} course={subtitle} confirming={confirming} />;
  if (invitation.hasAccount && !signedIn) {
    return (
      <AuthLayout title={title} subtitle={subtitle}>
        {deadline}
        <p className="mb-4">You already have an account. Sign in to accept the seat.</p>
        <Link
          to={`/login?${new URLSearchParams({ redirectTo: pathname })}`}
          className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline"
        >
          Sign in
        </Link>
        {decline}
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={title} subtitle={subtitle} wide>
      {deadline}
      <Form method="post" noValidate className="space-y-4" key={data?.submittedAt ?? "initial"}>
        <ErrorSummary failure={data} order={FIELD_ORDER} />
        {invitation.hasAccount ? null : (
          <>
            <TextField label="Full name" name="full_name" required defaultValue={values.full_name ?? invitation.worker.full_name} error={errors.full_name} />
            <TextField
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              hint={passwordRule("student")}
              error={errors.password}
            />
            <TextField label="Confirm password" name="confirm_password" type="password" autoComplete="new-password" required error={errors.confirm_password} />
          </>
        )}
        <TextField label="Date of birth" name="date_of_birth" type="date" defaultValue={values.date_of_birth ?? ""} error={errors.date_of_birth} />
        <TextField label="Phone" name="phone" type="tel" defaultValue={values.phone ?? ""} error={errors.phone} />
        <TextField label="USI (Unique Student Identifier)" name="usi" defaultValue={values.usi ?? ""} error={errors.usi} />
        <fieldset id="consent" className="space-y-2" aria-describedby={errors.consent ? "consent-error" : undefined}>
          <legend className="font-semibold">May {invitation.employer} see your results (statements of attainment, NSA dates and licence deadlines)?</legend>
          <label className="flex min-h-11 items-center gap-2">
            <input type="radio" name="consent" value="yes" defaultChecked={values.consent === "yes"} /> Yes, share my results
          </label>
          <label className="flex min-h-11 items-center gap-2">
            <input type="radio" name="consent" value="no" defaultChecked={values.consent === "no"} /> No, do not share them
          </label>
          {errors.consent ? (
            <p id="consent-error" className="text-sm text-red-700">
              {errors.consent}
            </p>
          ) : null}
          <p className="text-sm text-steel-700">You can change this later under Employer Bookings in your portal.</p>
        </fieldset>
        <SubmitButton busyLabel="Accepting...">Accept the seat</SubmitButton>
      </Form>
      {decline}
    </AuthLayout>
  );
}

/** Declining the seat, asked twice: it says what happens (the link stops working, the employer sees it and may name someone else). */
function DeclineSeat({ employer, course, confirming }: { employer: string; course: string; confirming: boolean }) {
  return (
    <section aria-labelledby="decline-heading" className="mt-8 border-t border-steel-200 pt-6">
      <h2 id="decline-heading" className="mb-2 font-semibold">
        Not taking the seat?
      </h2>
      <p className="mb-3 text-sm text-steel-700">Decline it so {employer} can give it to someone else.</p>
      <ConfirmAction
        intent="decline"
        trigger="Decline the seat"
        triggerVariant="secondary"
        title="Decline this seat?"
        confirmLabel="Yes, decline the seat"
        busyLabel="Declining..."
        keepLabel="Keep the invitation"
        confirming={confirming}
      >
        <p>
          You will not be enrolled in {course}. {employer} will see that you declined and may name someone else in the seat. This invitation link stops working;
          to take a seat later, ask {employer} to book you again.
        </p>
      </ConfirmAction>
    </section>
  );
}

export const headers = secretPageHeaders;

export const meta: MetaFunction = () => [{ title: "Your booked seat | Summit Crane & Rigging Training" }, ...secretPageMeta];

export function ErrorBoundary() {
  return <RouteError title="Invitation" message="This invitation link is not valid, has expired or was used" />;
}
