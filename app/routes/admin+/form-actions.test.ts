import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../../tests/support/test-db";
import { makeCourse, makeUser } from "../../../tests/support/factories";
import { call, sessionCookie, type RouteModule } from "../../../tests/support/api-calls";
import { readFlash } from "~/utils/flash.server";
import { NOT_YOURSELF } from "~/models/staff.server";
import * as coursesPage from "~/routes/admin+/courses";
import * as newCoursePage from "~/routes/admin+/courses.new";
import * as editCoursePage from "~/routes/admin+/courses.$id_.edit";
import * as mailPage from "~/routes/admin+/mail";
import * as overviewPage from "~/routes/admin+/overview";
import * as staffPage from "~/routes/admin+/staff";
import * as webhookPage from "~/routes/admin+/webhooks_.$id";
import * as webhooksPage from "~/routes/admin+/webhooks";
import * as retentionPage from "~/routes/admin+/retention";
import * as newImprovementPage from "~/routes/admin+/improvements.new";
import { UNKNOWN_SOURCE } from "~/models/standards/improvement.server";

/**
 * The admin pages' failed posts, as a person sees them: the list pages' row buttons go back to
 * the list with the message in a flash; the course forms come back with the form as typed.
 */
let db: DB;
let cleanup: () => Promise<void>;
let cookie: string;
let adminId: string;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  const admin = await makeUser(db, { role: "admin" });
  adminId = admin.id;
  cookie = await sessionCookie(db, admin.id);
});
afterAll(() => cleanup());

const FORM = "application/x-www-form-urlencoded";
const page = (mod: unknown) => mod as RouteModule;

function post(mod: unknown, path: string, fields: Record<string, string> | string, options: { params?: Record<string, string>; contentType?: string } = {}) {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  return call(page(mod), "POST", path, { cookie, body, contentType: options.contentType ?? FORM, params: options.params });
}

/** Where a redirect goes, and the flash the page there shows. */
async function landing(response: Response) {
  const location = response.headers.get("Location")!;
  const flashCookie = response.headers.getSetCookie().find((c) => c.startsWith("__flash"))!;
  const { flash } = await readFlash(new Request(`http://localhost${location}`, { headers: { Cookie: flashCookie.split(";")[0]! } }));
  return { status: response.status, location, flash: flash && { type: flash.type, message: flash.message } };
}

const error = (message: string) => ({ type: "error", message });

describe("row buttons answer a failure with a flash on the list", () => {
  it("Course Management: any failure is 'Failed to update course status'", async () => {
    const missing = crypto.randomUUID();
    expect(await landing(await post(coursesPage, "/admin/courses?status=active", { intent: "toggle", course_id: "nope", is_active: "true" }))).toEqual({
      status: 302,
      location: "/admin/courses?status=active",
      flash: error("Failed to update course status"),
    });
    expect(await landing(await post(coursesPage, "/admin/courses", { intent: "toggle", course_id: missing, is_active: "true" }))).toEqual({
      status: 302,
      location: "/admin/courses",
      flash: error("Failed to update course status"),
    });
    expect(await landing(await post(coursesPage, "/admin/courses", JSON.stringify({ intent: "toggle" }), { contentType: "application/json" }))).toEqual({
      status: 302,
      location: "/admin/courses",
      flash: error("Failed to update course status"),
    });
    // deactivating asks first, then is done
    const course = await makeCourse(db);
    const asked = await post(coursesPage, "/admin/courses", { intent: "toggle", course_id: course.id, is_active: "false" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ confirm: "deactivate", course_id: course.id });
    const done = await post(coursesPage, "/admin/courses", { intent: "toggle", course_id: course.id, is_active: "false", confirm: "yes" });
    expect((await landing(done)).flash).toEqual({ type: "success", message: "Course deactivated successfully" });
  });

  it("Mail: the schema's message or the model's", async () => {
    expect(await landing(await post(mailPage, "/admin/mail?state=given_up", { intent: "resend", id: "nope" }))).toEqual({
      status: 302,
      location: "/admin/mail?state=given_up",
      flash: error("Unknown message"),
    });
    expect(await landing(await post(mailPage, "/admin/mail", { intent: "resend", id: crypto.randomUUID() }))).toEqual({
      status: 302,
      location: "/admin/mail",
      flash: error("Message not found"),
    });
    expect((await landing(await post(mailPage, "/admin/mail", "{}", { contentType: "application/json" }))).flash).toEqual(error("Unknown action"));
  });

  it("Dashboard: an unknown action, or an account no longer waiting", async () => {
    expect(await landing(await post(overviewPage, "/admin/overview", { intent: "approve", user_id: crypto.randomUUID() }))).toEqual({
      status: 302,
      location: "/admin/overview",
      flash: error("That account is no longer waiting for approval"),
    });
    expect((await landing(await post(overviewPage, "/admin/overview", { intent: "promote", user_id: crypto.randomUUID() }))).flash).toEqual(
      error("Unknown action"),
    );
    expect((await landing(await post(overviewPage, "/admin/overview", "{}", { contentType: "application/json" }))).flash).toEqual(error("Unknown action"));
  });

  it("Staff: each button's own message, or the model's refusal", async () => {
    expect(await landing(await post(staffPage, "/admin/staff", { intent: "toggle", user_id: "nope", is_active: "false" }))).toEqual({
      status: 302,
      location: "/admin/staff",
      flash: error("Failed to update the account"),
    });
    expect((await landing(await post(staffPage, "/admin/staff", { intent: "reset-two-step", user_id: "nope" }))).flash).toEqual(
      error("Failed to reset two-step sign-in"),
    );
    expect((await landing(await post(staffPage, "/admin/staff", { intent: "require-sso", require_sso_for_staff: "maybe" }))).flash).toEqual(
      error("Failed to change how staff sign in"),
    );
    expect((await landing(await post(staffPage, "/admin/staff", "{}", { contentType: "application/json" }))).flash).toEqual(
      error("Failed to update the account"),
    );
    // the model's refusals, in its words
    const stranger = crypto.randomUUID();
    expect((await landing(await post(staffPage, "/admin/staff", { intent: "reset-two-step", user_id: stranger }))).flash).toEqual(error("User not found"));
    const self = await post(staffPage, "/admin/staff", { intent: "toggle", user_id: adminId, is_active: "false", confirm: "yes" });
    expect((await landing(self)).flash).toEqual(error(NOT_YOURSELF));
    // turning single sign-on on is asked first
    const asked = await post(staffPage, "/admin/staff", { intent: "require-sso", require_sso_for_staff: "true" });
    expect(asked.status).toBe(200);
    expect(await asked.json()).toEqual({ confirm: "require-sso" });
  });

  it("Webhook endpoint: an unknown action is a flash, an unknown endpoint the page's 404", async () => {
    const id = crypto.randomUUID();
    const params = { id };
    expect(await landing(await post(webhookPage, `/admin/webhooks/${id}`, { intent: "explode" }, { params }))).toEqual({
      status: 302,
      location: `/admin/webhooks/${id}`,
      flash: error("Unknown action"),
    });
    expect((await post(webhookPage, `/admin/webhooks/${id}`, { intent: "toggle" }, { params })).status).toBe(404);
    expect((await post(webhookPage, `/admin/webhooks/${id}`, { intent: "resend", delivery: "d1" }, { params })).status).toBe(404);
  });
});

describe("the course forms come back as typed", () => {
  const typed = {
    unit_code: "",
    name: "Half a course",
    description: "",
    tier: "tier_2",
    duration_hours: "8",
    price: "12.50",
    is_active_present: "1",
    learning_outcomes_present: "1",
    assessment_criteria_present: "1",
    prerequisites_present: "1",
  };
  const listed = (fields: Record<string, string>, lists: [string, string][]) => {
    const body = new URLSearchParams(fields);
    for (const [name, value] of lists) body.append(name, value);
    return body.toString();
  };

  it("Add Course: invalid fields are a 400 with the state, the first message and no toast", async () => {
    const response = await post(
      newCoursePage,
      "/admin/courses/new",
      listed(typed, [
        ["learning_outcomes", "Sling, and lift"],
        ["learning_outcomes", ""],
      ]),
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown> & { state: Record<string, unknown>; fieldErrors: Record<string, string> };
    expect(body.focus).toBeNull();
    expect(body.toast).toBeUndefined();
    expect(body.fieldErrors.unit_code).toBeTruthy();
    expect(body.error).toBe(Object.values(body.fieldErrors)[0]);
    expect(body.state).toMatchObject({ name: "Half a course", tier: "tier_2", price: "12.50", is_active: false, learning_outcomes: ["Sling, and lift", ""] });
    // a body that is not the form
    const unreadable = await post(newCoursePage, "/admin/courses/new", "{}", { contentType: "application/json" });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.json()).toMatchObject({
      error: "Failed to create course",
      fieldErrors: {},
      toast: { type: "error", message: "Failed to create course" },
    });
  });

  it("Add Course: a list's Add button sends the form back with a row more, nothing saved", async () => {
    const response = await post(newCoursePage, "/admin/courses/new", listed({ ...typed, intent: "add-outcome" }, [["learning_outcomes", "Sling"]]));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ error: null, focus: { list: "learning_outcomes", index: 1 }, state: { learning_outcomes: ["Sling", ""] } });
  });

  it("Edit Course: an unknown course is the page's 404; a refusal keeps the form; a save goes back to the list", async () => {
    const course = await makeCourse(db);
    const params = { id: course.id };
    const invalid = await post(editCoursePage, `/admin/courses/${course.id}/edit`, listed({ ...typed, price: "-1" }, [["learning_outcomes", "Rig"]]), {
      params,
    });
    expect(invalid.status).toBe(400);
    const body = (await invalid.json()) as { fieldErrors: Record<string, string>; state: { name: string; learning_outcomes: string[] } };
    expect(body.fieldErrors.price).toBeTruthy();
    expect(body.state).toMatchObject({ name: "Half a course", learning_outcomes: ["Rig"] });
    const saved = await post(
      editCoursePage,
      `/admin/courses/${course.id}/edit?status=active`,
      listed({ ...typed, description: "Whole" }, [
        ["learning_outcomes", "Rig"],
        ["assessment_criteria", "Rigs"],
      ]),
      { params },
    );
    expect(await landing(saved)).toEqual({
      status: 302,
      location: "/admin/courses?status=active",
      flash: { type: "success", message: "Course updated successfully" },
    });
    const gone = await post(editCoursePage, `/admin/courses/${crypto.randomUUID()}/edit`, typed, { params: { id: crypto.randomUUID() } });
    expect(gone.status).toBe(404);
  });
});

describe("a value the app has no record of is refused at its field, nothing stored", () => {
  const count = async (table: "retention_rules" | "improvement_actions" | "webhook_endpoints") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("Retention: a licence class that is none of the licence classes", async () => {
    const before = await count("retention_rules");
    const response = await post(retentionPage, "/admin/retention", {
      intent: "rule",
      record_type: "assessment_evidence",
      licence_class: "ZZ",
      keep_months: "12",
      source: "test",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toEqual({ licence_class: "Choose a licence class from the list" });
    expect(await count("retention_rules")).toBe(before);
    // a real class, and the blank of every class, are saved
    expect(
      (
        await post(retentionPage, "/admin/retention", {
          intent: "rule",
          record_type: "assessment_evidence",
          licence_class: "CD",
          keep_months: "24",
          source: "The regulator asks longer",
        })
      ).status,
    ).toBe(302);
    expect(await count("retention_rules")).toBe(before + 1);
  });

  it("Raise an improvement action: a complaint that does not exist", async () => {
    const before = await count("improvement_actions");
    const response = await post(newImprovementPage, "/admin/improvements/new", {
      source_type: "complaint",
      source_id: "nonexistent-id",
      description: "Explain the refund rule",
      owner_id: adminId,
      due_date: "2027-01-15",
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toEqual({ source_id: UNKNOWN_SOURCE.complaint });
    expect(await count("improvement_actions")).toBe(before);
  });

  it("Webhooks: a description with a control character", async () => {
    const before = await count("webhook_endpoints");
    const response = await post(webhooksPage, "/admin/webhooks", "url=http%3A%2F%2F127.0.0.1%3A4916%2Ft&events=enrolment.created&description=x%01y");
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors).toEqual({
      description: "Description must be a single line without control characters",
    });
    expect(await count("webhook_endpoints")).toBe(before);
  });
});
