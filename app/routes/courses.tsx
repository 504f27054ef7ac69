import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { RouteError } from "~/components/route-error";
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useRef, type FormEvent } from "react";
import { catalogueQuery } from "~/schemas/page-queries";
import type { Tier } from "#db/schema";
import { getOptionalUser, getDb, organisation, cataloguePage } from "~/routes/courses.server";
import { CourseCard, toCourseCardData } from "~/components/course-card";
import { SiteFooter } from "~/components/landing/site-footer";
import { SiteHeader } from "~/components/site-header";
import { buttonClasses, Pagination, Spinner } from "~/components/ui";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getOptionalUser(request);
  const params = new URL(request.url).searchParams;
  const query = catalogueQuery.parse({ q: params.get("q") ?? "", tier: params.get("tier") ?? "all", page: params.get("page") ?? 1 });
  const { q, tier } = query;
  const { list, classes } = await cataloguePage(getDb(), { q, tier: tier as "all" | Tier, page: query.page });
  return {
    signedIn: user !== null,
    q,
    tier,
    courses: list.courses.map((c) => toCourseCardData(c, classes[c.id])),
    pages: { total: list.total, page: list.page, pageSize: list.pageSize, pageCount: list.pageCount },
    rto: organisation(),
  };
}

const TIER_OPTIONS = [
  { value: "all", label: "All tiers" },
  { value: "tier_1", label: "Tier 1 - Basic Operations" },
  { value: "tier_2", label: "Tier 2 - Intermediate" },
  { value: "tier_3", label: "Tier 3 - Advanced" },
];

const SEARCH_DELAY_MS = 300;

/** "12 courses open for enrolment", "1 course matches your search": every page of the result. */
function countLine(total: number, filtered: boolean): string {
  if (!filtered) return total === 1 ? "1 course open for enrolment" : `${total} courses open for enrolment`;
  return total === 1 ? "1 course matches your search" : `${total} courses match your search`;
}

export default function Courses() {
  const { signedIn, q, tier, courses, pages, rto } = useLoaderData<typeof loader>();
  const location = useLocation();
  const submit = useSubmit();
  const navigation = useNavigation();
  const searchRef = useRef<HTMLInputElement>(null);
  const tierRef = useRef<HTMLSelectElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const searching = navigation.state === "loading" && navigation.location?.pathname === "/courses";

  const formRef = useRef<HTMLFormElement>(null);
  const shown = useRef({ q, tier });

  // Whatever was typed or chosen before the page became interactive still counts.
  useEffect(() => {
    const form = formRef.current;
    if (form && (searchRef.current?.value.trim() !== q || tierRef.current?.value !== tier)) filter(form, 0);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, on hydration: later changes come from the form's own handlers

  // Back and forward change the URL under the form: show what the URL says, but never
  // overwrite what the user is typing.
  useEffect(() => {
    if (shown.current.q === q && shown.current.tier === tier) return;
    shown.current = { q, tier };
    if (searchRef.current && document.activeElement !== searchRef.current) searchRef.current.value = q;
    if (tierRef.current) tierRef.current.value = tier;
  }, [q, tier]);
  useEffect(() => () => clearTimeout(timer.current), []);
  // Leaving the page (a card's link, say) cancels a search still waiting to run, which would
  // otherwise pull the user back here.
  const leaving = navigation.state !== "idle" && navigation.location?.pathname !== "/courses";
  useEffect(() => {
    if (leaving) clearTimeout(timer.current);
  }, [leaving]);

  // With JavaScript the list follows the form as the user types; the URL keeps only what is set,
  // so a new search starts again at page 1.
  function filter(form: HTMLFormElement, delay: number) {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const data = new FormData(form);
      const params = new URLSearchParams();
      const term = String(data.get("q") ?? "").trim();
      const chosen = String(data.get("tier") ?? "all");
      if (term) params.set("q", term);
      if (chosen !== "all") params.set("tier", chosen);
      submit(params, { method: "get", action: "/courses", replace: true, preventScrollReset: true });
    }, delay);
  }

  const filtered = q !== "" || tier !== "all";
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main">
        <section className="bg-steel-950 text-white">
          <div className="mx-auto max-w-6xl px-4 py-10 sm:py-14">
            <p className="text-sm font-bold uppercase tracking-wider text-hivis-400">Nationally recognised training</p>
            <h1 className="mt-2 text-3xl font-extrabold tracking-tight sm:text-4xl">Course Catalogue</h1>
            <p className="mt-3 max-w-2xl text-steel-200">
              High-risk work licence courses in dogging, rigging and crane operation, grouped in three tiers. Search by name or unit code, or narrow the list to
              one tier.
            </p>
          </div>
        </section>

        <div className="mx-auto max-w-6xl px-4 py-8">
          <Form
            ref={formRef}
            method="get"
            action="/courses"
            role="search"
            aria-label="Find a course"
            className="flex flex-col gap-3 rounded-xl border border-steel-200 bg-white p-4 shadow-sm sm:flex-row sm:items-end"
            onChange={(e: FormEvent<HTMLFormElement>) => filter(e.currentTarget, (e.target as HTMLElement).tagName === "SELECT" ? 0 : SEARCH_DELAY_MS)}
            onSubmit={(e) => {
              e.preventDefault();
              filter(e.currentTarget, 0);
            }}
          >
            <div className="flex-1">
              <label htmlFor="course-search" className="mb-1 block text-sm font-semibold text-steel-800">
                Search courses
              </label>
              <input
                ref={searchRef}
                id="course-search"
                type="search"
                name="q"
                defaultValue={q}
                maxLength={100}
                placeholder="e.g. dogging, tower crane, TLILIC0043"
                className="block w-full rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm placeholder:text-steel-500 focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 sm:text-sm"
              />
            </div>
            <div className="sm:w-64">
              <label htmlFor="course-tier" className="mb-1 block text-sm font-semibold text-steel-800">
                Tier
              </label>
              <select
                ref={tierRef}
                id="course-tier"
                name="tier"
                defaultValue={tier}
                className="block w-full rounded-md border border-steel-300 bg-white px-3 py-2 text-base text-steel-900 shadow-sm focus:border-hivis-500 focus:outline-none focus:ring-2 focus:ring-hivis-500/40 sm:text-sm"
              >
                {TIER_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonClasses("secondary", "md")}>
              Search
            </button>
          </Form>

          <div className="mt-6 flex min-h-8 flex-wrap items-center justify-between gap-3">
            <p aria-live="polite" className="text-sm font-medium text-steel-700">
              {countLine(pages.total, filtered)}
            </p>
            <div className="flex items-center gap-3">
              {searching ? <Spinner label="Updating results" /> : null}
              {filtered ? (
                <Link to="/courses" className="text-sm font-semibold text-hivis-700 underline-offset-4 hover:underline">
                  Clear filters
                </Link>
              ) : null}
            </div>
          </div>

          {courses.length ? (
            <>
              <div className="mt-4 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
                {courses.map((course) => (
                  <CourseCard key={course.id} course={course} signedIn={signedIn} />
                ))}
              </div>
              {pages.pageCount > 1 ? <Pagination label="Courses" one="course" {...pages} pathname="/courses" search={location.search} /> : null}
            </>
          ) : (
            <div className="mt-4 rounded-xl border border-dashed border-steel-300 bg-white px-4 py-14 text-center">
              <h2 className="text-xl font-bold text-steel-900">No Courses Found</h2>
              <p className="mt-2 text-steel-600">No course matches your search. Try other words or another tier.</p>
              <Link to="/courses" className={`${buttonClasses("secondary", "md")} mt-6`}>
                Show all courses
              </Link>
            </div>
          )}
        </div>
      </main>
      <SiteFooter rto={rto} />
    </>
  );
}

export const meta: MetaFunction = () => [
  { title: "Courses | Summit Crane & Rigging Training" },
  { name: "description", content: "Crane operation, dogging and rigging licence courses in three tiers, with hours, prices and learning outcomes." },
];

export function ErrorBoundary() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-xl px-4 py-16">
        <RouteError title="Course Catalogue" message="Failed to load courses" />
      </main>
    </>
  );
}

/** The site footer carries the complaints policy link here, so the root leaves out its own strip; the meta describes the page, so the root adds no description. */
export const handle = { siteFooter: true, describesItself: true };
