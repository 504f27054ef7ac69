import { Link } from "@remix-run/react";
import { Badge, type BadgeTone } from "~/components/ui";
import { HRW_MESSAGES, HRW_STAGES, hrwDate, NAI_PART_CODES, NAI_PARTS, NAI_RESULTS, type HrwStage, type NaiPart, type NaiResult } from "~/schemas/hrw-codes";

const STAGE_TONES: Record<HrwStage, BadgeTone> = {
  notice_due: "amber",
  booked: "blue",
  in_progress: "navy",
  not_yet_satisfactory: "red",
  satisfactory: "yellow",
  nsa_issued: "green",
};

export function StageBadge({ stage }: { stage: HrwStage }) {
  return <Badge tone={STAGE_TONES[stage]}>{HRW_STAGES[stage]}</Badge>;
}

type Parts = Partial<Record<NaiPart, { result: NaiResult; assessed_on: string }>>;

export function PartsList({ parts }: { parts: Parts }) {
  return (
    <ul className="space-y-0.5">
      {NAI_PART_CODES.map((p) => (
        <li key={p}>
          <span className="font-medium">{NAI_PARTS[p]}:</span>{" "}
          {parts[p] ? `${NAI_RESULTS[parts[p]!.result]}, ${hrwDate(parts[p]!.assessed_on)}` : "not assessed"}
        </li>
      ))}
    </ul>
  );
}

/** The assessor's "Notify the regulator by DATE" list (dashboard and HRW page). */
export function NoticesDue({
  notices,
  today,
}: {
  notices: Array<{ id: string; candidate_name: string; licence_class: string; state: string; assessment_date: string; notice_due_on: string }>;
  today: string;
}) {
  if (notices.length === 0) return null;
  return (
    <ul className="space-y-2" aria-label="Regulator notices due">
      {notices.map((n) => (
        <li key={n.id} className={n.notice_due_on < today ? "text-red-800" : "text-steel-800"}>
          <Link to={`/trainer/hrw/${n.id}`} className="font-semibold underline">
            {HRW_MESSAGES.notifyBy(n.notice_due_on)}
          </Link>{" "}
          — {n.candidate_name}, {n.licence_class} in {n.state} on {hrwDate(n.assessment_date)}
          {n.notice_due_on < today ? " (overdue)" : ""}
        </li>
      ))}
    </ul>
  );
}

/** Accreditation and licence expiry warnings (60 days ahead), for both dashboards. */
export function ExpiryWarnings({
  warnings,
  showName,
  linkTo,
}: {
  warnings: Array<{ trainer_id: string; trainer_name: string; label: string; expires_on: string; expired: boolean }>;
  showName: boolean;
  linkTo?: (trainerId: string) => string;
}) {
  if (warnings.length === 0) return null;
  return (
    <ul className="space-y-1" aria-label="Assessor expiry warnings">
      {warnings.map((w) => (
        <li key={`${w.trainer_id}-${w.label}`} className={w.expired ? "text-red-800" : "text-amber-900"}>
          {showName ? (
            linkTo ? (
              <Link to={linkTo(w.trainer_id)} className="font-semibold underline">
                {w.trainer_name}
              </Link>
            ) : (
              <span className="font-semibold">{w.trainer_name}</span>
            )
          ) : null}
          {showName ? ": " : null}
          {w.label} {w.expired ? "expired on" : "expires on"} {hrwDate(w.expires_on)}
        </li>
      ))}
    </ul>
  );
}

const ALERT_CARD = "mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4";

type Currency = {
  state: string;
  licence_class: string;
  assessments: number;
  hours: number;
  needs: { assessments: number | null; hours: number | null; years: number };
  current_until: string | null;
  status: "current" | "lapsing" | "lapsed";
};

/** An assessor's currency per class: what the portal's records count against the state's rule. */
export function CurrencyList({ currency }: { currency: Currency[] }) {
  if (currency.length === 0) return null;
  return (
    <ul className="space-y-1" aria-label="Assessor currency">
      {currency.map((c) => (
        <li
          key={`${c.state}-${c.licence_class}`}
          className={c.status === "lapsed" ? "text-red-800" : c.status === "lapsing" ? "text-amber-900" : "text-steel-800"}
        >
          <span className="font-semibold">
            {c.state} {c.licence_class} currency:
          </span>{" "}
          {[
            c.needs.assessments !== null ? `${c.assessments} of ${c.needs.assessments} assessments` : null,
            c.needs.hours !== null ? `${c.hours} of ${c.needs.hours} hours` : null,
          ]
            .filter(Boolean)
            .join(", ")}{" "}
          in {c.needs.years} years;{" "}
          {c.current_until ? `${c.status === "lapsing" ? "lapses after" : "current until"} ${hrwDate(c.current_until)}` : "not current"}
        </li>
      ))}
    </ul>
  );
}

/** The trainer dashboard's HRW card: shown only when something needs the assessor. */
export function TrainerHrwAlerts({
  hrw,
}: {
  hrw: {
    today: string;
    notices: Parameters<typeof NoticesDue>[0]["notices"];
    warnings: Parameters<typeof ExpiryWarnings>[0]["warnings"];
    currency: Currency[];
  };
}) {
  if (!hrw.notices.length && !hrw.warnings.length && !hrw.currency.length) return null;
  return (
    <section aria-labelledby="hrw-alerts" className={ALERT_CARD}>
      <h2 id="hrw-alerts" className="mb-2 font-semibold text-steel-900">
        HRW licence assessments
      </h2>
      <NoticesDue notices={hrw.notices} today={hrw.today} />
      <ExpiryWarnings warnings={hrw.warnings} showName={false} />
      <CurrencyList currency={hrw.currency} />
    </section>
  );
}

type Task = { id: string; state: string; trainer: { id: string; full_name: string }; what: string; due_on: string };

/** "Tell the regulator by DATE" for assessors who stopped, until recorded done. */
export function RegulatorTasks({ tasks, linkTo }: { tasks: Task[]; linkTo?: (trainerId: string) => string }) {
  if (tasks.length === 0) return null;
  return (
    <ul className="space-y-1" aria-label="Regulator tasks">
      {tasks.map((t) => (
        <li key={t.id} className="text-amber-900">
          <span className="font-semibold">
            Tell the {t.state} regulator by {hrwDate(t.due_on)}
          </span>
          :{" "}
          {linkTo ? (
            <Link to={linkTo(t.trainer.id)} className="underline">
              {t.trainer.full_name}
            </Link>
          ) : (
            t.trainer.full_name
          )}
          , {t.what.charAt(0).toLowerCase() + t.what.slice(1)}
        </li>
      ))}
    </ul>
  );
}

/** The admin dashboard's HRW card: assessors' expiries within 60 days and what to tell a regulator. */
export function AdminHrwAlerts({ hrw }: { hrw: { warnings: Parameters<typeof ExpiryWarnings>[0]["warnings"]; tasks: Task[] } }) {
  if (!hrw.warnings.length && !hrw.tasks.length) return null;
  return (
    <section aria-labelledby="hrw-expiries" className={ALERT_CARD}>
      <h2 id="hrw-expiries" className="mb-2 font-semibold text-steel-900">
        Assessors: expiries and regulator changes
      </h2>
      <RegulatorTasks tasks={hrw.tasks} linkTo={(id) => `/admin/staff/${id}/hrw`} />
      <ExpiryWarnings warnings={hrw.warnings} showName linkTo={(id) => `/admin/staff/${id}/hrw`} />
    </section>
  );
}

/** The student dashboard's licence application deadlines ("Apply for your CN licence by DATE"). */
export function CandidateLicenceDeadlines({
  hrw,
}: {
  hrw: { deadlines: Array<{ id: string; licence_class: string; nsa_number: string; deadline: string; apply_where: string }> };
}) {
  if (!hrw.deadlines.length) return null;
  return (
    <section aria-labelledby="licence-deadlines" className={ALERT_CARD}>
      <h2 id="licence-deadlines" className="mb-2 font-semibold text-steel-900">
        Your high-risk work licence
      </h2>
      <ul className="space-y-1">
        {hrw.deadlines.map((d) => (
          <li key={d.id}>
            <span className="font-semibold">{HRW_MESSAGES.applyBy(d.licence_class, d.deadline)}</span>: apply {d.apply_where}, with your Notice of Satisfactory
            Assessment {d.nsa_number}.
          </li>
        ))}
      </ul>
    </section>
  );
}
