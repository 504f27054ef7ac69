import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as complaintsApi from "~/routes/api+/complaints";
import * as appealsApi from "~/routes/api+/appeals";
import * as registerApi from "~/routes/api+/admin.complaints";
import * as itemApi from "~/routes/api+/admin.complaints.$id";
import * as acknowledgeApi from "~/routes/api+/admin.complaints.$id.acknowledge";
import * as assignApi from "~/routes/api+/admin.complaints.$id.assign";
import * as resolveApi from "~/routes/api+/admin.complaints.$id.resolve";
import * as improvementApi from "~/routes/api+/admin.complaints.$id.improvements";
import { COMPLAINT_MESSAGES } from "~/schemas/complaint-text";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { conformsTo } from "../../tests/support/json-schema";
import { makeDecidedAssessment } from "../../tests/support/factories";
import { call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { openApiDocument } from "./openapi";

/**
 * Complaints and appeals over /api: the same models and schemas as the pages, each answer
 * checked against the OpenAPI document, the refusals included, and nothing stored on a refusal.
 */

const doc = openApiDocument() as unknown as Parameters<typeof conformsTo>[0];

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let assessor: Caller;
let decider: Caller;
let learner: Caller;
let stranger: Caller;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  assessor = await caller(db, "trainer");
  decider = await caller(db, "trainer");
  learner = await caller(db, "student");
  stranger = await caller(db, "student");
});
afterAll(async () => cleanup());

const mod = (m: unknown) => m as RouteModule;
const count = async (table: "complaints" | "outbox_messages" | "improvement_actions") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

const conforms = (response: Response, path: string, method: string) => conformsTo(doc, response, path, method);

const ONE = "/api/admin/complaints/{id}";

describe("complaints over /api", () => {
  it("takes an anonymous complaint, refuses 100 kB with nothing stored, and runs it through the register", async () => {
    const lodged = await conforms(
      await call(mod(complaintsApi), "POST", "/api/complaints", { json: { details: "The yard gate was locked at 7 am and nobody answered the phone" } }),
      "/api/complaints",
      "post",
    );
    expect(lodged).toMatchObject({ reference: expect.stringMatching(/^C-\d{4}-\d{4}$/), mailed: false });
    const before = { complaints: await count("complaints"), mail: await count("outbox_messages") };
    const huge = await conforms(
      await call(mod(complaintsApi), "POST", "/api/complaints", { json: { details: "x".repeat(100 * 1024), email: "v@example.com" } }),
      "/api/complaints",
      "post",
    );
    expect(huge.errors.details).toBe(COMPLAINT_MESSAGES.detailsTooLong);
    expect({ complaints: await count("complaints"), mail: await count("outbox_messages") }).toEqual(before);
    await conforms(await call(mod(complaintsApi), "POST", "/api/complaints", { json: { details: "", colour: "red" } }), "/api/complaints", "post");
    expect(await count("complaints")).toBe(before.complaints);

    const register = await conforms(
      await call(mod(registerApi), "GET", "/api/admin/complaints?kind=complaint&status=open", { token: admin.token }),
      "/api/admin/complaints",
      "get",
    );
    expect(register.map((c: { id: string }) => c.id)).toContain(lodged.id);
    expect(
      await conforms(await call(mod(registerApi), "GET", "/api/admin/complaints?overdue=yes", { token: admin.token }), "/api/admin/complaints", "get"),
    ).toEqual([]);
    await conforms(await call(mod(registerApi), "GET", "/api/admin/complaints?status=lost", { token: admin.token }), "/api/admin/complaints", "get");
    // a trainer reads only the appeals given them to decide: no complaint, and no item by its id
    expect(await conforms(await call(mod(registerApi), "GET", "/api/admin/complaints", { token: decider.token }), "/api/admin/complaints", "get")).toEqual([]);
    await conforms(await call(mod(itemApi), "GET", "/x", { token: decider.token, params: { id: lodged.id } }), ONE, "get");
    await conforms(await call(mod(registerApi), "GET", "/api/admin/complaints", { token: learner.token }), "/api/admin/complaints", "get");

    const item = await conforms(await call(mod(itemApi), "GET", "/x", { token: admin.token, params: { id: lodged.id } }), ONE, "get");
    expect(item).toMatchObject({ kind: "complaint", status: "received", name: null, lodged_by: null, overdue: null });
    const acknowledged = await conforms(
      await call(mod(acknowledgeApi), "POST", "/x", { token: admin.token, params: { id: lodged.id } }),
      `${ONE}/acknowledge`,
      "post",
    );
    expect(acknowledged).toMatchObject({ status: "acknowledged", acknowledged_by: { id: admin.id } });
    await conforms(await call(mod(acknowledgeApi), "POST", "/x", { token: admin.token, params: { id: lodged.id }, json: {} }), `${ONE}/acknowledge`, "post");
    await conforms(
      await call(mod(resolveApi), "POST", "/x", { token: admin.token, params: { id: lodged.id }, json: { outcome: "upheld", reasons: "" } }),
      `${ONE}/resolve`,
      "post",
    );
    await conforms(
      await call(mod(resolveApi), "POST", "/x", {
        token: admin.token,
        params: { id: lodged.id },
        json: { outcome: "upheld", reasons: "Wrong", new_status: "passed" },
      }),
      `${ONE}/resolve`,
      "post",
    );
    const resolved = await conforms(
      await call(mod(resolveApi), "POST", "/x", {
        token: admin.token,
        params: { id: lodged.id },
        json: { outcome: "upheld", reasons: "The gate now opens at 6:45 am and the office phone diverts to the yard" },
      }),
      `${ONE}/resolve`,
      "post",
    );
    expect(resolved).toMatchObject({ status: "resolved", outcome: "upheld", resolved_by: { id: admin.id }, changed_result: null });

    const raised = await conforms(
      await call(mod(improvementApi), "POST", "/x", {
        token: admin.token,
        params: { id: lodged.id },
        json: { description: "Open the gate before the first class", owner_id: decider.id, due_date: "2027-02-01" },
      }),
      `${ONE}/improvements`,
      "post",
    );
    expect(raised).toMatchObject({ source_type: "complaint", source_id: lodged.id, status: "open", owner: { id: decider.id } });
    const actions = await count("improvement_actions");
    await conforms(
      await call(mod(improvementApi), "POST", "/x", {
        token: admin.token,
        params: { id: crypto.randomUUID() },
        json: { description: "x", owner_id: decider.id, due_date: "2027-02-01" },
      }),
      `${ONE}/improvements`,
      "post",
    );
    await conforms(
      await call(mod(improvementApi), "POST", "/x", {
        token: admin.token,
        params: { id: lodged.id },
        json: { description: "x", owner_id: decider.id, due_date: "2027-02-01", source_type: "audit" },
      }),
      `${ONE}/improvements`,
      "post",
    );
    await conforms(await call(mod(improvementApi), "POST", "/x", { token: decider.token, params: { id: lodged.id }, json: {} }), `${ONE}/improvements`, "post");
    expect(await count("improvement_actions")).toBe(actions);
  });
});

describe("appeals over /api", () => {
  it("takes a learner's appeal of their own result, refuses another's, and lets only someone other than the assessor decide", async () => {
    const own = await makeDecidedAssessment(db, learner.id, assessor.id, "failed");
    const strangers = await makeDecidedAssessment(db, stranger.id, assessor.id, "failed");
    const before = await count("complaints");
    const notTheirs = await conforms(
      await call(mod(appealsApi), "POST", "/api/appeals", {
        token: learner.token,
        json: { assessment_kind: "unit", assessment_id: strangers, details: "Not mine" },
      }),
      "/api/appeals",
      "post",
    );
    expect(notTheirs.detail).toMatch(/not found/i);
    await conforms(
      await call(mod(appealsApi), "POST", "/api/appeals", { token: assessor.token, json: { assessment_kind: "unit", assessment_id: own, details: "x" } }),
      "/api/appeals",
      "post",
    );
    expect(await count("complaints")).toBe(before);

    const lodged = await conforms(
      await call(mod(appealsApi), "POST", "/api/appeals", {
        token: learner.token,
        json: { assessment_kind: "unit", assessment_id: own, details: "I lifted within the chart; the assessor read the wrong radius" },
      }),
      "/api/appeals",
      "post",
    );
    expect(lodged).toMatchObject({ reference: expect.stringMatching(/^A-\d{4}-\d{4}$/), mailed: true });
    await conforms(
      await call(mod(appealsApi), "POST", "/api/appeals", { token: learner.token, json: { assessment_kind: "unit", assessment_id: own, details: "Again" } }),
      "/api/appeals",
      "post",
    );
    const mine = await conforms(await call(mod(appealsApi), "GET", "/api/appeals", { token: learner.token }), "/api/appeals", "get");
    expect(mine.map((a: { id: string }) => a.id)).toEqual([lodged.id]);
    expect(await conforms(await call(mod(appealsApi), "GET", "/api/appeals", { token: stranger.token }), "/api/appeals", "get")).toEqual([]);

    // the assessor may be neither assigned nor decide, even when it is an admin who asks
    const assignAssessor = await conforms(
      await call(mod(assignApi), "POST", "/x", { token: admin.token, params: { id: lodged.id }, json: { decider_id: assessor.id } }),
      `${ONE}/assign`,
      "post",
    );
    expect(assignAssessor.detail).toBe(COMPLAINT_MESSAGES.deciderIsAssessor);
    await conforms(
      await call(mod(assignApi), "POST", "/x", { token: decider.token, params: { id: lodged.id }, json: { decider_id: decider.id } }),
      `${ONE}/assign`,
      "post",
    );
    const assigned = await conforms(
      await call(mod(assignApi), "POST", "/x", { token: admin.token, params: { id: lodged.id }, json: { decider_id: decider.id } }),
      `${ONE}/assign`,
      "post",
    );
    expect(assigned).toMatchObject({ decider: { id: decider.id }, assessor: { id: assessor.id } });
    // the assessor cannot read it (not assigned to them); the decider reads it without contact details
    await conforms(
      await call(mod(resolveApi), "POST", "/x", {
        token: assessor.token,
        params: { id: lodged.id },
        json: { outcome: "dismissed", reasons: "My call stands" },
      }),
      `${ONE}/resolve`,
      "post",
    );
    const seen = await conforms(await call(mod(itemApi), "GET", "/x", { token: decider.token, params: { id: lodged.id } }), ONE, "get");
    expect(seen).toMatchObject({ kind: "appeal", email: null, phone: null });

    const decided = await conforms(
      await call(mod(resolveApi), "POST", "/x", {
        token: decider.token,
        params: { id: lodged.id },
        json: { outcome: "upheld", reasons: "The radius was 12 m, within the chart", new_status: "passed" },
      }),
      `${ONE}/resolve`,
      "post",
    );
    expect(decided).toMatchObject({
      status: "resolved",
      outcome: "upheld",
      resolved_by: { id: decider.id },
      changed_result: JSON.stringify({ status: "passed" }),
    });
    expect((await db.selectFrom("assessments").select("status").where("id", "=", own).executeTakeFirstOrThrow()).status).toBe("passed");
    await conforms(
      await call(mod(resolveApi), "POST", "/x", { token: decider.token, params: { id: lodged.id }, json: { outcome: "upheld", reasons: "Again" } }),
      `${ONE}/resolve`,
      "post",
    );
  });

  it("answers 409 when an admin who assessed the result tries to decide its appeal", async () => {
    const assessingAdmin = await caller(db, "admin");
    const own = await makeDecidedAssessment(db, learner.id, assessingAdmin.id, "failed");
    const lodged = await conforms(
      await call(mod(appealsApi), "POST", "/api/appeals", {
        token: learner.token,
        json: { assessment_kind: "unit", assessment_id: own, details: "Please look again" },
      }),
      "/api/appeals",
      "post",
    );
    const refused = await call(mod(resolveApi), "POST", "/x", {
      token: assessingAdmin.token,
      params: { id: lodged.id },
      json: { outcome: "dismissed", reasons: "It stands" },
    });
    expect(refused.status).toBe(409);
    expect((await conforms(refused, `${ONE}/resolve`, "post")).detail).toBe(COMPLAINT_MESSAGES.deciderIsAssessor);
    const item = await conforms(await call(mod(itemApi), "GET", "/x", { token: admin.token, params: { id: lodged.id } }), ONE, "get");
    expect(item).toMatchObject({ status: "received", outcome: null });
  });
});
