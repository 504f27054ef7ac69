import { sql } from "kysely";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeTransaction, type DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, TEST_DIALECT, useAsAppDb } from "../../../tests/support/test-db";
import { createSession } from "~/auth/session.server";
import CourseDetails, { ErrorBoundary as CourseDetailsError, loader as courseDetailsLoader } from "./courses.$id";
import AdminOverview, { ErrorBoundary as OverviewError, loader as overviewLoader } from "./overview";
import StudentProfile, { ErrorBoundary as StudentProfileError, loader as studentProfileLoader } from "./students.$id";
import AuditTrail, { ErrorBoundary as AuditTrailError, loader as auditTrailLoader } from "./audit";
import { recordAudit } from "~/models/audit.server";

/**
 * Admin pages rendered the way the server renders them, to show their failure messages
 * when their data cannot be loaded (a table made unreadable stands in for a database fault).
 */
let db: DB;
let cleanup: () => Promise<void>;
let cookie: string;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const admin = await makeUser(db, { role: "admin", full_name: "Alex Admin" });
  cookie = (await createSession(db, admin.id)).split(";")[0]!;
});
afterEach(async () => {
  globalThis.__portalDb = undefined;
  await cleanup();
});

type Loader = (args: { request: Request; params: Record<string, string | undefined>; context: object }) => unknown;

async function render(path: string, route: { path: string; loader: Loader; Component: () => JSX.Element; ErrorBoundary: () => JSX.Element }) {
  const handler = createStaticHandler([
    {
      id: "page",
      path: route.path,
      loader: (args) => route.loader({ request: args.request, params: args.params, context: {} }) as never,
      Component: route.Component,
      ErrorBoundary: route.ErrorBoundary,
    },
  ]);
  const context = await handler.query(new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return { html: renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />), status: context.statusCode };
}

const overview = { path: "/admin/overview", loader: overviewLoader as Loader, Component: AdminOverview, ErrorBoundary: OverviewError };

describe("the administrator dashboard", () => {
  it("shows the figures, recent students and pending approvals", async () => {
    await makeUser(db, { full_name: "Recent Learner" });
    await makeUser(db, { full_name: "Waiting Trainer", role: "trainer", approval_status: "pending" });
    const { html, status } = await render("/admin/overview", overview);
    expect(status).toBe(200);
    expect(html).toContain("Administrator Dashboard");
    expect(html).toContain("Tier 2 - Intermediate");
    expect(html).toContain("Recent Learner");
    expect(html).toContain("Waiting Trainer");
    expect(html).not.toContain("Failed to load dashboard data");
  });

  it("says 'Failed to load dashboard data' when the figures cannot be read", async () => {
    // the figures are read from the kept counts (migration 2026-11-22T1900)
    await sql`alter table enrollment_counts rename to enrollment_counts_unavailable`.execute(db);
    const { html, status } = await render("/admin/overview", overview);
    expect(status).toBe(500);
    expect(html).toContain("Failed to load dashboard data");
    expect(html).not.toContain("Tier 2 - Intermediate");
  });
});

describe("the modals", () => {
  const profile = { path: "/admin/students/:id", loader: studentProfileLoader as Loader, Component: StudentProfile, ErrorBoundary: StudentProfileError };
  const course = { path: "/admin/courses/:id", loader: courseDetailsLoader as Loader, Component: CourseDetails, ErrorBoundary: CourseDetailsError };

  it("the Student Profile says 'Failed to load student details' when the record cannot be read", async () => {
    const student = await makeUser(db, { full_name: "Profile Person" });
    const ok = await render(`/admin/students/${student.id}`, profile);
    expect(ok.status).toBe(200);
    expect(ok.html).toContain("Profile Person");
    expect(ok.html).toContain("No enrolments found");

    await sql`alter table files rename to files_unavailable`.execute(db);
    const { html, status } = await render(`/admin/students/${student.id}`, profile);
    expect(status).toBe(500);
    expect(html).toContain("Failed to load student details");
    expect(html).not.toContain("Profile Person");
  });

  it("an unknown student or course id is a 404 inside the modal", async () => {
    const missing = await render("/admin/students/not-a-uuid", profile);
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("Failed to load student details");
    expect(missing.html).toContain("Student not found");
    const gone = await render(`/admin/courses/${crypto.randomUUID()}`, course);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain("Failed to load course details");
  });

  it("Course Details says 'Failed to load course details' when its figures cannot be read", async () => {
    const c = await makeCourse(db, { name: "Hoist basics" });
    const s = await makeUser(db, { full_name: "Enrolled Learner" });
    await makeEnrollment(db, s.id, c.id, { status: "completed", progress: 100 });
    const ok = await render(`/admin/courses/${c.id}`, course);
    expect(ok.status).toBe(200);
    expect(ok.html).toContain("Enrolled Learner");
    expect(ok.html).toContain("100<!-- -->%");

    await sql`alter table enrollments rename to enrollments_unavailable`.execute(db);
    const { html, status } = await render(`/admin/courses/${c.id}`, course);
    expect(status).toBe(500);
    expect(html).toContain("Failed to load course details");
  });
});

describe("the audit trail page", () => {
  const audit = { path: "/admin/audit", loader: auditTrailLoader as Loader, Component: AuditTrail, ErrorBoundary: AuditTrailError };
  /** The page's text, without the markers React puts between adjacent pieces of text. */
  const text = (html: string) => html.replaceAll("<!-- -->", "");

  it("opens with the chain's state, counts entries (not pages), and shows times in Sydney", async () => {
    for (let i = 0; i < 14; i++)
      await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, now: "2026-11-20T02:00:00.000Z" }));
    await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null }, detail: "late night", now: "2026-11-27T14:23:52.000Z" }));
    const page = text((await render("/admin/audit", audit)).html);
    expect(page).toContain("Audit trail: chain intact through entry 15");
    expect(page).toContain("Showing 1–15 of 15 entries (page 1 of 1)");
    expect(page).not.toMatch(/audit trail pages/i);
    expect(page).toContain("28 Nov 2026, 1:23 am");
    const filtered = text((await render("/admin/audit?from=2026-11-28&to=2026-11-28", audit)).html);
    expect(filtered).toContain("Showing 1–1 of 1 entry (page 1 of 1)");
  });

  it("names the first entry that does not match, also when the filters are wrong", async () => {
    for (let i = 0; i < 3; i++) await writeTransaction(db, (trx) => recordAudit(trx, { action: "sign_out", actor: { id: null } }));
    await db.connection().execute(async (conn) => {
      const unguard = TEST_DIALECT === "postgres" ? "alter table audit_log disable trigger user" : "drop trigger audit_log_no_update";
      await sql.raw(unguard).execute(conn);
      await sql`update audit_log set detail = 'edited' where id = 2`.execute(conn);
    });
    const { html } = await render("/admin/audit", audit);
    expect(text(html)).toMatch(/role="alert"[^>]*>Audit trail: entry 2 does not match: it was changed after it was written\./);
    const bad = await render("/admin/audit?to=yesterday", audit);
    expect(bad.status).toBe(400);
    expect(text(bad.html)).toContain("Audit trail: entry 2 does not match");
  });
});
