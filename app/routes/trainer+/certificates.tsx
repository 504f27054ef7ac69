import { usiCleared } from "~/rules/usi";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  listRecentCertificates,
  countCompletedAwaitingCertificate,
  listCompletedAwaitingCertificate,
  issueCertificate,
  prepareCertificatePdf,
  answerForm,
  redirectWithFlash,
  clientAddress,
} from "~/routes/trainer+/certificates.server";
import { PageTitle } from "~/components/portal-shell";
import { useActionToast } from "~/components/toaster";
import { TierBadge } from "~/components/status-badges";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { AwaitingUsiCard, linkClass, OverdueBadge } from "~/components/certificates-due";
import { Alert, EmptyState, SubmitButton, TitledCard, TableScroll } from "~/components/ui";
import { certificateIssueSchema } from "~/schemas/page-queries";
import { formatDate } from "~/utils/format";

export const CERTIFICATE_ISSUED = "Certificate issued successfully";

const RECENT = 20;
const AWAITING = 100;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "trainer");
  const db = getDb();
  const [recent, awaiting, awaitingTotal, awaitingUsi] = await Promise.all([
    listRecentCertificates(db, { limit: RECENT }),
    listCompletedAwaitingCertificate(db, { limit: AWAITING }),
    countCompletedAwaitingCertificate(db),
    listCompletedAwaitingCertificate(db, { limit: AWAITING, usi: "awaiting" }),
  ]);
  return { recent, awaiting, awaitingTotal, awaitingUsi };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return answerForm(request, {
    schema: certificateIssueSchema,
    input: (form) => ({ enrollment_id: form.get("enrollment_id") }),
    unreadable: "Choose an enrolment to certify",
    save: async ({ enrollment_id }) => {
      const { certificate, created } = await issueCertificate(getDb(), { enrollmentId: enrollment_id, actorId: user.id, client: clientAddress(request) });
      if (!created) {
        return redirectWithFlash("/trainer/certificates", {
          type: "info",
          message: `Certificate ${certificate.certificate_number} was already issued for this enrolment; nothing new was created.`,
        });
      }
      void prepareCertificatePdf(getDb(), certificate.id);
      return redirectWithFlash("/trainer/certificates", {
        type: "success",
        message: `${CERTIFICATE_ISSUED}: ${certificate.certificate_number} for ${certificate.student.full_name}`,
      });
    },
  });
}

export default function TrainerCertificates() {
  const { recent, awaiting, awaitingTotal, awaitingUsi } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  return (
    <>
      <PageTitle title="Certificates" subtitle="Completed enrolments awaiting a certificate, and certificates recently issued" />
      {data?.error ? (
        <div className="mb-4">
          <Alert>{data.error}</Alert>
        </div>
      ) : null}

      <AwaitingUsiCard awaitingUsi={awaitingUsi} fixHref={(id) => `/trainer/usi/${id}`} className="mb-6" />

      <TitledCard title={`Awaiting a certificate (${awaitingTotal})`} className="mb-6">
        <p className="mb-3 text-sm text-steel-600">
          A certificate is issued at once when its enrolment is completed and the learner&apos;s USI is verified, whichever comes last. One listed here with a
          verified USI waits for you to issue it. Each certificate is due within 30 days of completion; overdue ones come first. Each is issued exactly once.
        </p>
        {awaiting.length ? (
          <TableScroll label="Completed enrolments awaiting a certificate">
            <table className="w-full min-w-[40rem] text-left text-sm">
              <caption className="sr-only">Completed enrolments awaiting a certificate, longest waiting first</caption>
              <thead>
                <tr className="border-b border-steel-200 text-xs uppercase tracking-wide text-steel-600">
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Student
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Course
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Tier
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Completed
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Due
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    Action
                  </th>
                </tr>
              </thead>
              <tbody>
                {awaiting.map((a) => (
                  <tr key={a.enrollment_id} className="border-b border-steel-100 align-top">
                    <th scope="row" className="py-2 pr-3 text-left font-semibold text-steel-900">
                      {a.student.full_name}
                    </th>
                    <td className="py-2 pr-3">
                      <Link to={`/trainer/enrollments/${a.enrollment_id}`} className="text-steel-800 underline-offset-2 hover:underline">
                        {a.course.name}
                      </Link>
                    </td>
                    <td className="py-2 pr-3">
                      <TierBadge tier={a.course.tier} />
                    </td>
                    <td className="whitespace-nowrap py-2 pr-3">{formatDate(a.completion_date)}</td>
                    <td className="whitespace-nowrap py-2 pr-3">
                      {formatDate(a.due_date, "Unknown")}
                      {a.overdue ? <OverdueBadge /> : null}
                    </td>
                    <td className="py-2">
                      {!usiCleared(a.student.usi_status) ? (
                        <Link to={`/trainer/usi/${a.student.id}`} className={linkClass}>
                          Awaiting USI<span className="sr-only"> of {a.student.full_name}</span>
                        </Link>
                      ) : (
                        <Form method="post">
                          <input type="hidden" name="enrollment_id" value={a.enrollment_id} />
                          <SubmitButton
                            size="sm"
                            intent={`issue-${a.enrollment_id}`}
                            busyLabel="Issuing..."
                            aria-label={`Issue Certificate for ${a.student.full_name}, ${a.course.name}`}
                          >
                            Issue Certificate
                          </SubmitButton>
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <EmptyState title="Nothing awaiting">Every completed enrolment has its certificate.</EmptyState>
        )}
        {awaitingTotal > awaiting.length ? (
          <p className="mt-3 text-sm text-steel-600">
            Showing the {awaiting.length} longest waiting of {awaitingTotal}.
          </p>
        ) : null}
      </TitledCard>

      <TitledCard title="Recently issued">
        {recent.length ? (
          <TableScroll label={`The ${RECENT} most recently issued certificates`}>
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">The {RECENT} most recently issued certificates</caption>
              <thead>
                <tr className="border-b border-steel-200 text-xs uppercase tracking-wide text-steel-600">
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Certificate
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Student
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Course
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Tier
                  </th>
                  <th scope="col" className="py-2 pr-3 font-semibold">
                    Issued
                  </th>
                  <th scope="col" className="py-2 font-semibold">
                    PDF
                  </th>
                </tr>
              </thead>
              <tbody>
                {recent.map((c) => (
                  <tr key={c.id} className="border-b border-steel-100 align-top">
                    <th scope="row" className="whitespace-nowrap py-2 pr-3 text-left font-mono font-semibold text-steel-900">
                      {c.certificate_number}
                    </th>
                    <td className="py-2 pr-3">{c.student.full_name}</td>
                    <td className="py-2 pr-3">{c.course.name}</td>
                    <td className="py-2 pr-3">
                      <TierBadge tier={c.tier_achieved} />
                    </td>
                    <td className="whitespace-nowrap py-2 pr-3">{formatDate(c.issue_date)}</td>
                    <td className="whitespace-nowrap py-2">
                      <a
                        href={`/certificates/${c.id}/download`}
                        download
                        className={linkClass}
                        aria-label={`Download PDF of certificate ${c.certificate_number}`}
                      >
                        Download PDF
                      </a>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : (
          <EmptyState title="No certificates issued">Certificates appear here as enrolments are completed.</EmptyState>
        )}
      </TitledCard>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Certificates | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
