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
