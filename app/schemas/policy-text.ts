/**
 * The policies a learner agrees to when they register and enrol: the terms and conditions, the
 * student code of conduct and the privacy policy, each with its versions and the day each took
 * effect. The public page /policies/<slug> shows the version in force (the latest to take effect
 * on or before today, the organisation's); a new version is added here with a later day, never by
 * editing one already in force. The refund policy's versions are data of their own
 * (refund-policy.server.ts) because credit notes cite them.
 */

export interface PolicyVersion {
  /** the day it took effect (YYYY-MM-DD), which names it */
  effective_from: string;
  /** paragraphs; a line starting "- " is a point of a list */
  paragraphs: string[];
}

export interface Policy {
  title: string;
  /** what the enrolment page and registration call it */
  name: string;
  description: string;
  versions: PolicyVersion[];
}

export const POLICY_SLUGS = ["terms", "code-of-conduct", "privacy"] as const;
export type PolicySlug = (typeof POLICY_SLUGS)[number];

export const POLICIES: Record<PolicySlug, Policy> = {
  terms: {
    title: "Terms and conditions of enrolment",
    name: "terms and conditions",
    description: "The terms a learner agrees to when they enrol in a course: fees, classes, assessment, certificates and cancellations.",
    versions: [
      {
        effective_from: "2026-11-22",
        paragraphs: [
          "These terms apply to every enrolment with us, a registered training organisation (RTO). By enrolling you agree to them, to the student code of conduct and to the privacy policy.",
          "Fees. The course fee is shown on the course page before you enrol. You receive a tax invoice when you enrol; an employer who books seats for its workers is invoiced for them instead. Refunds follow the refund policy on the course page, in the version in force on the day you enrolled.",
          "Classes. A course with classes gives you a seat in one class; its sessions, times and place are in your portal and your confirmation mail. If we cancel a class you keep your enrolment and choose another class, or talk to us about a refund. Arrive before the start time of each session with what the class asks you to bring.",
          "Unique Student Identifier. You need a USI before we can issue a certificate. We verify it with the USI Registry.",
          "Assessment. You are assessed against the unit of competency. You may be reassessed, and you may appeal an assessment decision through the complaints and appeals policy.",
          "Certificates. When you are assessed competent and your USI is verified, we issue a statement of attainment. Anyone you show it to can check it on our verification page.",
          "Withdrawing. You may withdraw at any time by telling the training office; what is refunded follows the refund policy.",
        ],
      },
    ],
  },
  "code-of-conduct": {
    title: "Student code of conduct",
    name: "student code of conduct",
    description: "How learners behave in class, in the yard and online while training with us.",
    versions: [
      {
        effective_from: "2026-11-22",
        paragraphs: [
          "Cranes, rigging and loads can kill. This code keeps everyone in the yard safe and every assessment fair. By enrolling you agree to follow it.",
          "In the yard and the classroom:",
          "- Follow your trainer's instructions and the site's safety rules at all times, and wear the protective equipment the session asks for.",
          "- Never operate plant or handle a load unless your trainer has told you to.",
          "- Do not attend under the influence of alcohol or drugs; we may ask you to leave for the day.",
          "- Treat other learners, trainers and staff with respect: no bullying, harassment or discrimination.",
          "- Arrive on time and tell us beforehand if you cannot attend a session.",
          "Assessment:",
          "- The work you submit is your own. Copying, or having someone else do an assessment for you, ends the assessment and may end your enrolment.",
          "Breaches are recorded. Depending on how serious one is, we may warn you, remove you from a session, or cancel your enrolment. You may appeal a decision through the complaints and appeals policy.",
        ],
      },
    ],
  },
  privacy: {
    title: "Privacy policy",
    name: "privacy policy",
    description: "What personal information we collect, why, who we share it with, how long we keep it and how to see or correct it.",
    versions: [
      {
        effective_from: "2026-11-22",
        paragraphs: [
          "We collect the personal information a registered training organisation needs to enrol you, train and assess you, and report to government: your name, contact details, date of birth, Unique Student Identifier (USI), the statistical details the national VET data collection asks for, your attendance, assessment results and certificates.",
          "Who sees it. Your trainers see what they need to train and assess you; our office staff see your record. If your employer booked your seat, it sees your results only when you agree, and you can withdraw that agreement in your portal.",
          "Who we give it to. We verify your USI with the USI Registry. We report enrolments and outcomes to the National Centre for Vocational Education Research (NCVER) as the law requires, and to the state regulator when you apply for a high risk work licence. We do not sell your information or use it for advertising.",
          "How long we keep it. Records of certificates issued are kept for 30 years, as the standards for RTOs require; other records for the periods our retention rules set, after which they are destroyed.",
          "Seeing and correcting it. You can see and change most of your details in your portal. To see anything else we hold, or to correct it, contact the training office. To complain about how we handled your information, use the complaints and appeals policy; you may also contact the Office of the Australian Information Commissioner.",
        ],
      },
    ],
  },
};

/** The version of a policy in force on an organisation day: the latest to take effect on or before it (the first before any). */
export function policyInForce(policy: Policy, day: string): PolicyVersion {
  const taken = policy.versions.filter((v) => v.effective_from <= day).sort((a, b) => b.effective_from.localeCompare(a.effective_from));
  return taken[0] ?? policy.versions[0]!;
}

export const policyPath = (slug: PolicySlug) => `/policies/${slug}`;
