import crypto from "node:crypto";
import { Migrator } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "./connection";
import { migrateDownAll, migrateToLatest } from "./migrate";
import { createTestDb } from "../tests/support/test-db";
import { migrations } from "../migrations/index";

let db: DB;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ db, cleanup } = await createTestDb()));
afterAll(() => cleanup());

const AVETMISS = "2026-11-24T0100_avetmiss";

describe("migration 2026-11-24T0100_avetmiss on a database in use", () => {
  it("numbers every existing student in the order they joined and gives existing enrolments the first location", async () => {
    await migrateDownAll(db);
    const names = Object.keys(migrations);
    const before = names[names.indexOf(AVETMISS) - 1]!;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    const user = (email: string, role: string, created_at: string) => ({
      id: crypto.randomUUID(),
      email,
      full_name: email,
      password_hash: "x",
      role,
      is_active: 1,
      approval_status: "approved",
      created_at,
      updated_at: created_at,
    });
    const later = user("later@test.example", "student", "2025-06-01T00:00:00.000Z");
    const earlier = user("earlier@test.example", "student", "2025-01-01T00:00:00.000Z");
    const trainer = user("trainer@test.example", "trainer", "2024-01-01T00:00:00.000Z");
    await db
      .insertInto("users")
      .values([later, earlier, trainer] as never)
      .execute();
    const course = crypto.randomUUID();
    await db
      .insertInto("courses")
      .values({
        id: course,
        unit_code: "TLILIC0040",
        name: "Crane",
        description: "d",
        tier: "tier_1",
        duration_hours: 36,
        price_cents: 0,
        is_active: 1,
        prerequisites: "[]",
        learning_outcomes: "[]",
        assessment_criteria: "[]",
        created_at: later.created_at,
        updated_at: later.created_at,
      } as never)
      .execute();
    await db
      .insertInto("enrollments")
      .values({
        id: crypto.randomUUID(),
        student_id: later.id,
        course_id: course,
        status: "enrolled",
        progress_percentage: 0,
        enrollment_date: later.created_at,
        completion_date: null,
        updated_at: later.created_at,
      } as never)
      .execute();

    await migrateToLatest(db);
    const numbers = await db.selectFrom("users").select(["email", "student_number"]).orderBy("email").execute();
    expect(numbers).toEqual([
      { email: "earlier@test.example", student_number: "S000001" },
      { email: "later@test.example", student_number: "S000002" },
      { email: "trainer@test.example", student_number: null },
    ]);
    expect(await db.selectFrom("counters").selectAll().execute()).toEqual([{ name: "student_number", last_value: 2 }]);
    const location = await db.selectFrom("delivery_locations").select(["id", "identifier", "postcode"]).executeTakeFirstOrThrow();
    expect(location).toMatchObject({ identifier: "MAIN", postcode: null });
    const enrollment = await db.selectFrom("enrollments").select("location_id").executeTakeFirstOrThrow();
    expect(enrollment.location_id).toBe(location.id);
  });
});
