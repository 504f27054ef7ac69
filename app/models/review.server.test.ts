import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "#db/connection";
import { createTestDb } from "../../tests/support/test-db";
import { makeCourse, makeEnrollment, makeUser } from "../../tests/support/factories";
import { DomainError } from "~/utils/errors";
import { REVIEW_ANSWER_EVERY, REVIEW_EMPTY, REVIEW_HEADLINES, REVIEW_NOT_REQUIRED } from "~/schemas/review-text";
import { createEnrollment } from "./enrollment.server";
import { groupOutcome, worstOutcome } from "./review-scoring";
import { getEnrollmentReview, overrideReview, retakeWaitMessage, reviewPage, saveReviewGroup, takeReview } from "./review.server";
import { seatsLeftExpression } from "./class-seats.server";

let db: DB;
let cleanup: () => Promise<void>;
let admin: string;

/** The default bank's questions, by what they ask, with the right answer of each. */
const Q = {
  chartCapacity: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b01", "2"],
  chartRadius: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b02", "1"],
  sign: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b03", "0"],
  formDate: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b04", "0"],
  defect: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b05", "1"],
  plate: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b06", "0.471"],
  total: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b07", "3.5"],
  bundles: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b08", "0"],
  link: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b09", "0"],
  upload: ["6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b10", "0"],
} as const;

/** Every answer right, then the named ones changed to `wrong`. */
function answers(wrong: Partial<Record<keyof typeof Q, string>> = {}): Record<string, string> {
  return Object.fromEntries(Object.entries(Q).map(([name, [id, right]]) => [id, wrong[name as keyof typeof Q] ?? right]));
}

async function reviewCourse(options: { retakeDays?: number } = {}) {
  const { id } = await makeCourse(db);
  await db
    .updateTable("courses")
    .set({ review_required: 1, review_retake_days: options.retakeDays ?? 1 })
    .where("id", "=", id)
    .execute();
  return id;
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const countAttempts = async () =>
  Number(
    (
      await db
        .selectFrom("review_attempts")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  admin = (await makeUser(db, { role: "admin" })).id;
});
afterAll(() => cleanup());

describe("scoring", () => {
  it("gives each group's outcome at its boundaries: suitable from 75%, with support from 50%, else refer", () => {
    const rule = { suitable_from: 75, support_from: 50 };
    expect(groupOutcome(100, rule)).toBe("suitable");
    expect(groupOutcome(75, rule)).toBe("suitable");
    expect(groupOutcome(74, rule)).toBe("support");
    expect(groupOutcome(50, rule)).toBe("support");
    expect(groupOutcome(49, rule)).toBe("refer");
    expect(groupOutcome(0, rule)).toBe("refer");
    expect(worstOutcome(["suitable", "support", "suitable"])).toBe("support");
    expect(worstOutcome(["support", "refer"])).toBe("refer");
    expect(worstOutcome(["suitable"])).toBe("suitable");
  });

  it("marks the default bank per group: all right is suitable, one numeracy slip (67%) support, two (33%) refer; writing 1 of 2 (50%) support, 0 refer", async () => {
    const cases: [Partial<Record<keyof typeof Q, string>>, string, string[]][] = [
      [{}, "suitable", []],
      [{ plate: "4.71" }, "support", ["numeracy"]],
      [{ plate: "4.71", total: "3.2" }, "refer", ["numeracy"]],
      [{ defect: "0" }, "support", ["writing"]],
      [{ defect: "0", formDate: "1" }, "refer", ["writing"]],
      [{ upload: "3", sign: "1" }, "support", ["reading", "digital"]],
    ];
    for (const [wrong, outcome, support] of cases) {
      const user = await makeUser(db);
      const { attempt } = await takeReview(db, { courseId: await reviewCourse(), taker: { userId: user.id, claimToken: null }, answers: answers(wrong) });
      expect({ outcome: attempt.outcome, support: attempt.support }, JSON.stringify(wrong)).toEqual({ outcome, support });
      expect(attempt.advice.split("\n")[0]).toBe(REVIEW_HEADLINES[attempt.outcome]);
      if (support.includes("numeracy")) expect(attempt.advice).toMatch(/^Numeracy: /m);
    }
  });

  it("numeric answers count within the question's tolerance (0.471 t plate, 0.01): 0.48 right, 0.482 wrong; a comma is read as the decimal point", async () => {
    const course = await reviewCourse();
    const score = async (plate: string) => {
      const user = await makeUser(db);
      return (await takeReview(db, { courseId: course, taker: { userId: user.id, claimToken: null }, answers: answers({ plate }) })).attempt.scores.numeracy!
        .correct;
    };
    expect(await score("0.48")).toBe(3);
    expect(await score("0,471")).toBe(3);
    expect(await score("0.482")).toBe(2);
  });

  it("thresholds set by admins move the boundary: numeracy suitable from 67% makes 2 of 3 suitable", async () => {
    const [numeracy] = await db.selectFrom("review_groups").selectAll().where("group_key", "=", "numeracy").execute();
    await saveReviewGroup(
      db,
      { group: "numeracy", suitable_from: 67, support_from: 50, support_advice: numeracy!.support_advice, refer_advice: numeracy!.refer_advice },
      admin,
    );
    try {
      const user = await makeUser(db);
      const { attempt } = await takeReview(db, {
        courseId: await reviewCourse(),
        taker: { userId: user.id, claimToken: null },
        answers: answers({ plate: "1" }),
      });
      expect(attempt.outcome).toBe("suitable");
      expect(await db.selectFrom("audit_log").select("detail").where("action", "=", "review.thresholds_changed").execute()).toEqual([{ detail: "67/50" }]);
    } finally {
      await saveReviewGroup(
        db,
        { group: "numeracy", suitable_from: 75, support_from: 50, support_advice: numeracy!.support_advice, refer_advice: numeracy!.refer_advice },
        admin,
      );
    }
  });
});

describe("enrolment in a course that asks for the review", () => {
  it("is not confirmed before the review: the seat is held (awaiting), and the review confirms it with the outcome and advice kept", async () => {
    const course = await reviewCourse();
    const trainer = await makeUser(db, { role: "trainer" });
    const classId = crypto.randomUUID();
    const now = new Date().toISOString();
    await db
      .insertInto("classes")
      .values({
        id: classId,
        course_id: course,
        start_date: "2099-01-05",
        end_date: "2099-01-06",
        location_id: null,
        trainer_id: trainer.id,
        seats: 1,
        created_at: now,
        updated_at: now,
        cancelled_at: null,
      } as never)
      .execute();
    const student = await makeUser(db);
    const enrolled = await createEnrollment(db, { studentId: student.id, courseId: course, actorId: student.id });
    expect(enrolled.review_status).toBe("awaiting");
    expect((await getEnrollmentReview(db, enrolled.id))!).toMatchObject({ status: "awaiting", outcome: null, attempts: [] });
    // the one seat is held: a second learner is refused
    const left = await db.selectFrom("classes as c").select(seatsLeftExpression("c", now).as("n")).where("c.id", "=", classId).executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    const other = await makeUser(db);
    expect((await failure(createEnrollment(db, { studentId: other.id, courseId: course, actorId: other.id }))).status).toBe(409);

    const { enrollment } = await takeReview(db, { courseId: course, taker: { userId: student.id, claimToken: null }, answers: answers({ plate: "9" }) });
    expect(enrollment).toEqual({ id: enrolled.id, review_status: "confirmed" });
    const kept = (await getEnrollmentReview(db, enrolled.id))!;
    expect(kept).toMatchObject({ status: "confirmed", outcome: "support", support: ["numeracy"] });
    expect(kept.advice).toBe(kept.attempts[0]!.advice);
    expect(kept.attempts).toHaveLength(1);
  });

  it("'refer to staff' keeps the enrolment held until staff override it; the override is audited with its reason", async () => {
    const course = await reviewCourse();
    const student = await makeUser(db);
    const enrolled = await createEnrollment(db, { studentId: student.id, courseId: course, actorId: student.id });
    const { enrollment } = await takeReview(db, {
      courseId: course,
      taker: { userId: student.id, claimToken: null },
      answers: answers({ plate: "9", total: "9", bundles: "2" }),
    });
    expect(enrollment!.review_status).toBe("referred");
    const after = await overrideReview(db, {
      enrollmentId: enrolled.id,
      change: { outcome: "support", reason: "Spoke with him: reads well, needs a calculator" },
      actor: admin,
    });
    expect(after).toMatchObject({ status: "confirmed", outcome: "support", override: { reason: "Spoke with him: reads well, needs a calculator", by: admin } });
    const audit = await db
      .selectFrom("audit_log")
      .select(["actor_id", "subject_id", "subject_user_id", "detail"])
      .where("action", "=", "review.overridden")
      .where("subject_id", "=", enrolled.id)
      .execute();
    expect(audit).toEqual([{ actor_id: admin, subject_id: enrolled.id, subject_user_id: student.id, detail: "refer -> support" }]);
  });

  it("a visitor's review from the course page becomes theirs when they enrol: confirmed at once", async () => {
    const course = await reviewCourse();
    const token = "visitor-token-" + crypto.randomUUID();
    const { attempt } = await takeReview(db, { courseId: course, taker: { userId: null, claimToken: token }, answers: answers({ total: "1" }) });
    expect(attempt.outcome).toBe("support");
    const student = await makeUser(db);
    const enrolled = await createEnrollment(db, { studentId: student.id, courseId: course, actorId: student.id, reviewClaim: token });
    expect(enrolled.review_status).toBe("confirmed");
    expect(await db.selectFrom("review_attempts").select(["user_id", "claim_hash"]).where("id", "=", attempt.id).executeTakeFirst()).toEqual({
      user_id: student.id,
      claim_hash: null,
    });
    expect((await getEnrollmentReview(db, enrolled.id))!.outcome).toBe("support");
  });

  it("a course without the review enrols as before, with no review", async () => {
    const { id } = await makeCourse(db);
    const student = await makeUser(db);
    const enrolled = await createEnrollment(db, { studentId: student.id, courseId: id, actorId: student.id });
    expect(enrolled.review_status).toBeNull();
    expect(await getEnrollmentReview(db, enrolled.id)).toBeNull();
  });
});

describe("retakes", () => {
  it("waits the course's days between attempts; every attempt is kept", async () => {
    const course = await reviewCourse({ retakeDays: 2 });
    const student = await makeUser(db);
    const taker = { userId: student.id, claimToken: null };
    const first = new Date("2026-11-20T00:00:00.000Z");
    await takeReview(db, { courseId: course, taker, answers: answers({ plate: "1" }), now: first });
    const early = new Date("2026-11-21T23:59:00.000Z");
    const refused = await failure(takeReview(db, { courseId: course, taker, answers: answers(), now: early }));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe(retakeWaitMessage("2026-11-22T00:00:00.000Z"));
    await takeReview(db, { courseId: course, taker, answers: answers(), now: new Date("2026-11-22T00:00:00.000Z") });
    const kept = await db.selectFrom("review_attempts").select(["outcome", "answers"]).where("user_id", "=", student.id).orderBy("created_at").execute();
    expect(kept.map((a) => a.outcome)).toEqual(["support", "suitable"]);
    expect(JSON.parse(kept[0]!.answers)).toHaveLength(10);
  });
});

describe("bad input", () => {
  it("an empty review is refused with a clear message and nothing is stored", async () => {
    const course = await reviewCourse();
    const student = await makeUser(db);
    const before = await countAttempts();
    const empty = await failure(takeReview(db, { courseId: course, taker: { userId: student.id, claimToken: null }, answers: {} }));
    expect([empty.status, empty.message]).toEqual([422, REVIEW_EMPTY]);
    const blanks = await failure(takeReview(db, { courseId: course, taker: { userId: student.id, claimToken: null }, answers: { [Q.plate[0]]: " " } }));
    expect(blanks.message).toBe(REVIEW_EMPTY);
    const partial = await failure(
      takeReview(db, { courseId: course, taker: { userId: student.id, claimToken: null }, answers: { [Q.plate[0]]: "0.471", [Q.sign[0]]: "7" } }),
    );
    expect(partial.message).toBe(REVIEW_ANSWER_EVERY);
    expect(partial.fieldErrors[`q_${Q.sign[0]}`]).toBe("Choose one answer");
    expect(partial.fieldErrors[`q_${Q.plate[0]}`]).toBeUndefined();
    expect(await countAttempts()).toBe(before);
  });

  it("a review for a course that needs none is refused with a clear message and nothing is stored", async () => {
    const { id } = await makeCourse(db);
    const student = await makeUser(db);
    const before = await countAttempts();
    const error = await failure(takeReview(db, { courseId: id, taker: { userId: student.id, claimToken: null }, answers: answers() }));
    expect([error.status, error.message]).toEqual([409, REVIEW_NOT_REQUIRED]);
    expect((await failure(reviewPage(db, id, { userId: student.id, claimToken: null }))).message).toBe(REVIEW_NOT_REQUIRED);
    expect(await countAttempts()).toBe(before);
  });
});

describe("seats held for a review never taken", () => {
  it("are released after the hold period to the class's waitlist, once; a recent hold and one referred to staff stay", async () => {
    const { releaseStaleReviewHolds } = await import("./review.server");
    const { joinWaitlist } = await import("./waitlist.server");
    const { REVIEW_HOLD_DAYS } = await import("~/schemas/review-text");
    const course = await reviewCourse();
    const trainer = await makeUser(db, { role: "trainer" });
    const classId = crypto.randomUUID();
    const created = new Date().toISOString();
    await db
      .insertInto("classes")
      .values({
        id: classId,
        course_id: course,
        start_date: "2099-02-02",
        end_date: "2099-02-03",
        location_id: null,
        trainer_id: trainer.id,
        seats: 2,
        created_at: created,
        updated_at: created,
        cancelled_at: null,
      } as never)
      .execute();
    const now = new Date();
    const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);
    const [stale, recent, waiting, referred] = [await makeUser(db), await makeUser(db), await makeUser(db), await makeUser(db)];
    const staleHold = await createEnrollment(db, { studentId: stale.id, courseId: course, classId, actorId: stale.id, now: daysAgo(REVIEW_HOLD_DAYS + 1) });
    const recentHold = await createEnrollment(db, { studentId: recent.id, courseId: course, classId, actorId: recent.id, now: daysAgo(REVIEW_HOLD_DAYS - 1) });
    await joinWaitlist(db, { classId, studentId: waiting.id, now: daysAgo(3) });
    // a hold referred to staff waits for them, however old (no class: it holds no seat to give)
    const referredHold = await makeEnrollment(db, referred.id, course, { enrollment_date: daysAgo(60).toISOString() });
    await db.updateTable("enrollments").set({ review_status: "referred" }).where("id", "=", referredHold.id).execute();

    expect(await releaseStaleReviewHolds(db, now)).toBe(1);
    const status = async (id: string) => await db.selectFrom("enrollments").select(["status", "review_status"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(await status(staleHold.id)).toEqual({ status: "withdrawn", review_status: "awaiting" });
    expect(await status(recentHold.id)).toEqual({ status: "enrolled", review_status: "awaiting" });
    expect(await status(referredHold.id)).toMatchObject({ review_status: "referred", status: "enrolled" });
    const offer = await db
      .selectFrom("class_waitlist")
      .select("status")
      .where("class_id", "=", classId)
      .where("student_id", "=", waiting.id)
      .executeTakeFirstOrThrow();
    expect(offer.status).toBe("offered");
    const audit = await db.selectFrom("audit_log").select(["actor_id", "subject_id"]).where("action", "=", "review.hold_released").execute();
    expect(audit).toEqual([{ actor_id: null, subject_id: staleHold.id }]);
    // run again (or by a second worker): nothing more
    expect(await releaseStaleReviewHolds(db, now)).toBe(0);
  });
});

// last in the file: it changes the shared bank the tests above answer
describe("the question bank", () => {
  it("changes a question by retiring it and putting the new wording in its place, both audited; a retired one stays as it was", async () => {
    const { addReviewQuestion, listReviewQuestions, replaceReviewQuestion } = await import("./review.server");
    const added = await addReviewQuestion(
      db,
      { group: "digital", kind: "choice", prompt: "Which file is a photo?", context: null, choices: ["a.jpg", "b.txt"], answer: "1", tolerance: null },
      admin,
    );
    const changed = await replaceReviewQuestion(
      db,
      added.id,
      {
        group: "digital",
        kind: "choice",
        prompt: "Which file is the photo of your licence?",
        context: null,
        choices: ["notes.txt", "licence.jpg"],
        answer: "2",
        tolerance: null,
      },
      admin,
    );
    expect(changed).toMatchObject({ prompt: "Which file is the photo of your licence?", answer: "1", position: added.position, is_active: true });
    const bank = await listReviewQuestions(db);
    expect(bank.find((q) => q.id === added.id)).toMatchObject({ prompt: "Which file is a photo?", is_active: false });
    const actions = await db.selectFrom("audit_log").select(["action", "subject_id"]).where("subject_id", "in", [added.id, changed.id]).orderBy("id").execute();
    expect(actions.map((a) => a.action).sort()).toEqual(["review.question_added", "review.question_added", "review.question_retired"]);
    const refused = await failure(
      replaceReviewQuestion(db, added.id, { group: "digital", kind: "numeric", prompt: "x", context: null, answer: "1", tolerance: null }, admin),
    );
    expect(refused.status).toBe(409);
    expect(
      (
        await failure(
          replaceReviewQuestion(
            db,
            crypto.randomUUID(),
            { group: "digital", kind: "numeric", prompt: "x", context: null, answer: "1", tolerance: null },
            admin,
          ),
        )
      ).status,
    ).toBe(404);
    expect((await listReviewQuestions(db)).length).toBe(bank.length);
  });
});
