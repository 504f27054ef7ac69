import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RouteError } from "~/components/route-error";
import { getDb, organisation, complaintSettings } from "~/routes/complaints+/policy.server";

/** The complaints and appeals policy, public: the text admins set, else the default written for this organisation. */
export async function loader(_: LoaderFunctionArgs) {
  const settings = await complaintSettings(getDb(), organisation());
  return { policy: settings.policy };
}

export default function PolicyPage() {
  const { policy } = useLoaderData<typeof loader>();
  const paragraphs = policy.split(/\n{2,}/);
  return (
    <article className="space-y-4">
      <h1 className="text-2xl font-bold text-steel-900 sm:text-3xl">Complaints and appeals policy</h1>
      {paragraphs.map((p, i) => (
        <p key={i} className="whitespace-pre-line break-words leading-relaxed">
          {p}
        </p>
      ))}
      <p>
        <Link to="/complaints/new" className="inline-flex min-h-11 items-center rounded-md bg-hivis-500 px-4 py-2 font-semibold text-steel-950">
          Make a complaint
        </Link>
      </p>
      <p className="text-sm text-steel-600">To appeal an assessment decision, sign in and open Results &amp; Appeals in your portal.</p>
    </article>
  );
}

export const meta: MetaFunction = () => [{ title: "Complaints and appeals policy" }];

export function ErrorBoundary() {
  return <RouteError title="Complaints and appeals policy" message="Failed to load the policy" />;
}
