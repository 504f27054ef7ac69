import type { WriteTransaction } from "#db/connection";
import { closeImprovementAction, createImprovementAction } from "~/models/standards/improvement.server";
import { addQuestion, inviteLearnerAfterCompletion, questionnaireForToken, submitQuestionnaire } from "~/models/standards/questionnaire.server";
import { addDays, organisationToday } from "~/utils/organisation-calendar";

const DAY = 86_400_000;

/** Each learner's answers in order of the questions below: three ratings and a comment. */
const ANSWERS: Array<[string, string, string, string]> = [
  ["5", "4", "5", "The load chart exercise made it click."],
  ["4", "4", "2", "The yard was crowded on the second day; we waited a lot for the crane."],
  ["5", "5", "4", ""],
];

/**
 * The demo's questionnaires and improvement register, through the model functions: learner and
 * employer questions, a few anonymous responses (one with a low score), an action raised from
 * that score and left overdue, one in progress from an audit, and one closed with its evidence.
 */
export async function seedImprovementDemo(trx: WriteTransaction, input: { now: Date; adminId: string; trainerId: string }): Promise<void> {
  const { now, adminId, trainerId } = input;
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
  const questions = [];
  for (const [kind, prompt] of [
    ["rating", "The trainer explained things clearly"],
    ["rating", "The course prepared me to work safely on site"],
    ["rating", "The training yard and equipment were ready when we needed them"],
    ["text", "What one thing would you change?"],
  ] as const) {
    questions.push(await addQuestion(trx, { audience: "learner", kind, prompt }, adminId, at(120)));
  }
  for (const [kind, prompt] of [
    ["rating", "Our workers came back ready for site"],
    ["text", "What else should we know?"],
  ] as const) {
    await addQuestion(trx, { audience: "employer", kind, prompt }, adminId, at(120));
  }

  const completed = await trx
    .selectFrom("enrollments")
    .innerJoin("courses", "courses.id", "enrollments.course_id")
    .select(["enrollments.id", "enrollments.student_id", "courses.name"])
    .where("enrollments.status", "=", "completed")
    .orderBy("enrollments.id")
    .limit(ANSWERS.length + 1)
    .execute();
  for (const [i, e] of completed.entries()) {
    const token = await inviteLearnerAfterCompletion(trx, { enrollmentId: e.id, studentId: e.student_id, course: e.name, now: at(30 - i) });
    const answers = ANSWERS[i];
    // the last learner invited has not answered yet
    if (!token || !answers || !(await questionnaireForToken(trx, token))) continue;
    await submitQuestionnaire(trx, token, Object.fromEntries(questions.map((q, n) => [`q_${q.id}`, answers[n]!])), { now: at(28 - i) });
  }

  const today = organisationToday(now);
  await createImprovementAction(
    trx,
    {
      source_type: "questionnaire",
      source_id: questions[2]!.id,
      description: "Learners waited for the crane on busy yard days: book no more than two classes on the yard at once.",
      owner_id: trainerId,
      due_date: addDays(today, -12),
    },
    adminId,
    at(26),
  );
  await createImprovementAction(
    trx,
    {
      source_type: "audit",
      source_id: "Internal audit 2026-Q3",
      description: "Trainers' industry currency records were incomplete: collect each trainer's site hours for the year.",
      owner_id: adminId,
      due_date: addDays(today, 21),
    },
    adminId,
    at(40),
  );
  const closed = await createImprovementAction(
    trx,
    {
      source_type: "other",
      source_id: null,
      description: "The pre-start checklist did not cover wind speed: add the wind limit check.",
      owner_id: trainerId,
      due_date: addDays(today, -30),
    },
    adminId,
    at(70),
  );
  await closeImprovementAction(
    trx,
    closed.id,
    {
      action_taken: "Added the wind speed and limit check to the pre-start checklist; briefed every trainer.",
      closure_evidence: "Pre-start checklist version 5, reviewed and in use; trainer briefing sign-off sheet kept in the quality folder.",
    },
    adminId,
    at(35),
  );
}
