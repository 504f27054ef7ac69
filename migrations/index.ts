import type { Migration } from "kysely";
import * as initial from "./2026-11-22T0900_initial";
import * as passwordResetRequests from "./2026-11-22T1000_password_reset_requests";
import * as notificationReads from "./2026-11-22T1100_notification_reads";
import * as performanceIndexes from "./2026-11-22T1600_performance_indexes";
import * as reviewState from "./2026-11-22T1800_review_state";
import * as enrollmentCounts from "./2026-11-22T1900_enrollment_counts";

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
};
