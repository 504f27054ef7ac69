import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import * as improvementsApi from "~/routes/api+/admin.improvements";
import * as improvementApi from "~/routes/api+/admin.improvements.$id";
import * as closeApi from "~/routes/api+/admin.improvements.$id.close";
import * as questionsApi from "~/routes/api+/admin.questionnaires.questions";
import * as questionApi from "~/routes/api+/admin.questionnaires.questions.$id";
import * as thresholdApi from "~/routes/api+/admin.questionnaires.threshold";
import * as summaryApi from "~/routes/api+/admin.questionnaires.summary";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { validateJsonSchema } from "../../tests/support/json-schema";
import { call, caller, type Caller, type RouteModule } from "../../tests/support/api-calls";
import { UNKNOWN_SOURCE } from "~/models/standards/improvement.server";
import { openApiDocument } from "./openapi";

/**
 * The improvement register and the questionnaires over /api: the same models and schemas as the
 * pages, each answer checked against the OpenAPI document, the refusals included.
 */

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }> }>> };
const doc = openApiDocument() as unknown as Doc;

let db: DB;
let cleanup: () => Promise<void>;
let admin: Caller;
let trainer: Caller;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
  admin = await caller(db, "admin");
  trainer = await caller(db, "trainer");
});
afterAll(async () => cleanup());

const mod = (m: unknown) => m as RouteModule;

async function conforms(response: Response, path: string, method: string) {
  const documented = doc.paths[path]?.[method]?.responses[String(response.status)];
  expect(documented, `${method} ${path} documents ${response.status}`).toBeDefined();
  const schema = documented!.content?.["application/json"]?.schema;
  expect(schema, `${method} ${path} ${response.status} has a JSON schema`).toBeDefined();
  const body = await response.json();
  expect(validateJsonSchema(body, schema!, doc as unknown as Record<string, unknown>)).toEqual([]);
  return body;
}

describe("the improvement register over /api", () => {
  it("raises, lists, updates and closes an action, refusing a close without evidence", async () => {
    const list = "/api/admin/improvements";
    const one = "/api/admin/improvements/{id}";
    const close = "/api/admin/improvements/{id}/close";
    const raised = await conforms(
      await call(mod(improvementsApi), "POST", list, {
        token: admin.token,
        json: {
          source_type: "audit",
          source_id: "External audit C-42",
          description: "Explain the refund rule at enrolment",
          owner_id: trainer.id,
          due_date: "2026-01-15",
        },
      }),
      list,
      "post",
    );
    expect(raised).toMatchObject({ status: "open", source_type: "audit", source_id: "External audit C-42", owner: { id: trainer.id } });
    const id = raised.id as string;
    // bad input: a clear message, nothing stored
    const bad = await conforms(
      await call(mod(improvementsApi), "POST", list, {
        token: admin.token,
        json: { source_type: "rumour", description: "", owner_id: "x", due_date: "tomorrow" },
      }),
      list,
      "post",
    );
    expect(Object.keys(bad.errors).sort()).toEqual(["description", "due_date", "owner_id", "source_type"]);
    // a complaint that does not exist: refused at source_id, nothing stored
    const stored = async () =>
      Number(
        (
          await db
            .selectFrom("improvement_actions")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await stored();
    const unknownSource = await call(mod(improvementsApi), "POST", list, {
      token: admin.token,
      json: { source_type: "complaint", source_id: "nonexistent-id", description: "Explain the refund rule", owner_id: trainer.id, due_date: "2026-01-15" },
    });
    expect(unknownSource.status).toBe(422);
    expect((await conforms(unknownSource, list, "post")).errors).toEqual({ source_id: UNKNOWN_SOURCE.complaint });
    expect(await stored()).toBe(before);
    await conforms(await call(mod(improvementsApi), "POST", list, { token: trainer.token, json: {} }), list, "post");

    const page = await conforms(await call(mod(improvementsApi), "GET", `${list}?overdue=1`, { token: admin.token }), list, "get");
    expect(page.actions.map((a: { id: string }) => a.id)).toContain(id);
    expect(page.total).toBe(1);
    await conforms(await call(mod(improvementsApi), "GET", `${list}?status=lost`, { token: admin.token }), list, "get");

    await conforms(await call(mod(improvementApi), "GET", "/x", { token: admin.token, params: { id } }), one, "get");
    await conforms(await call(mod(improvementApi), "GET", "/x", { token: admin.token, params: { id: crypto.randomUUID() } }), one, "get");
    const updated = await conforms(
      await call(mod(improvementApi), "PUT", "/x", {
        token: admin.token,
        params: { id },
        json: {
          description: "Explain the refund rule at enrolment",
          owner_id: admin.id,
          due_date: "2027-01-15",
          status: "in_progress",
          action_taken: "Drafted the wording",
        },
      }),
      one,
      "put",
    );
    expect(updated).toMatchObject({ status: "in_progress", overdue: false, owner: { id: admin.id } });
    // PUT is partial: the due day alone changes, the rest keeps its value
    const moved = await conforms(
      await call(mod(improvementApi), "PUT", "/x", { token: admin.token, params: { id }, json: { due_date: "2027-02-01" } }),
      one,
      "put",
    );
    expect(moved).toMatchObject({
      description: "Explain the refund rule at enrolment",
      due_date: "2027-02-01",
      status: "in_progress",
      action_taken: "Drafted the wording",
      owner: { id: admin.id },
    });

    const refused = await conforms(
      await call(mod(closeApi), "POST", "/x", { token: admin.token, params: { id }, json: { action_taken: "Drafted the wording" } }),
      close,
      "post",
    );
    expect(refused).toMatchObject({
      detail: "Closing an action needs what was done and its closure evidence",
      errors: { closure_evidence: expect.any(String) },
    });
    const closed = await conforms(
      await call(mod(closeApi), "POST", "/x", { token: admin.token, params: { id }, json: { closure_evidence: "Enrolment form v4, page 2" } }),
      close,
      "post",
    );
    expect(closed).toMatchObject({
      status: "closed",
      action_taken: "Drafted the wording",
      closure_evidence: "Enrolment form v4, page 2",
      closed_by: { id: admin.id },
    });
    await conforms(
      await call(mod(closeApi), "POST", "/x", { token: admin.token, params: { id }, json: { action_taken: "x", closure_evidence: "y" } }),
      close,
      "post",
    );
    await conforms(
      await call(mod(improvementApi), "PUT", "/x", {
        token: admin.token,
        params: { id },
        json: { description: "x", owner_id: admin.id, due_date: "2027-01-15", status: "open" },
      }),
      one,
      "put",
    );
    // a closed action is a 409 whatever is sent, a part of its fields too
    const partClosed = await call(mod(improvementApi), "PUT", "/x", { token: admin.token, params: { id }, json: { due_date: "2027-03-01" } });
    expect(partClosed.status).toBe(409);
    await conforms(partClosed, one, "put");
    await conforms(await call(mod(closeApi), "POST", "/x", { token: trainer.token, params: { id }, json: {} }), close, "post");
  });

  it("sets questions and the threshold, and reports a summary without anyone's identity", async () => {
    const qs = "/api/admin/questionnaires/questions";
    const added = await conforms(
      await call(mod(questionsApi), "POST", qs, { token: admin.token, json: { audience: "learner", kind: "rating", prompt: "The yard was safe and ready" } }),
      qs,
      "post",
    );
    await conforms(await call(mod(questionsApi), "POST", qs, { token: admin.token, json: { audience: "visitor", kind: "poll", prompt: "" } }), qs, "post");
    const listed = await conforms(await call(mod(questionsApi), "GET", `${qs}?audience=learner`, { token: admin.token }), qs, "get");
    expect(listed.questions.map((q: { id: string }) => q.id)).toContain(added.id);
    await conforms(await call(mod(questionsApi), "GET", `${qs}?audience=nobody`, { token: admin.token }), qs, "get");
    const retired = await conforms(
      await call(mod(questionApi), "PUT", "/x", {
        token: admin.token,
        params: { id: added.id },
        json: { prompt: "The yard was safe and ready for us", retired: true },
      }),
      "/api/admin/questionnaires/questions/{id}",
      "put",
    );
    expect(retired).toMatchObject({ prompt: "The yard was safe and ready for us", retired: true });
    // PUT is partial: new wording alone leaves it retired
    const reworded = await conforms(
      await call(mod(questionApi), "PUT", "/x", { token: admin.token, params: { id: added.id }, json: { prompt: "The yard was safe" } }),
      "/api/admin/questionnaires/questions/{id}",
      "put",
    );
    expect(reworded).toMatchObject({ prompt: "The yard was safe", retired: true });
    await conforms(
      await call(mod(questionApi), "PUT", "/x", { token: admin.token, params: { id: crypto.randomUUID() }, json: { prompt: "x" } }),
      "/api/admin/questionnaires/questions/{id}",
      "put",
    );
    const threshold = await conforms(
      await call(mod(thresholdApi), "PUT", "/x", { token: admin.token, json: { audience: "learner", low_average: 3.5 } }),
      "/api/admin/questionnaires/threshold",
      "put",
    );
    expect(threshold.low_average).toBe(3.5);
    await conforms(
      await call(mod(thresholdApi), "PUT", "/x", { token: admin.token, json: { audience: "learner", low_average: 9 } }),
      "/api/admin/questionnaires/threshold",
      "put",
    );
    const summary = await conforms(
      await call(mod(summaryApi), "GET", "/api/admin/questionnaires/summary?audience=learner&from=2026-01-01&to=2026-12-31", { token: admin.token }),
      "/api/admin/questionnaires/summary",
      "get",
    );
    expect(summary).toMatchObject({ audience: "learner", from: "2026-01-01", to: "2026-12-31", threshold: 3.5 });
    await conforms(
      await call(mod(summaryApi), "GET", "/api/admin/questionnaires/summary?from=2026-12-31&to=2026-01-01", { token: admin.token }),
      "/api/admin/questionnaires/summary",
      "get",
    );
    await conforms(
      await call(mod(summaryApi), "GET", "/api/admin/questionnaires/summary", { token: trainer.token }),
      "/api/admin/questionnaires/summary",
      "get",
    );
    await conforms(await call(mod(summaryApi), "GET", "/api/admin/questionnaires/summary"), "/api/admin/questionnaires/summary", "get");
  });
});
