import { Form, Link, useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import type { z } from "zod";
import type { PublicUser } from "~/models/user.server";
import type { studentListQuerySchema } from "~/schemas/page-queries";
import { ActiveBadge } from "~/components/status-badges";
import { Button, Card, TableScroll } from "~/components/ui";
import { formatDate } from "~/utils/format";

/**
 * Student Management's parts (app/routes/admin+/students.tsx): the search form, which follows the
 * box as you type with JavaScript and is a plain GET without it, and the table of students.
 */

const STATUS_OPTIONS = [
  { value: "all", label: "All students" },
  { value: "active", label: "Active only" },
  { value: "inactive", label: "Inactive only" },
] as const;

/** The search box and the status filter. */
export function StudentSearchForm({ query }: { query: z.infer<typeof studentListQuerySchema> }) {
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  // Keep the box in step with the URL (back and forward) unless the person is typing in it.
  useEffect(() => {
    const input = searchRef.current;
    if (input && document.activeElement !== input) input.value = query.q;
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  // With JavaScript the list follows the search box as you type; without it, the form is a plain GET.
  const submitSoon = (delay: number) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (formRef.current) submit(formRef.current, { replace: true, preventScrollReset: true });
    }, delay);
  };

  return (
    <Card className="p-4">
      <Form
        ref={formRef}
        method="get"
        action="/admin/students"
        role="search"
        aria-label="Search students"
        onChange={(event) => {
          const target = event.target as HTMLInputElement;
          submitSoon(target.name === "q" ? 300 : 0);
        }}
        className="flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="flex-1">
          <label htmlFor="student-search" className="mb-1 block text-sm font-semibold text-steel-800">
            Search by name or email
          </label>
          <input
            ref={searchRef}
            id="student-search"
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={100}
            autoComplete="off"
            placeholder="e.g. Jordan or @example.com"
            className="block w-full rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm placeholder:text-steel-500 focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 sm:text-sm"
          />
        </div>
        {query.issue ? <input type="hidden" name="issue" value={query.issue} /> : null}
        <details className="group relative" open={query.status !== "all" || undefined}>
          <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-md border border-steel-300 bg-white px-4 py-2 text-sm font-semibold text-steel-800 hover:bg-steel-100 [&::-webkit-details-marker]:hidden">
            Filter
            {query.status !== "all" ? <span className="rounded bg-hivis-100 px-1.5 text-xs text-hivis-900">1</span> : null}
          </summary>
          <fieldset className="mt-2 rounded-md border border-steel-200 bg-white p-3 shadow-sm sm:absolute sm:right-0 sm:z-10 sm:w-56">
            <legend className="sr-only">Status</legend>
            <p aria-hidden className="mb-2 text-xs font-semibold uppercase tracking-wide text-steel-600">
              Status
            </p>
            {STATUS_OPTIONS.map((o) => (
              <label key={o.value} className="flex min-h-9 items-center gap-2 text-sm text-steel-800">
                <input type="radio" name="status" value={o.value} defaultChecked={query.status === o.value} className="h-4 w-4 text-hivis-600" />
                {o.label}
              </label>
            ))}
          </fieldset>
        </details>
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </Form>
    </Card>
  );
}

export type StudentListRow = Pick<PublicUser, "id" | "full_name" | "student_number" | "email" | "phone" | "created_at" | "is_active">;

/** The page of students, each to view or edit in the dialog over the list (the list's search kept). */
export function StudentsTable({ students }: { students: StudentListRow[] }) {
  const { search } = useLocation();
  return (
    <TableScroll label="Students">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Students</caption>
        <thead className="bg-steel-50 text-xs uppercase tracking-wide text-steel-600">
          <tr>
            <th scope="col" className="px-4 py-3">
              Name
            </th>
            <th scope="col" className="hidden px-4 py-3 sm:table-cell">
              Student no.
            </th>
            <th scope="col" className="hidden px-4 py-3 md:table-cell">
              Email
            </th>
            <th scope="col" className="hidden px-4 py-3 lg:table-cell">
              Phone
            </th>
            <th scope="col" className="hidden px-4 py-3 lg:table-cell">
              Joined
            </th>
            <th scope="col" className="px-4 py-3">
              Status
            </th>
            <th scope="col" className="px-4 py-3 text-right">
              Actions
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-steel-100">
          {students.map((s) => (
            <tr key={s.id} className="hover:bg-steel-50">
              <th scope="row" className="px-4 py-3 font-semibold text-steel-900">
                {s.full_name}
                <span className="mt-0.5 block break-all text-xs font-normal text-steel-600 md:hidden">{s.email}</span>
                <span className="block text-xs font-normal text-steel-600 lg:hidden">
                  {s.phone ?? "Not provided"} · Joined {formatDate(s.created_at)}
                </span>
              </th>
              <td className="hidden whitespace-nowrap px-4 py-3 font-mono text-steel-700 sm:table-cell">{s.student_number ?? "None"}</td>
              <td className="hidden break-all px-4 py-3 text-steel-700 md:table-cell">{s.email}</td>
              <td className="hidden whitespace-nowrap px-4 py-3 text-steel-700 lg:table-cell">{s.phone ?? "Not provided"}</td>
              <td className="hidden whitespace-nowrap px-4 py-3 text-steel-700 lg:table-cell">{formatDate(s.created_at)}</td>
              <td className="px-4 py-3">
                <ActiveBadge active={s.is_active} />
              </td>
              <td className="px-4 py-3 text-right">
                <Link
                  to={`/admin/students/${s.id}${search}`}
                  preventScrollReset
                  className="rounded px-2 py-1 font-semibold text-steel-800 underline-offset-4 hover:bg-steel-100 hover:underline"
                >
                  View<span className="sr-only"> {s.full_name}</span>
                </Link>{" "}
                <Link
                  to={`/admin/students/${s.id}/edit${search}`}
                  preventScrollReset
                  className="rounded px-2 py-1 font-semibold text-hivis-800 underline-offset-4 hover:bg-hivis-50 hover:underline"
                >
                  Edit<span className="sr-only"> {s.full_name}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
