import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { requireRole, getDb, listTrainerStudents } from "~/routes/trainer+/students.server";
import { PageTitle } from "~/components/portal-shell";
import { RouteError, TRAINER_LOAD_ERROR } from "~/components/route-error";
import { LiveSearchForm } from "~/components/trainer/live-search";
import { StudentEnrollmentsTable } from "~/components/trainer/student-enrollments-table";
import { ButtonLink, Card, EmptyState, Pagination } from "~/components/ui";
import { searchedListQuery } from "~/schemas/page-queries";

/** The trainer's student list shows 10 at a time. */
const PAGE_SIZE = 10;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "trainer");
  const params = new URL(request.url).searchParams;
  const query = searchedListQuery.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
  const result = await listTrainerStudents(getDb(), { search: query.q, page: query.page, pageSize: PAGE_SIZE });
  return { query, ...result };
}

export default function TrainerStudents() {
  const { query, students, total, totalCapped, page, pageSize, pageCount } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <>
      <PageTitle
        title="My Students"
        subtitle="Active students with a current enrolment, their progress and their latest assessment"
        actions={<ButtonLink to="/trainer/assessments/new">Record an assessment</ButtonLink>}
      />
      <Card className="p-4 sm:p-5">
        <LiveSearchForm action="/trainer/students" label="Search students" placeholder="Name, email or course" value={query.q} />
        <div className="mt-4">
          {students.length ? (
            <>
              <StudentEnrollmentsTable
                students={students}
                withActions
                caption={query.q ? `Students matching \u201c${query.q}\u201d` : "My students by name, with their current courses"}
              />
              <Pagination
                label="Students"
                one="student"
                page={page}
                pageCount={pageCount}
                pageSize={pageSize}
                total={total}
                totalCapped={totalCapped}
                pathname="/trainer/students"
                search={location.search}
              />
            </>
          ) : (
            <EmptyState title={query.q ? "No students found" : "No current students"}>
              {query.q ? `No current student matches \u201c${query.q}\u201d.` : "Students appear here once they enrol in a course."}
            </EmptyState>
          )}
        </div>
      </Card>
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "My Students | Trainer Portal" }];

export function ErrorBoundary() {
  return <RouteError message={TRAINER_LOAD_ERROR} />;
}
