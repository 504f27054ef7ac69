import {
  REVIEW_ANSWER_EVERY,
  REVIEW_CHOOSE_ONE,
  REVIEW_EMPTY,
  REVIEW_GROUP_LABELS,
  REVIEW_GROUPS,
  REVIEW_HEADLINES,
  REVIEW_NUMBER,
  REVIEW_OUTCOMES,
  REVIEW_UNKNOWN_QUESTION,
  type ReviewGroupKey,
  type ReviewOutcomeKey,
} from "~/schemas/review-text";

/**
 * How a pre-enrolment review is marked, without the database: each answer right or wrong, a
 * score per group (the percent right), each group's outcome from its thresholds, the review's
 * outcome the worst of its groups, and the advice shown. Plain functions, so each boundary is
 * tested on its own.
 */

export interface ScoredQuestion {
  id: string;
  group_key: ReviewGroupKey;
  kind: "choice" | "numeric";
  choices: string[];
  /** choice: the index of the right choice; numeric: the value */
  answer: string;
  tolerance: string | null;
}

export interface GroupRule {
  group_key: ReviewGroupKey;
  suitable_from: number;
  support_from: number;
  support_advice: string;
  refer_advice: string;
}

export interface GroupScore {
  correct: number;
  total: number;
  percent: number;
  outcome: ReviewOutcomeKey;
}

export interface MarkedReview {
  answers: { question_id: string; group: ReviewGroupKey; answer: string; correct: boolean }[];
  scores: Partial<Record<ReviewGroupKey, GroupScore>>;
  outcome: ReviewOutcomeKey;
  support: ReviewGroupKey[];
  advice: string;
}

export type AnswerCheck = { ok: true } | { ok: false; message: string; fieldErrors: Record<string, string> };

/** A numeric answer as typed: digits with one decimal point or comma, an optional minus and unit-free. */
export function readNumber(value: string): number | null {
  const text = value.trim().replace(",", ".");
  if (!/^-?\d+(\.\d+)?$|^-?\.\d+$/.test(text)) return null;
  return Number(text);
}

/** Whether every question asked has a well-formed answer, and no answer is for a question not asked. */
export function checkAnswers(questions: ScoredQuestion[], answers: Record<string, string>, field: (id: string) => string): AnswerCheck {
  const given = Object.entries(answers).filter(([, v]) => v.trim() !== "");
  if (given.length === 0) return { ok: false, message: REVIEW_EMPTY, fieldErrors: {} };
  const asked = new Set(questions.map((q) => q.id));
  if (Object.keys(answers).some((id) => !asked.has(id))) return { ok: false, message: REVIEW_UNKNOWN_QUESTION, fieldErrors: {} };
  const fieldErrors: Record<string, string> = {};
  for (const q of questions) {
    const value = (answers[q.id] ?? "").trim();
    if (q.kind === "choice") {
      const index = /^\d+$/.test(value) ? Number(value) : -1;
      if (index < 0 || index >= q.choices.length) fieldErrors[field(q.id)] = REVIEW_CHOOSE_ONE;
    } else if (readNumber(value) === null) {
      fieldErrors[field(q.id)] = REVIEW_NUMBER;
    }
  }
  return Object.keys(fieldErrors).length ? { ok: false, message: REVIEW_ANSWER_EVERY, fieldErrors } : { ok: true };
}

export function isCorrect(q: ScoredQuestion, value: string): boolean {
  if (q.kind === "choice") return value.trim() === q.answer;
  const given = readNumber(value);
  const expected = Number(q.answer);
  const tolerance = Number(q.tolerance ?? 0) || 0;
  return given !== null && Math.abs(given - expected) <= tolerance + 1e-9;
}

/** A group's outcome from its percent: suitable from `suitable_from`, with support from `support_from`, else refer. */
export function groupOutcome(percent: number, rule: Pick<GroupRule, "suitable_from" | "support_from">): ReviewOutcomeKey {
  if (percent >= rule.suitable_from) return "suitable";
  if (percent >= rule.support_from) return "support";
  return "refer";
}

/** The worse of outcomes: refer over support over suitable. */
export function worstOutcome(outcomes: ReviewOutcomeKey[]): ReviewOutcomeKey {
  return outcomes.reduce<ReviewOutcomeKey>((worst, o) => (REVIEW_OUTCOMES.indexOf(o) > REVIEW_OUTCOMES.indexOf(worst) ? o : worst), "suitable");
}

/** Marks checked answers (checkAnswers first). */
export function markReview(questions: ScoredQuestion[], rules: GroupRule[], answers: Record<string, string>): MarkedReview {
  const marked = questions.map((q) => ({
    question_id: q.id,
    group: q.group_key,
    answer: (answers[q.id] ?? "").trim(),
    correct: isCorrect(q, answers[q.id] ?? ""),
  }));
  const scores: MarkedReview["scores"] = {};
  const adviceLines: string[] = [];
  const support: ReviewGroupKey[] = [];
  for (const group of REVIEW_GROUPS) {
    const inGroup = marked.filter((a) => a.group === group);
    if (inGroup.length === 0) continue;
    const rule = rules.find((r) => r.group_key === group) ?? { group_key: group, suitable_from: 100, support_from: 50, support_advice: "", refer_advice: "" };
    const correct = inGroup.filter((a) => a.correct).length;
    const percent = Math.round((correct / inGroup.length) * 100);
    const outcome = groupOutcome(percent, rule);
    scores[group] = { correct, total: inGroup.length, percent, outcome };
    if (outcome !== "suitable") {
      support.push(group);
      const text = outcome === "support" ? rule.support_advice : rule.refer_advice;
      if (text) adviceLines.push(`${REVIEW_GROUP_LABELS[group]}: ${text}`);
    }
  }
  const outcome = worstOutcome(Object.values(scores).map((s) => s!.outcome));
  return { answers: marked, scores, outcome, support, advice: [REVIEW_HEADLINES[outcome], ...adviceLines].join("\n") };
}
