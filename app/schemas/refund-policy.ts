import { formatDate } from "~/utils/format";

/**
 * The refund policy a learner reads before enrolling: on every course's public page and on the
 * enrolment page, from this one home. Business days are the RTO's (Monday to Friday, public
 * holidays excluded).
 */
export const REFUND_POLICY: readonly string[] = [
  "Cancel 10 or more business days before your class starts: full refund, or a free move to another class.",
  "Cancel fewer than 10 business days before it starts: 50% refund, or one free move to another class.",
  "Once your class has started, fees are not refunded unless illness or injury (with a medical certificate) stops you finishing; you may then finish in a later class at no cost.",
  "If we cancel or move a class, you choose a full refund or a place in another class.",
  "Refunds are paid within 14 days to the account that paid. Your rights under the Australian Consumer Law are not affected.",
];

/** The version a page or document names: the day it took effect; null is a record made before versions were kept. */
export const refundPolicyVersion = (version: string | null) => (version ? `Version of ${formatDate(version)}` : "Version not recorded");

/** The line of a credit note naming the policy its refund was decided under (the enrolment's or the group booking's). */
export const creditNotePolicyLine = (version: string | null) =>
  version ? `Under the refund policy of ${formatDate(version)}` : "Refund policy: version not recorded";
