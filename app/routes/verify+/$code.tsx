import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, clientAddress, getDb, organisation, lookUpVerification, NO_CERTIFICATE, VERIFY_LIMITED } from "~/routes/verify+/$code.server";
import { Link, useLoaderData } from "@remix-run/react";
import { Badge, Card } from "~/components/ui";
import { formatDate } from "~/utils/format";

/**
 * A certificate's public page, the URL its QR code holds: who, which unit, when, and whether it
 * stands. Anyone may open it; it never shows a USI or date of birth, nor why a certificate was
 * revoked.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const outcome = await lookUpVerification(getDb(), { code: params.code ?? "", client: clientAddress(request) });
  const rto = organisation();
  if (outcome.kind === "limited") {
    return data({ verification: null, rto, message: VERIFY_LIMITED }, { status: 429, headers: { "Retry-After": String(outcome.retryAfterSeconds) } });
  }
  if (outcome.kind === "not-found") return data({ verification: null, rto, message: NO_CERTIFICATE }, { status: 404 });
  return data({ verification: outcome.verification, rto, message: null }, { headers: { "Cache-Control": "no-store" } });
}

const linkClass = "font-semibold text-hivis-800 underline underline-offset-2 hover:text-hivis-900";

export default function VerifiedCertificate() {
  const { verification: v, rto, message } = useLoaderData<typeof loader>();
  if (!v) {
    return (
      <>
        <h1 className="text-3xl font-bold text-steel-900">{message}</h1>
        <p className="mt-3 text-steel-700">
          Check the code against the certificate and try again. A certificate issued by {rto.name} (RTO {rto.code}) always has one.
        </p>
        <p className="mt-6">
          <Link to="/verify" className={linkClass}>
            Enter a code
          </Link>
        </p>
      </>
    );
  }
  const status =
    v.status === "valid"
      ? { tone: "green" as const, label: "Valid", text: "This certificate is genuine and in force." }
      : v.status === "revoked"
        ? { tone: "red" as const, label: "Revoked", text: `This certificate was revoked on ${formatDate(v.revoked_at)} and is no longer valid.` }
        : {
            tone: "amber" as const,
            label: "Replaced",
            text: `This certificate was replaced by certificate ${v.replaced_by ?? "(unknown)"}; ask the holder for the new one.`,
          };
  return (
    <>
      <h1 className="text-3xl font-bold text-steel-900">Certificate verification</h1>
      <Card className="mt-6 p-5 sm:p-6">
        <div className="flex flex-wrap items-center gap-3">
          <Badge tone={status.tone}>{status.label}</Badge>
          <p className="font-semibold text-steel-900" role="status">
            {status.text}
          </p>
        </div>
        <dl className="mt-5 grid gap-4 sm:grid-cols-2">
          {[
            ["Learner", v.learner_name],
            ["Certificate number", v.certificate_number],
            ["Unit", `${v.unit_code} ${v.unit_title}`],
            ["Issued", formatDate(v.issue_date)],
            ["Issued by", `${rto.name} (RTO ${rto.code})`],
          ].map(([label, value]) => (
            <div key={label}>
              <dt className="text-sm font-medium text-steel-600">{label}</dt>
              <dd className="mt-1 break-words font-semibold text-steel-900">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <p className="mt-6">
        <Link to="/verify" className={linkClass}>
          Verify another certificate
        </Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.verification ? `Certificate ${data.verification.certificate_number}` : "No certificate found"} | Certificate verification` },
  { name: "robots", content: "noindex" },
];
