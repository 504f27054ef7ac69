import { sql } from "kysely";
import { renderToString } from "react-dom/server";
import type { LoaderFunction } from "react-router-dom";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { makeCourse, makeEnrollment, makeUser } from "../../../tests/support/factories";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { createSession } from "~/auth/session.server";
import { ErrorBoundary as PageErrorBoundary } from "./overview";
import StudentLayout, { ErrorBoundary, loader } from "./_layout";

/**
 * The /student layout rendered the way the server renders it, to show what a student sees when
 * loading their data fails: 'Failed to load student data'.
 */
let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterEach(async () => {
  globalThis.__portalDb = undefined;
  await cleanup();
});

async function render(path: string, child: { loader?: LoaderFunction; Component: () => JSX.Element }, afterArrange: () => Promise<unknown> = async () => {}) {
  const { id } = await makeUser(db, { full_name: "Avery Stone" });
  const course = await makeCourse(db, { name: "Dogging" });
  await makeEnrollment(db, id, course.id, { status: "in_progress", progress: 40 });
  const cookie = (await createSession(db, id)).split(";")[0]!;
  await afterArrange();
  const handler = createStaticHandler([
    {
      id: "routes/student+/_layout",
      path: "/student",
      loader: (args) => loader({ ...args, context: {} }),
      Component: StudentLayout,
      ErrorBoundary,
      children: [{ id: "child", path: "page", ErrorBoundary: PageErrorBoundary, ...child }],
    },
  ]);
  const context = await handler.query(new Request(`http://localhost${path}`, { headers: { Cookie: cookie } }));
  if (context instanceof Response) throw new Error(`unexpected response ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return { html: renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />), status: context.statusCode };
}

describe("the student layout", () => {
  it("loads and frames the student's pages", async () => {
    const { html, status } = await render("/student/page", { Component: () => <p>the page</p> });
    expect(status).toBe(200);
    expect(html).toContain("Student Portal");
    expect(html).toContain("Avery Stone");
    expect(html).toContain("the page");
    expect(html).not.toContain("Failed to load student data");
  });

  it("shows 'Failed to load student data' when the enrollments cannot be read", async () => {
    const { html, status } = await render("/student/page", { Component: () => <p>the page</p> }, () =>
      sql`alter table enrollments rename to enrollments_unavailable`.execute(db),
    );
    expect(status).toBe(500);
    expect(html).toContain("Failed to load student data");
    expect(html).toContain("Try again");
    expect(html).not.toContain("the page");
  });

  it("keeps the portal frame when only a page's own data fails", async () => {
    const { html, status } = await render("/student/page", {
      loader: () => {
        throw new Error("database unavailable");
      },
      Component: () => <p>the page</p>,
    });
    expect(status).toBe(500);
    expect(html).toContain("Avery Stone");
    expect(html).toContain("Failed to load student data");
    expect(html).not.toContain("database unavailable");
  });
});
