/**
 * The events the audit trail records (docs/decisions/010-staff-sign-in-and-audit.md), with the words /admin/audit shows.
 * Zod-free and server-free: the page's filter lists them.
 */
export const AUDIT_ACTIONS = {
  "sign_in.succeeded": "Signed in",
  "sign_in.failed": "Sign-in failed",
  sign_out: "Signed out",
  "two_step.set_up": "Two-step sign-in set up",
  "two_step.reset": "Two-step sign-in reset",
  "password.changed": "Password changed",
  "password.reset": "Password reset by emailed link",
  "usi.viewed": "USI viewed",
  "usi.changed": "USI changed",
  "usi.verified": "USI verified",
  "certificate.issued": "Certificate issued",
  "certificate.revoked": "Certificate revoked",
  "certificate.reissued": "Certificate reissued",
  "avetmiss.exported": "AVETMISS exported",
  "student.edited": "Student record edited",
  "staff.approved": "Staff account approved",
  "staff.deactivated": "Staff account deactivated",
  "staff.reactivated": "Staff account reactivated",
  "course.edited": "Course edited",
  "mail.resent": "Mail sent again",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** How many entries one page of /admin/audit and GET /api/admin/audit holds. */
export const AUDIT_PAGE_SIZE = 50;
