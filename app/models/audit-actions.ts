/**
 * The events the audit trail records, with the words /admin/audit shows: sign-in and the
 * office's day (people's records and bulk reads of them, courses, classes and their seats,
 * results, the high-risk work register and assessments). Zod-free and server-free: the page's
 * filter, the /api's filter and the OpenAPI document list them from here.
 */
export const AUDIT_ACTIONS = {
  "sign_in.succeeded": "Signed in",
  "sign_in.failed": "Sign-in failed",
  "sign_in.throttled": "Sign-in refused by a request limit",
  sign_out: "Signed out",
  "two_step.set_up": "Two-step sign-in set up",
  "two_step.reset": "Two-step sign-in reset",
  "two_step.turned_off": "Two-step sign-in turned off",
  "two_step.set_up_again": "Two-step sign-in set up again",
  "sessions.ended": "Other sessions ended",
  "password.changed": "Password changed",
  "password.reset": "Password reset by emailed link",
  "usi.viewed": "USI viewed",
  "students.exported": "Students exported (CSV)",
  "students.listed": "Student list read with personal details",
  "usi.changed": "USI changed",
  "usi.verified": "USI verified",
  "certificate.issued": "Certificate issued",
  "certificate.revoked": "Certificate revoked",
  "certificate.reissued": "Certificate reissued",
  "avetmiss.exported": "AVETMISS exported",
  "student.edited": "Student record edited",
  "staff.approved": "Staff account approved",
  "staff.rejected": "Staff registration rejected",
  "admin.created": "Administrator created (admin:create)",
  "staff.deactivated": "Staff account deactivated",
  "staff.reactivated": "Staff account reactivated",
  "course.created": "Course created",
  "course.edited": "Course edited",
  "class.created": "Class created",
  "class.edited": "Class edited",
  "class.seats_changed": "Class seats changed",
  "class.cancelled": "Class cancelled",
  "waitlist.offer_made": "Waitlist seat offered",
  "waitlist.offer_accepted": "Waitlist offer accepted",
  "waitlist.offer_expired": "Waitlist offer expired",
  "attendance.marked": "Attendance marked",
  "assessment.result_recorded": "Assessment result recorded",
  "hrw.check_recorded": "HRW candidate check recorded",
  "hrw.assessment_booked": "HRW assessment booked",
  "hrw.notice_recorded": "HRW regulator notice recorded",
  "hrw.result_recorded": "HRW result recorded",
  "hrw.nsa_recorded": "NSA recorded",
  "accreditation.added": "Accreditation added",
  "accreditation.changed": "Accreditation changed (renewed for a new period)",
  "accreditation.removed": "Accreditation removed",
  "assessor_licence.changed": "Assessor's licence changed",
  "hrw.state_rule_changed": "HRW state rule changed",
  "hrw.assessment_rescheduled": "HRW assessment rescheduled",
  "hrw.regulator_task_raised": "HRW regulator task raised",
  "hrw.regulator_task_done": "HRW regulator task done",
  "mail.resent": "Mail sent again",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

/** How many entries one page of /admin/audit and GET /api/admin/audit holds. */
export const AUDIT_PAGE_SIZE = 50;
