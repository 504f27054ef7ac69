import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  requireRole,
  getDb,
  bookAssessment,
  bookingOptions,
  getCandidateChecks,
  searchCandidates,
  candidateChecksFor,
  answerForm,
  redirectWithFlash,
  clientAddress,
} from "~/routes/trainer+/hrw_.book.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError } from "~/components/route-error";
import { useActionToast } from "~/components/toaster";
import { Button, EmptyState, ErrorSummary, SelectField, SubmitButton, TAP_LINK, TextField, TitledCard } from "~/components/ui";
import { bookingSchema } from "~/schemas/hrw";
import { HRW_STATE_CODES, HRW_STATES, IDENTITY_POINTS_NEEDED, MINIMUM_AGE } from "~/schemas/hrw-codes";
import { uuid } from "~/schemas/fields";
import { enrollmentOptionQuery } from "~/schemas/page-queries";
import { organisationToday } from "~/utils/organisation-calendar";
import type { FieldErrors } from "~/utils/validation";
import { FIX_HIGHLIGHTED_FIELDS } from "~/utils/form-text";

export const ASSESSMENT_BOOKED = "Assessment booked";

/**
 * Book a high-risk work assessment: find the candidate (?q=), choose them (?candidate=), then
 * the course, date, place, assessor and plant. A candidate whose checks are incomplete is
 * refused and the page says which checks are missing.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRole(request, "trainer");
  const db = getDb();
  const params = new URL(request.url).searchParams;
  const { q } = enrollmentOptionQuery.parse({ q: params.get("q") ?? "" });
  const requested = params.get("candidate");
  const today = organisationToday();
  const found = requested && uuid.safeParse(requested).success ? await getCandidateChecks(db, requested) : null;
  const checks = found && candidateChecksFor(user, found, today);
  const [candidates, options] = await Promise.all([checks ? Promise.resolve([]) : searchCandidates(db, q), bookingOptions(db)]);
  return { q, candidates, checks, options, today };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRole(request, "trainer");
  return answerForm(request, {
    schema: bookingSchema,
    unreadable: "The booking could not be read; please try again",
    invalid: FIX_HIGHLIGHTED_FIELDS,
    save: async (input) => {
      const { id } = await bookAssessment(getDb(), input, { id: user.id, client: clientAddress(request) });
      return redirectWithFlash(`/trainer/hrw/${id}`, { type: "success", message: ASSESSMENT_BOOKED });
    },
  });
}

export default function BookAssessment() {
  const { q, candidates, checks, options, today } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  useActionToast(data);
  const errors: FieldErrors = data?.fieldErrors ?? {};
  const v: Record<string, string> = data?.values ?? {};
  return (
    <>
      <PageTitle
        title="Book an HRW assessment"
        subtitle={
          <Link to="/trainer/hrw" className="underline">
            Back to HRW licence assessments
          </Link>
        }
      />
      {!checks ? (
        <TitledCard title="Find the candidate">
          <Form method="get" role="search" className="mb-4 flex items-end gap-2">
            <TextField label="Candidate name or email" name="q" type="search" defaultValue={q} className="flex-1" />
            <Button type="submit" variant="secondary">
              Find
            </Button>
          </Form>
          {candidates.length === 0 ? (
            <EmptyState title="No matching students" />
          ) : (
            <ul className="divide-y divide-steel-100 text-sm">
              {candidates.map((c) => (
                <li key={c.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span>
                    <span className="font-semibold">{c.full_name}</span> {c.email}
                  </span>
                  <span className="flex gap-3">
                    <Link to={`/trainer/hrw/candidates/${c.id}`} className={`${TAP_LINK} underline`} aria-label={`Checks of ${c.full_name}`}>
                      Checks
                    </Link>
                    <Link to={`?candidate=${c.id}`} className={`${TAP_LINK} font-semibold underline`} aria-label={`Book ${c.full_name}`}>
                      Book
                    </Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </TitledCard>
      ) : (
        <TitledCard
          title={`Candidate: ${checks.candidate.full_name}`}
          actions={
            <Link to="/trainer/hrw/book" className="text-sm underline">
              Choose another candidate
            </Link>
          }
        >
          <ul className="mb-4 space-y-1 text-sm" aria-label="Checks recorded">
            <li>
              Age (date of birth):{" "}
              {checks.age
                ? `checked by ${checks.age.checked_by}; ${MINIMUM_AGE} or older today: ${"adult" in checks.age ? (checks.age.adult ? "yes" : "no") : checks.age.date_of_birth}`
                : "not checked"}
            </li>
            <li>
              Evidence of identity:{" "}
              {checks.identity ? `${checks.identity.points} of ${IDENTITY_POINTS_NEEDED} points, sighted by ${checks.identity.checked_by}` : "not sighted"}
            </li>
            <li>
              Prerequisite licences:{" "}
              {checks.prerequisites.length ? checks.prerequisites.map((p) => `${p.licence_class} (expires ${p.expires_on})`).join("; ") : "none recorded"}
            </li>
          </ul>
          <p className="mb-4 text-sm">
            <Link to={`/trainer/hrw/candidates/${checks.candidate.id}`} className="font-semibold underline">
              Record the candidate's checks
            </Link>
          </p>
          <Form method="post" noValidate className="space-y-4">
            <ErrorSummary failure={data} />
            <input type="hidden" name="candidate_id" value={checks.candidate.id} />
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                label="Course"
                name="course_id"
                required
                defaultValue={v.course_id ?? ""}
                error={errors.course_id}
                options={[
                  { value: "", label: "Choose the licence course" },
                  ...options.courses.map((c) => ({ value: c.id, label: `${c.licence_class} \u2014 ${c.name}` })),
                ]}
              />
              <SelectField
                label="State or territory"
                name="state"
                placeholder="The delivery location's state"
                defaultValue={v.state ?? ""}
                error={errors.state}
                hint="Whose regulator issues the licence: the state the assessment is held in unless you choose another"
                options={HRW_STATE_CODES.map((s) => ({ value: s, label: `${s} (${HRW_STATES[s]})` }))}
              />
              <TextField
                label="Assessment date"
                name="assessment_date"
                type="date"
                required
                min={today}
                defaultValue={v.assessment_date}
                error={errors.assessment_date}
              />
              <TextField label="Start time" name="start_time" type="time" required defaultValue={v.start_time ?? "08:00"} error={errors.start_time} />
              <SelectField
                label="Delivery location"
                name="location_id"
                required
                defaultValue={v.location_id ?? options.locations[0]?.id ?? ""}
                error={errors.location_id}
                options={options.locations.map((l) => ({ value: l.id, label: `${l.name} (${l.identifier})` }))}
              />
              <SelectField
                label="Assessor"
                name="assessor_id"
                required
                defaultValue={v.assessor_id ?? ""}
                error={errors.assessor_id}
                options={[{ value: "", label: "Choose the assessor" }, ...options.assessors.map((a) => ({ value: a.id, label: a.full_name }))]}
              />
              <TextField
                label="Plant"
                name="plant_description"
                required
                defaultValue={v.plant_description}
                error={errors.plant_description}
                hint="Make, model and type, e.g. Franna AT-20 pick-and-carry"
              />
              <TextField
                label="Plant registration or serial number"
                name="plant_registration"
                required
                defaultValue={v.plant_registration}
                error={errors.plant_registration}
              />
              <TextField
                label="Hours booked (optional)"
                name="hours"
                inputMode="decimal"
                defaultValue={v.hours}
                error={errors.hours}
                hint="Counts towards the assessor's currency"
              />
            </div>
            <SubmitButton busyLabel="Booking...">Book assessment</SubmitButton>
          </Form>
        </TitledCard>
      )}
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Book an HRW assessment | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError title="Book an HRW assessment" message="Failed to load the booking form" />;
}
