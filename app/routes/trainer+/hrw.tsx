import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireRole, assessorCurrency, getDb, listHrwAssessments, noticesDue, expiryWarnings, getAssessorRegister } from "~/routes/trainer+/hrw.server";
import { CurrencyList, ExpiryWarnings, NoticesDue, PartsList, StageBadge } from "~/components/hrw/hrw-ui";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { ButtonLink, EmptyState, TitledCard, TableScroll } from "~/components/ui";
import { clockTime } from "~/utils/format";
import { hrwDate, LICENCE_CLASSES, type LicenceClass } from "~/schemas/hrw-codes";
import { organisationToday } from "~/utils/organisation-calendar";

/** The assessor's high-risk work page: their register entry, notices due and their bookings. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const db = getDb();
  const today = organisationToday();
  const [register, assessments, notices, warnings, currency] = await Promise.all([
    getAssessorRegister(db, user.id),
    listHrwAssessments(db, { assessorId: user.id, limit: 200 }),
    noticesDue(db, user.id),
    expiryWarnings(db, today, user.id),
    assessorCurrency(db, user.id, today),
  ]);
  return { register, assessments, notices, warnings, currency, today };
}

export default function TrainerHrw() {
  const { register, assessments, notices, warnings, currency, today } = useLoaderData<typeof loader>();
  return (
    <>
      <PageTitle
        title="HRW licence assessments"
        subtitle="High-risk work assessments you are booked to assess"
        actions={<ButtonLink to="/trainer/hrw/book">Book an assessment</ButtonLink>}
      />
      <div className="grid gap-6">
        {notices.length || warnings.length ? (
          <TitledCard title="Needs your attention">
            <NoticesDue notices={notices} today={today} />
            <ExpiryWarnings warnings={warnings} showName={false} />
          </TitledCard>
        ) : null}
        {currency.length ? (
          <TitledCard title="Your currency">
            <div className="text-sm">
              <CurrencyList currency={currency} />
            </div>
          </TitledCard>
        ) : null}
        <TitledCard title="Your assessor register">
          <p className="text-sm text-steel-700">
            Your high-risk work licence: {register?.licence_number ?? "not recorded"}
            {register?.licence_expires_on ? `, expires ${hrwDate(register.licence_expires_on)}` : ""}
          </p>
          {register?.accreditations.length ? (
            <ul className="mt-2 space-y-1 text-sm">
              {register.accreditations.map((a) => (
                <li key={a.id}>
                  {a.regulator} accreditation <span className="font-semibold">{a.number}</span>: {a.classes.join(", ")} — from {hrwDate(a.starts_on)},{" "}
                  {a.expires_on < today ? "expired" : "expires"} {hrwDate(a.expires_on)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-steel-700">No accreditations recorded. The training office keeps the register.</p>
          )}
        </TitledCard>
        <TitledCard title="Your assessments">
          {assessments.length === 0 ? (
            <EmptyState title="No assessments booked for you" />
          ) : (
            <TableScroll label="Assessments booked for you">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Assessments booked for you</caption>
                <thead className="bg-steel-50 text-steel-700">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Date
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Candidate
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Class
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Parts
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Status
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {assessments.map((a) => (
                    <tr key={a.id} className="border-t border-steel-100 align-top">
                      <td className="px-3 py-2">
                        <Link to={`/trainer/hrw/${a.id}`} className="font-semibold underline">
                          {hrwDate(a.assessment_date)}, {clockTime(a.start_time)}
                        </Link>
                      </td>
                      <td className="px-3 py-2">{a.candidate.full_name}</td>
                      <td className="px-3 py-2" title={LICENCE_CLASSES[a.licence_class as LicenceClass]}>
                        {a.licence_class} ({a.state})
                      </td>
                      <td className="px-3 py-2">
                        <PartsList parts={a.parts} />
                      </td>
                      <td className="px-3 py-2">
                        <StageBadge stage={a.stage} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </TitledCard>
      </div>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "HRW licence assessments | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError title="HRW licence assessments" message="Failed to load your assessments" />;
}
