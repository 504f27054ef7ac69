import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireRole } from "~/auth/guards.server";
import { StatusBadge, TIER_TITLES } from "~/components/status-badges";
import { PageTitle } from "~/components/portal-shell";
import { Badge, Card, SubmitButton, TitledCard } from "~/components/ui";
import { getDb } from "~/db.server";
import { getComplianceChecks, getEnrollmentStatistics } from "~/models/report.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { AdminPageError } from "~/components/admin/page-error";

/** The AVETMISS files of spec section 2; they are produced in a later release. */
const AVETMISS_EXPORTS = {
  nat00020: { code: "NAT00020", label: "NAT00020 student data", description: "Client (student) details for each learner." },
  nat00030: { code: "NAT00030", label: "NAT00030 qualification data", description: "Qualifications and courses delivered." },
  nat00060: { code: "NAT00060", label: "NAT00060 unit of competency", description: "Units of competency and their outcomes." },
} as const;
type ExportKey = keyof typeof AVETMISS_EXPORTS;

const exportSchema = z.object({ intent: z.enum(Object.keys(AVETMISS_EXPORTS) as [ExportKey, ...ExportKey[]]) });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const db = getDb();
  const [statistics, checks] = await Promise.all([getEnrollmentStatistics(db), getComplianceChecks(db)]);
  return json({ statistics, checks });
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, "admin");
  const form = await request.formData().catch(() => null);
  const parsed = exportSchema.safeParse(form ? Object.fromEntries(form) : {});
  if (!parsed.success) return redirectWithFlash("/admin/reports", { type: "error", message: "Unknown export" });
  const file = AVETMISS_EXPORTS[parsed.data.intent];
  return redirectWithFlash("/admin/reports", {
    type: "info",
    message: `${file.code} AVETMISS file export is coming in a later release; no file has been generated yet.`,
  });
}

export default function Reports() {
  const { statistics, checks } = useLoaderData<typeof loader>();
  const attention = checks.filter((c) => !c.ok).length;
  return (
    <>
      <PageTitle title="ASQA Compliance Reports" subtitle="Enrolment statistics, record checks and AVETMISS reporting" />

      <TitledCard title="Enrollment Statistics">
        <h3 className="mb-2 text-sm font-bold uppercase tracking-wide text-steel-700">By status</h3>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          <div className="rounded-md bg-steel-800 p-3 text-white">
            <dt className="text-xs font-semibold text-steel-200">Total enrolments</dt>
            <dd className="text-2xl font-bold tabular-nums">{statistics.total.toLocaleString("en-AU")}</dd>
          </div>
          {statistics.byStatus.map((s) => (
            <div key={s.status} className="rounded-md bg-steel-50 p-3">
              <dt className="text-xs font-semibold text-steel-600">
                <StatusBadge status={s.status} />
              </dt>
              <dd className="mt-1 text-2xl font-bold tabular-nums text-steel-900">{s.count.toLocaleString("en-AU")}</dd>
            </div>
          ))}
        </dl>

        <h3 className="mb-2 mt-6 text-sm font-bold uppercase tracking-wide text-steel-700">By tier</h3>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">Enrolments by tier</caption>
            <thead className="bg-steel-50 text-xs uppercase tracking-wide text-steel-600">
              <tr>
                <th scope="col" className="px-3 py-2">Tier</th>
                <th scope="col" className="px-3 py-2 text-right">Total</th>
                <th scope="col" className="px-3 py-2 text-right">Active</th>
                <th scope="col" className="px-3 py-2 text-right">Completed</th>
                <th scope="col" className="px-3 py-2 text-right">Withdrawn</th>
                <th scope="col" className="px-3 py-2 text-right">Completion rate</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-steel-100 tabular-nums">
              {statistics.byTier.map((t) => (
                <tr key={t.tier}>
                  <th scope="row" className="px-3 py-2 font-semibold text-steel-900">
                    {TIER_TITLES[t.tier]}
                  </th>
                  <td className="px-3 py-2 text-right">{t.total}</td>
                  <td className="px-3 py-2 text-right">{t.active}</td>
                  <td className="px-3 py-2 text-right">{t.completed}</td>
                  <td className="px-3 py-2 text-right">{t.withdrawn}</td>
                  <td className="px-3 py-2 text-right">{t.completion_rate}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </TitledCard>

      <TitledCard
        title="Compliance Overview"
        className="mt-6"
        actions={
          <Badge tone={attention === 0 ? "green" : "amber"}>
            {attention === 0 ? "All checks OK" : `${attention} ${attention === 1 ? "check needs" : "checks need"} attention`}
          </Badge>
        }
      >
        <ul className="divide-y divide-steel-100">
          {checks.map((c) => (
            <li key={c.id} className="flex flex-wrap items-start justify-between gap-3 py-3 first:pt-0 last:pb-0">
              <div className="min-w-0 flex-1">
                <p className="font-semibold text-steel-900">{c.label}</p>
                <p className="text-sm text-steel-600">{c.description}</p>
              </div>
              <div className="flex items-center gap-3">
                <span className="text-sm tabular-nums text-steel-800">
                  {c.count.toLocaleString("en-AU")} {c.count === 1 ? c.unit[0] : c.unit[1]}
                </span>
                <Badge tone={c.ok ? "green" : "amber"}>{c.ok ? "OK" : "Needs attention"}</Badge>
                <Link to={c.href} className="text-sm font-semibold text-hivis-800 underline-offset-4 hover:underline">
                  View records<span className="sr-only"> for {c.label}</span>
                </Link>
              </div>
            </li>
          ))}
        </ul>
      </TitledCard>

      <Card className="mt-6 p-4 sm:p-5">
        <h2 className="text-base font-semibold text-steel-900">AVETMISS Export</h2>
        <p className="mt-1 text-sm text-steel-600">
          Files for the National VET Provider Collection. Generating them is coming in a later release.
        </p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-3">
          {(Object.keys(AVETMISS_EXPORTS) as ExportKey[]).map((key) => (
            <li key={key} className="rounded-md border border-steel-200 p-3">
              <Form method="post" action="/admin/reports">
                <SubmitButton intent={key} variant="secondary" className="w-full" busyLabel="Preparing...">
                  {AVETMISS_EXPORTS[key].label}
                </SubmitButton>
              </Form>
              <p className="mt-2 text-xs text-steel-600">{AVETMISS_EXPORTS[key].description}</p>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "ASQA Compliance Reports | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <AdminPageError title="ASQA Compliance Reports" message="Failed to load reports" />;
}
