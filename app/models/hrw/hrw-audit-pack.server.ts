import type { DB } from "#db/connection";
import { HRW_MESSAGES, HRW_STATES, IDENTITY_POINTS_NEEDED, MINIMUM_AGE, NAI_PARTS, NAI_RESULTS, type HrwState } from "~/schemas/hrw-codes";
import { toCsv } from "~/utils/csv";
import { ageOn } from "./hrw-calendar.server";
import { HRW_REPORT_COLUMNS, hrwReportRow, hrwReportRows, type HrwAssessment } from "./hrw-assessment.server";
import { stateRulesOn } from "./hrw-rules.server";

/**
 * A regulator's yearly audit pack for one state: the year's assessments (by assessment date),
 * their assessors with every accreditation period that regulator gave them, the notices, the
 * NSAs, the candidates' checks (what was checked, by whom and when; never a date of birth, a
 * document or a licence number) and the evidence recorded (every part result), each a CSV,
 * with the figures a one-page summary shows. The route adds the summary PDF and zips them. A
 * state and year with no assessments still gives the pack, with a README saying there were none:
 * an auditor files a nil year as evidence like any other.
 */

export interface AuditPack {
  state: HrwState;
  regulator: string;
  year: number;
  /**
   * When the state sets a yearly audit date: the audit this year's records belong to, the first
   * due date after the year ends (a VIC year to 31 Dec falls to the next 31 Oct)
   */
  audit: { period_from: string; period_to: string; due_on: string } | null;
  files: Record<string, string>;
  counts: { assessments: number; assessors: number; notices: number; nsas: number; checks: number; evidence: number; satisfactory: number };
}

const csv = <K extends string>(columns: readonly K[], rows: Array<Record<K, string | number | null>>) => `\uFEFF${toCsv(columns, rows)}`;

/** The first yearly due date (month-day) after a period's last day, with that period. */
function auditDueAfter(monthDay: string | null, from: string, to: string): AuditPack["audit"] {
  if (!monthDay) return null;
  const year = Number(to.slice(0, 4));
  const due = `${year}-${monthDay}` > to ? `${year}-${monthDay}` : `${year + 1}-${monthDay}`;
  return { period_from: from, period_to: to, due_on: due };
}

export async function hrwAuditPack(db: DB, state: HrwState, year: number): Promise<AuditPack> {
  const from = `${year}-01-01`;
  const to = `${year}-12-31`;
  // every assessment of the year, read a batch at a time: the report page's ceiling is not the pack's
  const assessments: HrwAssessment[] = [];
  for await (const a of hrwReportRows(db, { from, to, state })) assessments.push(a);
  const assessorIds = [...new Set(assessments.map((a) => a.assessor.id))];
  const candidateIds = [...new Set(assessments.map((a) => a.candidate.id))];

  const periods = assessorIds.length
    ? await db
        .selectFrom("hrw_accreditations as a")
        .innerJoin("users as u", "u.id", "a.trainer_id")
        .select(["u.full_name", "a.number", "a.classes", "a.starts_on", "a.expires_on", "a.created_at"])
        .where("a.trainer_id", "in", assessorIds)
        .where("a.regulator", "=", state)
        .orderBy("u.full_name")
        .orderBy("a.number")
        .orderBy("a.starts_on")
        .execute()
    : [];
  const checks = candidateIds.length
    ? await db
        .selectFrom("hrw_candidate_checks as c")
        .innerJoin("users as s", "s.id", "c.candidate_id")
        .innerJoin("users as by", "by.id", "c.checked_by")
        .select(["c.candidate_id", "s.full_name as candidate", "c.kind", "c.licence_class", "c.detail", "by.full_name as checked_by", "c.checked_at"])
        .where("c.candidate_id", "in", candidateIds)
        .orderBy("s.full_name")
        .orderBy("c.checked_at")
        .orderBy("c.id")
        .execute()
    : [];
  const firstDate = new Map<string, string>();
  for (const a of assessments) if (!firstDate.has(a.candidate.id)) firstDate.set(a.candidate.id, a.assessment_date);

  const checkRows = checks.map((c) => {
    let detail: Record<string, unknown> = {};
    try {
      detail = JSON.parse(c.detail) as Record<string, unknown>;
    } catch {
      // an unreadable detail shows no outcome
    }
    const on = firstDate.get(c.candidate_id) ?? from;
    const outcome =
      c.kind === "age"
        ? typeof detail.date_of_birth === "string" && ageOn(detail.date_of_birth, on) >= MINIMUM_AGE
          ? `${MINIMUM_AGE} or older on ${on}`
          : `under ${MINIMUM_AGE} on ${on}`
        : c.kind === "identity"
          ? `${Number(detail.points ?? 0)} of ${IDENTITY_POINTS_NEEDED} points sighted`
          : c.kind === "prerequisite"
            ? `${c.licence_class ?? ""} licence held, expires ${String(detail.expires_on ?? "")}`
            : c.kind === "aen"
              ? `AEN recorded for ${String(detail.state ?? "")}`
              : "";
    return { candidate: c.candidate, check: c.kind, outcome, checked_by: c.checked_by, checked_at: c.checked_at };
  });
  const notices = assessments.flatMap((a) =>
    a.notices.map((n) => ({
      assessment_date: a.assessment_date,
      candidate: a.candidate.full_name,
      licence_class: a.licence_class,
      day_covered: n.held_on,
      reference: n.reference,
      given_on: n.sent_on,
      due_by: a.notice_due_on ?? "",
    })),
  );
  const nsas = assessments
    .filter((a) => a.nsa_number)
    .map((a) => ({
      nsa_number: a.nsa_number!,
      nsa_date: a.nsa_date!,
      candidate: a.candidate.full_name,
      licence_class: a.licence_class,
      assessor: a.assessor.full_name,
      accreditation_number: a.accreditation_number ?? "",
      apply_by: a.application_deadline ?? "",
    }));
  const evidence = assessments.flatMap((a) =>
    a.history.map((p) => ({
      assessment_date: a.assessment_date,
      candidate: a.candidate.full_name,
      licence_class: a.licence_class,
      record: `NAI ${NAI_PARTS[p.part].toLowerCase()} result`,
      result: NAI_RESULTS[p.result],
      assessed_on: p.assessed_on,
      accreditation_number: p.accreditation_number ?? "",
      recorded_at: p.recorded_at,
    })),
  );
  const files: Record<string, string> = {
    // a year with none is still the year's evidence: the pack says so in words, not only by empty files
    ...(assessments.length === 0 ? { "README.txt": `${HRW_MESSAGES.noAssessmentsInYear(state, year)}: each CSV holds its column headings only.\r\n` } : {}),
    "assessments.csv": csv(HRW_REPORT_COLUMNS, assessments.map(hrwReportRow)),
    "assessors.csv": csv(
      ["assessor", "accreditation_number", "classes", "starts_on", "expires_on", "recorded_at"] as const,
      periods.map((p) => ({
        assessor: p.full_name,
        accreditation_number: p.number,
        classes: (JSON.parse(p.classes) as string[]).join(" "),
        starts_on: p.starts_on,
        expires_on: p.expires_on,
        recorded_at: p.created_at,
      })),
    ),
    "notices.csv": csv(["assessment_date", "candidate", "licence_class", "day_covered", "reference", "given_on", "due_by"] as const, notices),
    "nsas.csv": csv(["nsa_number", "nsa_date", "candidate", "licence_class", "assessor", "accreditation_number", "apply_by"] as const, nsas),
    "candidate-checks.csv": csv(["candidate", "check", "outcome", "checked_by", "checked_at"] as const, checkRows),
    "evidence.csv": csv(
      ["assessment_date", "candidate", "licence_class", "record", "result", "assessed_on", "accreditation_number", "recorded_at"] as const,
      evidence,
    ),
  };
  return {
    state,
    regulator: HRW_STATES[state],
    year,
    audit: auditDueAfter((await stateRulesOn(db, state, to)).text("annual_audit_due"), from, to),
    files,
    counts: {
      assessments: assessments.length,
      assessors: assessorIds.length,
      notices: notices.length,
      nsas: nsas.length,
      checks: checkRows.length,
      evidence: evidence.length,
      satisfactory: assessments.filter((a) => a.stage === "satisfactory" || a.stage === "nsa_issued").length,
    },
  };
}
