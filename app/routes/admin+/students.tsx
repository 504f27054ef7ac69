import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, Outlet, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { studentListQuerySchema } from "~/schemas/page-queries";
import { requireRole, getDb, searchStudents } from "~/routes/admin+/students.server";
import { PageTitle } from "~/components/portal-shell";
import { Alert, ButtonLink, Card, EmptyState, Pagination } from "~/components/ui";
import { ISSUE_LABELS } from "~/schemas/student-filters";
import { cn } from "~/utils/cn";
import { RouteError } from "~/components/route-error";
import { StudentSearchForm, StudentsTable } from "~/components/admin/student-search";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, "admin");
  const params = new URL(request.url).searchParams;
  const query = studentListQuerySchema.parse({
    q: params.get("q") ?? "",
    status: params.get("status") ?? "all",
    issue: params.get("issue"),
    page: params.get("page") ?? 1,
  });
  const result = await searchStudents(getDb(), query);
  return {
    query,
    ...result,
    students: result.students.map((s) => ({
      id: s.id,
      full_name: s.full_name,
      student_number: s.student_number,
      email: s.email,
      phone: s.phone,
      created_at: s.created_at,
      is_active: s.is_active,
    })),
  };
}

export default function StudentManagement() {
  const { query, students, total, totalCapped, page, pageSize, pageCount } = useLoaderData<typeof loader>();
  const location = useLocation();
  const navigation = useNavigation();
  const search = location.search;
  const searching = navigation.state === "loading" && navigation.location.pathname === "/admin/students";

  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const filtered = query.q !== "" || query.status !== "all" || query.issue !== null;

  return (
    <>
      <PageTitle
        title="Student Management"
        subtitle="Find, view and correct student records"
        actions={
          <ButtonLink to={`/admin/students/new${search}`} preventScrollReset>
            Add Student
          </ButtonLink>
        }
      />
      <StudentSearchForm query={query} />

      {query.issue ? (
        <div className="mt-4">
          <Alert tone="info">
            Showing: {ISSUE_LABELS[query.issue]}.{" "}
            <Link to="/admin/students" className="font-semibold underline">
              Show all students
            </Link>
          </Alert>
        </div>
      ) : null}

      <Card className={cn("mt-4 overflow-hidden", searching && "opacity-70")}>
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-steel-100 px-4 py-3 text-sm text-steel-600" aria-live="polite">
          <p>
            {total === 0
              ? "No students to show"
              : totalCapped
                ? `Showing ${first.toLocaleString("en-AU")}–${last.toLocaleString("en-AU")} of more than ${total.toLocaleString("en-AU")} students: narrow the search to see the rest`
                : `Showing ${first.toLocaleString("en-AU")}–${last.toLocaleString("en-AU")} of ${total.toLocaleString("en-AU")} ${total === 1 ? "student" : "students"}`}
          </p>
          {filtered ? (
            <Link to="/admin/students" className="font-semibold text-hivis-800 underline-offset-4 hover:underline">
              Clear search and filters
            </Link>
          ) : null}
        </div>
        {students.length === 0 ? (
          <div className="p-4">
            <EmptyState title="No students found">
              {filtered ? "Try a different name or email, or clear the filter." : "Add a student to get started."}
            </EmptyState>
          </div>
        ) : (
          <StudentsTable students={students} />
        )}
        {pageCount > 1 ? (
          <Pagination
            label="Students"
            one="student"
            page={page}
            pageCount={pageCount}
            pageSize={pageSize}
            total={total}
            pathname="/admin/students"
            search={search}
            range={false}
            className="border-t border-steel-100 px-4 py-3"
          />
        ) : null}
      </Card>
      <Outlet />
    </>
  );
}

export const meta: MetaFunction = () => [{ title: "Student Management | Summit Crane & Rigging Training" }];

export function ErrorBoundary() {
  return <RouteError title="Student Management" message="Failed to load students" />;
}
