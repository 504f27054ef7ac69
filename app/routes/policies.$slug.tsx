import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { getOptionalUser, organisation } from "~/routes/policies.$slug.server";
import { SiteFooter } from "~/components/landing/site-footer";
import { RouteError } from "~/components/route-error";
import { SiteHeader } from "~/components/site-header";
import { POLICIES, POLICY_SLUGS, policyInForce, policyPath, type PolicySlug } from "~/schemas/policy-text";
import { formatDate } from "~/utils/format";
import { organisationToday } from "~/utils/organisation-calendar";

/** A policy a learner agrees to (terms, code of conduct, privacy), public: the version in force today. */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = POLICY_SLUGS.find((s) => s === params.slug);
  if (!slug) throw new Response("Policy not found", { status: 404 });
  const policy = POLICIES[slug];
  const version = policyInForce(policy, organisationToday());
  const user = await getOptionalUser(request);
  return {
    signedIn: Boolean(user),
    rto: organisation(),
    slug,
    title: policy.title,
    description: policy.description,
    version,
    others: POLICY_SLUGS.filter((s) => s !== slug).map((s) => ({
      slug: s,
      title: POLICIES[s].title,
    })),
  };
}

export default function PolicyPage() {
  const { signedIn, rto, title, version, others } = useLoaderData<typeof loader>();
  // consecutive "- " lines make one list
  const blocks: Array<string | string[]> = [];
  for (const p of version.paragraphs) {
    const last = blocks.at(-1);
    if (!p.startsWith("- ")) blocks.push(p);
    else if (Array.isArray(last)) last.push(p.slice(2));
    else blocks.push([p.slice(2)]);
  }
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="mx-auto min-h-[60vh] max-w-2xl px-4 py-10">
        <article className="space-y-4">
          <h1 className="text-2xl font-bold text-steel-900 sm:text-3xl">{title}</h1>
          <p className="text-sm text-steel-600">
            Version in force since <time dateTime={version.effective_from}>{formatDate(version.effective_from)}</time>
          </p>
          {blocks.map((b, i) =>
            Array.isArray(b) ? (
              <ul key={i} className="list-disc space-y-1 pl-6 leading-relaxed">
                {b.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : (
              <p key={i} className="break-words leading-relaxed">
                {b}
              </p>
            ),
          )}
          <h2 className="pt-2 text-lg font-semibold text-steel-900">Other policies</h2>
          <ul className="space-y-1">
            {others.map((o) => (
              <li key={o.slug}>
                <Link to={policyPath(o.slug as PolicySlug)} className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline">
                  {o.title}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/complaints/policy" className="inline-flex min-h-11 items-center font-semibold text-hivis-800 underline">
                Complaints and appeals policy
              </Link>
            </li>
          </ul>
        </article>
      </main>
      <SiteFooter rto={rto} />
    </>
  );
}

/** The site footer is here (the root leaves out its own strip), and the meta describes the page. */
export const handle = { siteFooter: true, describesItself: true };

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.title} | Summit Crane & Rigging Training` }, { name: "description", content: data.description }] : [{ title: "Policy not found" }];

export function ErrorBoundary() {
  return <RouteError title="Policy" message="This policy could not be found" />;
}
