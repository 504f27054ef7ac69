import type { DB } from "#db/connection";
import { CREDENTIAL_WARNING_DAYS, VALIDATION_DUE_DAYS } from "~/schemas/standards-text";
import { organisationToday } from "~/utils/organisation-calendar";
import { expiringCredentials } from "./trainer-credential.server";
import { validationsDue } from "./validation.server";
import { overdueImprovementCount } from "./improvement.server";
import { overdueComplaintCount } from "../complaints/complaint-clocks.server";

/**
 * The admin dashboard's "Standards" panel: one row per thing an auditor asks about, each a count,
 * the words beside it and where to act. A new row (improvement actions overdue, complaints
 * overdue) is one more entry in STANDARDS_ROWS.
 */
export interface StandardsRow {
  key: string;
  label: string;
  count: number;
  href: string;
  /** red when something is already late, amber when it is coming */
  tone: "red" | "amber" | "green";
}

type RowSource = (db: DB, today: string) => Promise<StandardsRow>;

const credentialsExpiring: RowSource = async (db, today) => {
  const rows = await expiringCredentials(db, today);
  const expired = rows.filter((r) => r.expires_on < today).length;
  return {
    key: "credentials",
    label: `Trainer credentials expiring within ${CREDENTIAL_WARNING_DAYS} days or expired`,
    count: rows.length,
    href: "/admin/credentials",
    tone: expired ? "red" : rows.length ? "amber" : "green",
  };
};

const validationsOverdue: RowSource = async (db, today) => {
  const count = (await validationsDue(db, today)).filter((c) => c.state === "overdue").length;
  return { key: "validations-overdue", label: "Course validations overdue", count, href: "/admin/validations", tone: count ? "red" : "green" };
};

const validationsComing: RowSource = async (db, today) => {
  const count = (await validationsDue(db, today)).filter((c) => c.state === "due").length;
  return {
    key: "validations-due",
    label: `Course validations due within ${VALIDATION_DUE_DAYS} days`,
    count,
    href: "/admin/validations",
    tone: count ? "amber" : "green",
  };
};

const improvementsOverdue: RowSource = async (db, today) => {
  const count = await overdueImprovementCount(db, today);
  return { key: "improvements-overdue", label: "Improvement actions overdue", count, href: "/admin/improvements", tone: count ? "red" : "green" };
};

const complaintsOverdue: RowSource = async (db, today) => {
  const count = await overdueComplaintCount(db, today);
  return { key: "complaints-overdue", label: "Complaints and appeals past their clock", count, href: "/admin/complaints", tone: count ? "red" : "green" };
};

const STANDARDS_ROWS: RowSource[] = [credentialsExpiring, validationsOverdue, validationsComing, improvementsOverdue, complaintsOverdue];

export async function standardsPanel(db: DB, today = organisationToday()): Promise<StandardsRow[]> {
  return Promise.all(STANDARDS_ROWS.map((row) => row(db, today)));
}
