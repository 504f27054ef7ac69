import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb, useAsAppDb } from "../../tests/support/test-db";
import { makeUser } from "../../tests/support/factories";
import { bodyOf, call, caller, type RouteModule } from "../../tests/support/api-calls";
import * as staffRoute from "~/routes/api+/admin.staff.$id";
import * as me from "~/routes/api+/auth.me";
import { LAST_ADMIN, NOT_YOURSELF, setStaffActive } from "./staff.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  useAsAppDb(db);
});
afterAll(() => cleanup());

const staff = staffRoute as unknown as RouteModule;
const whoAmI = me as unknown as RouteModule;

describe("switching staff accounts off", () => {
  it("PUT /api/admin/staff/{id} deactivates a trainer and their API token stops working at once; reactivation lets them sign in again", async () => {
    const admin = await caller(db, "admin");
    const trainer = await caller(db, "trainer");
    expect((await call(whoAmI, "GET", "/api/auth/me", { token: trainer.token })).status).toBe(200);
    const off = await call(staff, "PUT", `/api/admin/staff/${trainer.id}`, { token: admin.token, json: { is_active: false }, params: { id: trainer.id } });
    expect(off.status).toBe(200);
    expect(await bodyOf(off)).toMatchObject({ id: trainer.id, is_active: false });
    expect((await call(whoAmI, "GET", "/api/auth/me", { token: trainer.token })).status).toBe(401);
    expect(await db.selectFrom("api_tokens").select("id").where("user_id", "=", trainer.id).execute()).toHaveLength(0);
    const on = await call(staff, "PUT", `/api/admin/staff/${trainer.id}`, { token: admin.token, json: { is_active: true }, params: { id: trainer.id } });
    expect(await bodyOf(on)).toMatchObject({ is_active: true });
  });

  it("refuses one's own account, the last active administrator, students, other roles and bad bodies", async () => {
    const fresh = await createTestDb();
    useAsAppDb(fresh.db);
    try {
      const admin = await caller(fresh.db, "admin");
      const other = await caller(fresh.db, "admin");
      const student = await makeUser(fresh.db, { role: "student" });
      const trainer = await caller(fresh.db, "trainer");
      const put = (id: string, json: unknown, token = admin.token) => call(staff, "PUT", `/api/admin/staff/${id}`, { token, json, params: { id } });
      const self = await put(admin.id, { is_active: false });
      expect(self.status).toBe(409);
      expect((await bodyOf(self)).detail).toBe(NOT_YOURSELF);
      expect((await put(other.id, { is_active: false })).status).toBe(200);
      // admin is now the last active administrator; the deactivated one cannot act any more
      expect((await put(admin.id, { is_active: false }, other.token)).status).toBe(401);
      await expect(setStaffActive(fresh.db, { id: admin.id, active: false, actorId: trainer.id })).rejects.toMatchObject({ status: 409, message: LAST_ADMIN });
      expect((await put(student.id, { is_active: false })).status).toBe(404);
      expect((await put(trainer.id, { is_active: false }, trainer.token)).status).toBe(403);
      expect((await put(trainer.id, { is_active: "no" })).status).toBe(422);
      expect((await put(trainer.id, { is_active: false, role: "admin" })).status).toBe(422);
    } finally {
      useAsAppDb(db);
      await fresh.cleanup();
    }
  });
});

describe("the Staff page", () => {
  it("lists trainers and administrators and deactivates with a POST form, ending the account's token", async () => {
    const page = (await import("~/routes/admin+/staff")) as unknown as RouteModule;
    const { sessionCookie } = await import("../../tests/support/api-calls");
    const admin = await caller(db, "admin");
    const cookie = await sessionCookie(db, admin.id);
    const trainer = await caller(db, "trainer", { full_name: "Terry Switch" });
    const list = await call(page, "GET", "/admin/staff", { cookie });
    const data = (await list.json()) as { staff: Array<{ id: string; is_active: boolean }> };
    expect(data.staff.map((s) => s.id)).toEqual(expect.arrayContaining([admin.id, trainer.id]));
    // deactivating is asked first: the post without the confirmation changes nothing
    const asked = await call(page, "POST", "/admin/staff", {
      cookie,
      body: new URLSearchParams({ intent: "toggle", user_id: trainer.id, is_active: "false" }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(asked.status).toBe(200);
    expect((await db.selectFrom("users").select("is_active").where("id", "=", trainer.id).executeTakeFirstOrThrow()).is_active).toBe(1);
    const off = await call(page, "POST", "/admin/staff", {
      cookie,
      body: new URLSearchParams({ intent: "toggle", user_id: trainer.id, is_active: "false", confirm: "yes" }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(off.status).toBe(302);
    expect(off.headers.get("Location")).toBe("/admin/staff");
    expect((await call(whoAmI, "GET", "/api/auth/me", { token: trainer.token })).status).toBe(401);
    const self = await call(page, "POST", "/admin/staff", {
      cookie,
      body: new URLSearchParams({ intent: "toggle", user_id: admin.id, is_active: "false", confirm: "yes" }).toString(),
      contentType: "application/x-www-form-urlencoded",
    });
    expect(self.status).toBe(302);
    expect((await db.selectFrom("users").select("is_active").where("id", "=", admin.id).executeTakeFirstOrThrow()).is_active).toBe(1);
  });
});
