import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { call, type RouteModule } from "../support/api-calls";
import * as loginRoute from "~/routes/_auth+/login";
import * as registerRoute from "~/routes/_auth+/register";
import { createTestDb, useAsAppDb } from "../support/test-db";
import { makeUser } from "../support/factories";

/**
 * A sign-in that comes with a hostile way back (`?redirectTo=`) still signs in, lands on the
 * dashboard, and leaves exactly the one session the browser holds.
 */
const login = loginRoute as unknown as RouteModule;
const register = registerRoute as unknown as RouteModule;
let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

describe("/login?redirectTo=", () => {
  it.each([
    "/student/courses;x",
    "/student/courses\r\nSet-Cookie: stolen=1",
    "/student/\ncourses",
    "/\\evil.example",
    "/student\\courses",
    "//evil.example/x",
    "https://evil.example/",
    "/..//evil.example",
    "/a/..//x",
    "/%2e%2e//x",
  ])("%j: signs in to /dashboard with one session, never a 500", async (target) => {
    const { id, email } = await makeUser(db);
    const response = await call(login, "POST", `/login?${new URLSearchParams({ redirectTo: target })}`, {
      body: new URLSearchParams({ email, password: "password123" }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(response.headers.get("Set-Cookie")).toMatch(/__session=/);
    const sessions = await db.selectFrom("sessions").select("id").where("user_id", "=", id).execute();
    expect(sessions).toHaveLength(1);
  });

  it("keeps a way back within the site", async () => {
    const { email } = await makeUser(db);
    const response = await call(login, "POST", `/login?redirectTo=${encodeURIComponent("/student/courses?tab=2")}`, {
      body: new URLSearchParams({ email, password: "password123" }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(response.headers.get("Location")).toBe("/student/courses?tab=2");
  });
});

describe("/register?redirectTo=", () => {
  const signUp = (target: string, email: string) =>
    call(register, "POST", `/register?${new URLSearchParams({ redirectTo: target })}`, {
      body: new URLSearchParams({
        full_name: "Way Back",
        email,
        password: "Rigging-Kestrel-42",
        confirm_password: "Rigging-Kestrel-42",
        role: "student",
      }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });

  it("hands the way back to the sign-in page", async () => {
    const response = await signUp("/enroll/course-1", `back-${crypto.randomUUID()}@example.com`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?redirectTo=%2Fenroll%2Fcourse-1");
  });

  it.each(["//evil.example", "https://evil.example/", "/\\evil.example", "/%2e%2e//evil.example"])("%j: hands on nothing", async (target) => {
    const response = await signUp(target, `hostile-${crypto.randomUUID()}@example.com`);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
  });
});
