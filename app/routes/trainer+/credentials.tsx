import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  clientAddress,
  addActivity,
  getTrainerProfile,
  isMultipart,
  answerActivityForm,
  answerForm,
  formFailure,
  formIntent,
  redirectWithFlash,
} from "~/routes/trainer+/credentials.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { ActivityForm, ActivityList, CredentialSummary } from "~/components/standards/credential-ui";
import { TitledCard } from "~/components/ui";
import { trainerActivitySchema } from "~/schemas/standards";
import { UNIT_BASES } from "~/schemas/standards-text";
import { formatDate } from "~/utils/format";
import { FIX_HIGHLIGHTED_FIELDS, FORM_UNREADABLE } from "~/utils/form-text";

export const ACTIVITY_ADDED = "Activity added; the office will confirm it";

/** A trainer's own credentials (read only) and their currency activities, which they add. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return { profile: await getTrainerProfile(getDb(), user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const actor = { id: user.id, client: clientAddress(request), role: "trainer" as const };
  const done = () => redirectWithFlash("/trainer/credentials", { type: "success", message: ACTIVITY_ADDED });
  // the activity form is multipart for its optional evidence file
  if (isMultipart(request)) return answerActivityForm(request, user.id, actor, done);
  const common = { invalid: FIX_HIGHLIGHTED_FIELDS };
  if ((await formIntent(request)) !== "activity") return formFailure(FORM_UNREADABLE);
  return answerForm(request, {
    ...common,
    schema: trainerActivitySchema,
    save: async (input) => (await addActivity(getDb(), user.id, input, actor), done()),
  });
}

export default function MyCredentialsPage() {
  const { profile } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="My credentials" subtitle="Your training credential, units and industry currency, as the office holds them" />
      <div className="grid gap-6 lg:grid-cols-2">
        <CredentialSummary profile={profile} />
        <TitledCard title="Units">
          {profile.units.length === 0 ? (
            <p className="text-sm">No units recorded yet: ask the office.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {profile.units.map((u) => (
                <li key={u.id}>
                  <span className="font-semibold">{u.unit_code}</span>: {UNIT_BASES[u.basis]}
                  {u.expires_on ? `, until ${formatDate(u.expires_on)}` : ""}
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
        <TitledCard title="Industry currency and professional development" className="lg:col-span-2">
          <ActivityList activities={profile.activities} />
          <ActivityForm failure={data?.values?.intent === "activity" ? data : null} />
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My credentials | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="My credentials" message="Failed to load your credentials" />;
}
