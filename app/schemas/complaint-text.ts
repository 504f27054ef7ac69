import type { ComplaintKind, ComplaintOutcome, ComplaintStatus } from "#db/schema-complaints";

/**
 * The words and limits of complaints and appeals, zod-free so pages' browser code can read them
 * (the schemas are in complaint.ts, the rules in app/models/complaints/complaint.server.ts).
 */

export const COMPLAINT_KINDS = ["complaint", "appeal"] as const satisfies readonly ComplaintKind[];
export const COMPLAINT_STATUSES = ["received", "acknowledged", "resolved"] as const satisfies readonly ComplaintStatus[];
export const COMPLAINT_OUTCOMES = ["upheld", "partly", "dismissed"] as const satisfies readonly ComplaintOutcome[];

export const KIND_LABELS: Record<ComplaintKind, string> = { complaint: "Complaint", appeal: "Appeal" };
export const STATUS_LABELS: Record<ComplaintStatus, string> = { received: "Received", acknowledged: "Acknowledged", resolved: "Resolved" };
export const OVERDUE_LABELS = { acknowledge: "Overdue: not acknowledged", resolve: "Overdue: not resolved" } as const;
export const OUTCOME_LABELS: Record<ComplaintOutcome, string> = { upheld: "Upheld", partly: "Partly upheld", dismissed: "Dismissed" };

/** The longest complaint or appeal text kept: a long letter fits, a pasted file does not. */
export const DETAILS_MAX = 10_000;
export const REASONS_MAX = 10_000;
export const POLICY_MAX = 50_000;

/** The clocks when admins have set none: acknowledge within 2 business days, resolve within 30 days. */
export const DEFAULT_ACKNOWLEDGE_BUSINESS_DAYS = 2;
export const DEFAULT_RESOLVE_DAYS = 30;

export const COMPLAINT_MESSAGES = {
  detailsEmpty: "Tell us what your complaint is about",
  appealEmpty: "Tell us why you think the decision should change",
  detailsTooLong: `Keep it under ${DETAILS_MAX.toLocaleString("en-AU")} characters; send longer documents to the office once you have your reference`,
  reasonsEmpty: "Give the reasons for the outcome",
  reasonsTooLong: `Keep the reasons under ${REASONS_MAX.toLocaleString("en-AU")} characters`,
  deciderIsAssessor: "An appeal is decided by someone other than the assessor whose decision it is",
  notAssigned: "This appeal is assigned to another staff member to decide",
  alreadyAppealed: "This assessment already has an appeal under way",
  noResultYet: "Only a recorded result can be appealed",
  alreadyAcknowledged: "This item has already been acknowledged",
  alreadyResolved: "This item is already resolved",
  changedResultNeedsUpheld: "A changed result goes with an appeal that is upheld or partly upheld",
  notAnAppeal: "Only an appeal has a result to change",
  tooManyFromClient: "Too many complaints have been sent from your network. Please wait an hour and try again, or call the office.",
  tooManyForEmail:
    "This email address has been sent several acknowledgements today. Leave the email blank to send your complaint now (keep the reference we show you), or try again tomorrow.",
} as const;

/** The policy shown on /complaints/policy until an admin writes their own. */
export function defaultPolicyText(rto: { name: string; code: string }): string {
  return `${rto.name} (RTO ${rto.code}) wants to hear when something has gone wrong. This policy says how you can make a complaint or appeal an assessment decision, and what we will do.

Who can complain
Anyone: a learner, an employer, a visitor to our site or a member of the public. You may give your name and contact details or stay anonymous. If you stay anonymous and leave no contact, we cannot reply to you, but we still look into what you tell us.

How to complain
Use the complaint form on this site (signed in or not), tell any staff member, or write to the office. You get a reference straight away. If you left an email address we also email you an acknowledgement.

Appealing an assessment decision
If you disagree with a decision about your assessment (for example "not yet competent" on a unit or "not yet satisfactory" on a part of a licence assessment), open the assessment in your portal and choose "Appeal this decision". Your appeal is decided by a staff member other than the assessor who made the decision. They review the evidence and may uphold the appeal (the result is changed), partly uphold it, or dismiss it, and we tell you the outcome and the reasons in writing.

Our timeframes
We acknowledge every complaint and appeal within 2 business days (Monday to Friday, not counting New South Wales public holidays) and aim to resolve it within 30 calendar days. If we need longer, we tell you why and keep you informed.

Fairness
Each person involved is heard. Nobody is disadvantaged for making a complaint or appeal. Your details are seen only by the staff who handle your complaint.

If you are not satisfied
You can ask for an independent review by a person outside the training and assessment team, at no cost to you. You can also contact the National Training Complaints Hotline on 13 38 73 or the Australian Skills Quality Authority (ASQA).

What we do with complaints
Every complaint and appeal, and what we did about it, is kept in our register. We look at them to find the cause and improve our training and assessment.`;
}

/** Whether an upheld appeal reopened a credit transfer or RPL application for a new decision (docs/decisions/037). */
export function isReopened(changed: string): boolean {
  return (JSON.parse(changed) as { reopened?: boolean }).reopened === true;
}

/** A changed result in words: "passed", or "practical: satisfactory" (the item's page renders it in the browser too, so it lives outside the model). */
export function describeChange(changed: string): string {
  const c = JSON.parse(changed) as { status?: string; part?: string; result?: string; reopened?: boolean };
  if (c.reopened) return "application reopened for a new decision";
  if (c.status) return c.status;
  return `${c.part}: ${String(c.result).replace(/_/g, " ")}`;
}
