import type { Kysely } from "kysely";

// Frozen in time: never edit a migration that has shipped; add a new one instead.

/**
 * The pre-enrolment review of language, literacy, numeracy and digital literacy.
 *
 * - courses.review_required: 1 when an enrolment waits for the learner's review before it is
 *   confirmed; review_retake_days: how long a learner waits before taking it again.
 * - review_questions: one bank shared by every course that asks for the review, each question in
 *   a group (reading, writing, numeracy, digital), multiple choice (choices: a JSON list, answer:
 *   the index of the right one) or numeric (answer and tolerance as decimal text). A question is
 *   retired (is_active 0), never edited or deleted, so past answers keep their meaning.
 * - review_groups: per group, the percentages from which the outcome is "suitable" and
 *   "suitable with support" (below: refer to staff), and the advice shown for each.
 * - review_attempts: every attempt, kept: the answers, the scores per group, the outcome and the
 *   advice as shown. A visitor's attempt has no user until they enrol (claim_hash: the sha256 of
 *   the token kept in their browser).
 * - enrollments.review_*: the outcome and advice kept with the enrolment, its state (awaiting:
 *   seat held, no review yet; referred: seat held until staff decide; confirmed) and a staff
 *   override with its reason.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("courses").addColumn("review_required", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("courses").addColumn("review_retake_days", "integer", (c) => c.notNull().defaultTo(1)).execute();

  await db.schema
    .createTable("review_questions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("group_key", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("prompt", "text", (c) => c.notNull())
    .addColumn("context", "text")
    .addColumn("choices", "text")
    .addColumn("answer", "text", (c) => c.notNull())
    .addColumn("tolerance", "text")
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("review_questions_order").on("review_questions").columns(["is_active", "position"]).execute();

  await db.schema
    .createTable("review_groups")
    .addColumn("group_key", "text", (c) => c.primaryKey())
    .addColumn("suitable_from", "integer", (c) => c.notNull())
    .addColumn("support_from", "integer", (c) => c.notNull())
    .addColumn("support_advice", "text", (c) => c.notNull())
    .addColumn("refer_advice", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("review_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("course_id", "text", (c) => c.notNull().references("courses.id"))
    .addColumn("user_id", "text", (c) => c.references("users.id"))
    .addColumn("claim_hash", "text")
    .addColumn("answers", "text", (c) => c.notNull())
    .addColumn("scores", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("advice", "text", (c) => c.notNull())
    .addColumn("support", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("review_attempts_user").on("review_attempts").columns(["user_id", "course_id", "created_at"]).execute();
  await db.schema.createIndex("review_attempts_claim").on("review_attempts").columns(["claim_hash"]).execute();

  for (const column of ["review_status", "review_attempt_id", "review_outcome", "review_advice", "review_support", "review_override_reason", "review_overridden_by", "review_overridden_at"]) {
    await db.schema.alterTable("enrollments").addColumn(column, "text").execute();
  }

  const now = new Date().toISOString();
  await db
    .insertInto("review_groups")
    .values(
      DEFAULT_GROUPS.map((g) => ({ group_key: g.key, suitable_from: 75, support_from: 50, support_advice: g.support, refer_advice: g.refer, updated_at: now })),
    )
    .execute();
  await db
    .insertInto("review_questions")
    .values(
      DEFAULT_QUESTIONS.map((q, i) => ({
        id: q.id,
        group_key: q.group,
        kind: q.kind,
        prompt: q.prompt,
        context: q.context ?? null,
        choices: q.choices ? JSON.stringify(q.choices) : null,
        answer: q.answer,
        tolerance: q.tolerance ?? null,
        position: (i + 1) * 10,
        is_active: 1,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ["review_status", "review_attempt_id", "review_outcome", "review_advice", "review_support", "review_override_reason", "review_overridden_by", "review_overridden_at"]) {
    await db.schema.alterTable("enrollments").dropColumn(column).execute();
  }
  await db.schema.dropTable("review_attempts").execute();
  await db.schema.dropTable("review_groups").execute();
  await db.schema.dropTable("review_questions").execute();
  await db.schema.alterTable("courses").dropColumn("review_retake_days").execute();
  await db.schema.alterTable("courses").dropColumn("review_required").execute();
}

const DEFAULT_GROUPS = [
  {
    key: "reading",
    support: "Your trainer will go through load charts and safety signs with you before the practical sessions, and written material can be read aloud on request.",
    refer: "Please talk to our office before you enrol: reading load charts and signs is part of the licence assessment, and we will plan reading support with you first.",
  },
  {
    key: "writing",
    support: "You may have help with forms such as pre-start checks and defect reports; your trainer will show you worked examples.",
    refer: "Please talk to our office before you enrol about help with the written records a licence holder keeps.",
  },
  {
    key: "numeracy",
    support: "Your trainer will work through load calculations step by step with you, and you may use a calculator in training.",
    refer: "Please talk to our office before you enrol: working out a load's weight is part of the licence assessment, and we can arrange numeracy support first.",
  },
  {
    key: "digital",
    support: "Our office can help you with emails, links and uploading documents: ask at any time.",
    refer: "Please talk to our office: we can enrol you by phone or in person and post your documents to you.",
  },
];

const LOAD_CHART = [
  "Load chart: 20 t mobile crane, main boom 22.5 m, outriggers fully extended",
  "Radius 6 m: 12.4 t",
  "Radius 8 m: 9.1 t",
  "Radius 10 m: 7.0 t",
  "Radius 12 m: 5.6 t",
  "Radius 14 m: 4.5 t",
].join("\n");

const DEFAULT_QUESTIONS: { id: string; group: string; kind: "choice" | "numeric"; prompt: string; context?: string; choices?: string[]; answer: string; tolerance?: string }[] = [
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b01",
    group: "reading",
    kind: "choice",
    context: LOAD_CHART,
    prompt: "What is the most this crane may lift at a radius of 10 m?",
    choices: ["12.4 t", "9.1 t", "7.0 t", "5.6 t"],
    answer: "2",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b02",
    group: "reading",
    kind: "choice",
    context: LOAD_CHART,
    prompt: "A load is to be placed at a radius of 11 m. Which line of the chart do you read?",
    choices: ["Radius 10 m: the nearer line", "Radius 12 m: the next radius out", "Radius 8 m: the line with more capacity", "Any line: the chart is a guide"],
    answer: "1",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b03",
    group: "reading",
    kind: "choice",
    context: "A safety sign: a white circle with a red border and a red bar across it, over a black figure of a person standing under a hook that carries a load.",
    prompt: "What does this sign tell you?",
    choices: ["Do not stand or walk under a suspended load", "Hooks and loads are stored here", "Wear a hard hat in this area", "Crane operators only"],
    answer: "0",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b04",
    group: "writing",
    kind: "choice",
    context: "Pre-start check form. Field: \u201cDate of inspection (DD/MM/YYYY)\u201d.",
    prompt: "The inspection was on 3 March 2026. What do you write in the field?",
    choices: ["03/03/2026", "2026/03/03", "3rd of March", "03/2026"],
    answer: "0",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b05",
    group: "writing",
    kind: "choice",
    context: "Defect report. Field: \u201cDescribe the defect and what you did\u201d.",
    prompt: "You find a cut in the cover of a round sling. Which entry completes the form properly?",
    choices: ["Sling bad", "Round sling, 2 t WLL, tag RS-14: 30 mm cut in the cover near the eye. Tagged out of service.", "See me about it", "Broken, fixed"],
    answer: "1",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b06",
    group: "numeracy",
    kind: "numeric",
    context: "A steel plate is 2 m long, 1.5 m wide and 20 mm (0.02 m) thick. Steel weighs 7.85 t per cubic metre.\nWeight = length \u00d7 width \u00d7 thickness \u00d7 7.85",
    prompt: "What does the plate weigh, in tonnes?",
    answer: "0.471",
    tolerance: "0.01",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b07",
    group: "numeracy",
    kind: "numeric",
    prompt: "A 3.2 t load hangs from slings weighing 0.05 t and a hook block weighing 0.25 t. What is the total weight on the crane, in tonnes?",
    answer: "3.5",
    tolerance: "0.01",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b08",
    group: "numeracy",
    kind: "choice",
    prompt: "Four bundles of 450 kg each are lifted together. How heavy is the lift?",
    choices: ["1.8 t", "0.45 t", "18 t", "4.5 t"],
    answer: "0",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b09",
    group: "digital",
    kind: "choice",
    prompt: "Your class details arrive by email with a link to the portal. How do you see them?",
    choices: ["Tap or click the link in the email", "Reply to the email with \u201cyes\u201d", "Print the email and post it back", "Delete the email"],
    answer: "0",
  },
  {
    id: "6f0b3f8e-1d2a-4c55-9a01-5e0d7c1a2b10",
    group: "digital",
    kind: "choice",
    prompt: "The portal asks you to upload a photo of your driver licence. Which file do you choose?",
    choices: ["licence-front.jpg", "timesheet.xlsx", "song.mp3", "setup.exe"],
    answer: "0",
  },
];
