import type { Migration } from "kysely";
import * as initial from "./2026-11-22T0900_initial";
import * as passwordResetRequests from "./2026-11-22T1000_password_reset_requests";
import * as notificationReads from "./2026-11-22T1100_notification_reads";
import * as performanceIndexes from "./2026-11-22T1600_performance_indexes";
import * as reviewState from "./2026-11-22T1800_review_state";
import * as enrollmentCounts from "./2026-11-22T1900_enrollment_counts";
import * as clientRequests from "./2026-11-23T1001_client_requests";
import * as sessionLastSeen from "./2026-11-23T1002_session_last_seen";
import * as usi from "./2026-11-23T1100_usi";
import * as certificateVerification from "./2026-11-23T1101_certificate_verification";
import * as requestCounts from "./2026-11-23T1102_request_counts";
import * as avetmiss from "./2026-11-24T0100_avetmiss";
import * as postgresOrderedIndexes from "./2026-11-25T0100_postgres_ordered_indexes";
import * as catalogueOrderIndex from "./2026-11-25T0200_catalogue_order_index";
import * as certificateEnrollmentIndex from "./2026-11-25T1700_certificate_enrollment_index";
import * as usiClaims from "./2026-11-26T0100_usi_claims";
import * as resetRequestKnown from "./2026-11-26T0101_reset_request_known";
import * as staffLearnerNumbers from "./2026-11-26T0102_staff_learner_numbers";
import * as plannedDatesOfficialTitles from "./2026-11-26T0300_planned_dates_official_titles";
import * as avetmissVersion from "./2026-11-26T0400_avetmiss_version";
import * as avetmissVersionUsiClaimed from "./2026-11-26T0410_avetmiss_version_usi_claimed";
import * as auditAndTwoStep from "./2026-11-26T0500_audit_and_two_step";
import * as hrwAssessments from "./2026-11-26T0600_hrw_assessments";
import * as classes from "./2026-11-26T0700_classes";
import * as requestLimits from "./2026-11-26T0800_request_limits";
import * as pageSpeedIndexes from "./2026-11-26T0820_page_speed_indexes";
import * as catalogueVersion from "./2026-11-26T0821_catalogue_version";
import * as auditChain from "./2026-11-27T1100_audit_chain";
import * as accreditationPeriods from "./2026-11-27T1200_accreditation_periods";
import * as signInSteps from "./2026-11-27T1300_sign_in_steps";
import * as outbox from "./2026-11-27T1500_outbox";
import * as auditHead from "./2026-11-27T1600_audit_head";
import * as ownEditNotifications from "./2026-11-28T0300_own_edit_notifications";
import * as coursePageVersion from "./2026-11-28T0400_course_page_version";
import * as hrwStateRulesAsData from "./2026-11-28T0500_hrw_state_rules_as_data";
import * as assessmentEvidence from "./2026-11-28T0600_assessment_evidence";
import * as preEnrollmentReview from "./2026-11-29T0300_pre_enrolment_review";
import * as complaintsAndAppeals from "./2026-11-29T0400_complaints_and_appeals";
import * as improvementRegisterAndQuestionnaires from "./2026-11-29T0600_improvement_register_and_questionnaires";
import * as employers from "./2026-11-29T0700_employers";
import * as invoices from "./2026-11-29T0800_invoices";
import * as trainerCredentialsAndValidation from "./2026-11-29T0500_trainer_credentials_and_validation";
import * as activityEvidence from "./2026-11-29T0900_i45_activity_evidence";
import * as learnerDocuments from "./2026-11-29T1000_learner_documents";
import * as auditCheckpoints from "./2026-12-04T0900_audit_checkpoints";
import * as storedFileReferenceIndexes from "./2026-12-04T0900_stored_file_reference_indexes";
import * as webhooks from "./2026-12-04T1406_webhooks";
import * as refundPolicies from "./2026-12-04T1030_refund_policies";
import * as attendanceNotices from "./2026-12-04T1402_attendance_notices";
import * as singleSignOn from "./2026-12-04T1405_single_sign_on";
import * as recognition from "./2026-12-04T1404_recognition";
import * as sentMailIndex from "./2026-12-04T2301_sent_mail_index";
import * as reviewHoldIndex from "./2026-12-05T0001_review_hold_index";
import * as userCounts from "./2026-12-05T0601_user_counts";
import * as assessmentCounts from "./2026-12-05T0602_assessment_counts";
import * as avetmissReadiness from "./2026-12-05T1100_avetmiss_readiness";
import * as studyingCount from "./2026-12-05T1200_studying_count";
import * as enrollmentHours from "./2026-12-05T1500_enrollment_hours";
import * as invoiceSums from "./2026-12-05T1510_invoice_sums";
import * as awaitingAssessorCount from "./2026-12-05T1520_awaiting_assessor_count";
import * as unpaidInvoiceIndex from "./2026-12-05T1530_unpaid_invoice_index";
import * as usersNotStudyingIndex from "./2026-12-05T1540_users_not_studying_index";
import * as certificateCount from "./2026-12-05T1550_certificate_count";
import * as assessmentListIndex from "./2026-12-05T1600_assessment_list_index";
import * as auditHeadPerStatement from "./2026-12-05T2200_audit_head_per_statement";
import * as writesTurnWithHead from "./2026-12-06T0600_writes_turn_with_head";
import * as bookingRefundPolicy from "./2026-12-06T1000_booking_refund_policy";
import * as waNoticeBeforeAssessment from "./2026-12-08T0100_wa_notice_before_assessment";
import * as hrwPartAccreditation from "./2026-12-08T0110_hrw_part_accreditation";
import * as spentTokens from "./2026-12-08T0100_spent_tokens";
import * as workerDeclines from "./2026-12-04T1601_worker_declines";
import * as recognitionRefereesAndSessions from "./2026-12-04T2101_recognition_referees_and_sessions";
import * as recognitionDecisions from "./2026-12-04T2201_recognition_decisions";

/**
 * Explicit map so the bundler keeps every migration. Keys sort in the order they run.
 */
export const migrations: Record<string, Migration> = {
  "2026-11-22T0900_initial": initial,
  "2026-11-22T1000_password_reset_requests": passwordResetRequests,
  "2026-11-22T1100_notification_reads": notificationReads,
  "2026-11-22T1600_performance_indexes": performanceIndexes,
  "2026-11-22T1800_review_state": reviewState,
  "2026-11-22T1900_enrollment_counts": enrollmentCounts,
  "2026-11-23T1001_client_requests": clientRequests,
  "2026-11-23T1002_session_last_seen": sessionLastSeen,
  "2026-11-23T1100_usi": usi,
  "2026-11-23T1101_certificate_verification": certificateVerification,
  "2026-11-23T1102_request_counts": requestCounts,
  "2026-11-24T0100_avetmiss": avetmiss,
  "2026-11-25T0100_postgres_ordered_indexes": postgresOrderedIndexes,
  "2026-11-25T0200_catalogue_order_index": catalogueOrderIndex,
  "2026-11-25T1700_certificate_enrollment_index": certificateEnrollmentIndex,
  "2026-11-26T0100_usi_claims": usiClaims,
  "2026-11-26T0101_reset_request_known": resetRequestKnown,
  "2026-11-26T0102_staff_learner_numbers": staffLearnerNumbers,
  "2026-11-26T0300_planned_dates_official_titles": plannedDatesOfficialTitles,
  "2026-11-26T0400_avetmiss_version": avetmissVersion,
  "2026-11-26T0410_avetmiss_version_usi_claimed": avetmissVersionUsiClaimed,
  "2026-11-26T0500_audit_and_two_step": auditAndTwoStep,
  "2026-11-26T0600_hrw_assessments": hrwAssessments,
  "2026-11-26T0700_classes": classes,
  "2026-11-26T0800_request_limits": requestLimits,
  "2026-11-26T0820_page_speed_indexes": pageSpeedIndexes,
  "2026-11-26T0821_catalogue_version": catalogueVersion,
  "2026-11-27T1100_audit_chain": auditChain,
  "2026-11-27T1200_accreditation_periods": accreditationPeriods,
  "2026-11-27T1300_sign_in_steps": signInSteps,
  "2026-11-27T1500_outbox": outbox,
  "2026-11-27T1600_audit_head": auditHead,
  "2026-11-28T0300_own_edit_notifications": ownEditNotifications,
  "2026-11-28T0400_course_page_version": coursePageVersion,
  "2026-11-28T0500_hrw_state_rules_as_data": hrwStateRulesAsData,
  "2026-11-28T0600_assessment_evidence": assessmentEvidence,
  "2026-11-29T0300_pre_enrolment_review": preEnrollmentReview,
  "2026-11-29T0400_complaints_and_appeals": complaintsAndAppeals,
  "2026-11-29T0600_improvement_register_and_questionnaires": improvementRegisterAndQuestionnaires,
  "2026-11-29T0700_employers": employers,
  "2026-11-29T0800_invoices": invoices,
  "2026-11-29T0500_trainer_credentials_and_validation": trainerCredentialsAndValidation,
  "2026-11-29T0900_i45_activity_evidence": activityEvidence,
  "2026-11-29T1000_learner_documents": learnerDocuments,
  "2026-12-04T0900_audit_checkpoints": auditCheckpoints,
  "2026-12-04T0900_stored_file_reference_indexes": storedFileReferenceIndexes,
  "2026-12-04T1030_refund_policies": refundPolicies,
  "2026-12-04T1402_attendance_notices": attendanceNotices,
  "2026-12-04T1405_single_sign_on": singleSignOn,
  "2026-12-04T1406_webhooks": webhooks,
  "2026-12-04T1404_recognition": recognition,
  "2026-12-04T1601_worker_declines": workerDeclines,
  "2026-12-04T2101_recognition_referees_and_sessions": recognitionRefereesAndSessions,
  "2026-12-04T2201_recognition_decisions": recognitionDecisions,
  "2026-12-04T2301_sent_mail_index": sentMailIndex,
  "2026-12-05T0001_review_hold_index": reviewHoldIndex,
  "2026-12-05T0601_user_counts": userCounts,
  "2026-12-05T0602_assessment_counts": assessmentCounts,
  "2026-12-05T1100_avetmiss_readiness": avetmissReadiness,
  "2026-12-05T1200_studying_count": studyingCount,
  "2026-12-05T1500_enrollment_hours": enrollmentHours,
  "2026-12-05T1510_invoice_sums": invoiceSums,
  "2026-12-05T1520_awaiting_assessor_count": awaitingAssessorCount,
  "2026-12-05T1530_unpaid_invoice_index": unpaidInvoiceIndex,
  "2026-12-05T1540_users_not_studying_index": usersNotStudyingIndex,
  "2026-12-05T1550_certificate_count": certificateCount,
  "2026-12-05T1600_assessment_list_index": assessmentListIndex,
  "2026-12-05T2200_audit_head_per_statement": auditHeadPerStatement,
  "2026-12-06T0600_writes_turn_with_head": writesTurnWithHead,
  "2026-12-06T1000_booking_refund_policy": bookingRefundPolicy,
  "2026-12-08T0100_wa_notice_before_assessment": waNoticeBeforeAssessment,
  "2026-12-08T0110_hrw_part_accreditation": hrwPartAccreditation,
  "2026-12-08T0100_spent_tokens": spentTokens,
};
