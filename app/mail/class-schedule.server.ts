import { getDb } from "~/db.server";
import { env } from "~/env.server";
import type { CancelledClass } from "~/models/class.server";
import { runClassJobs } from "~/models/class-jobs.server";
import { logLine } from "~/utils/log.server";
import { documentOrigin } from "~/utils/public-link.server";
import { classCancelledEmail } from "./class-mails.server";
import { getMailer } from "./transport.server";

/** How often each server process runs the class jobs (offers, reminders, alerts). */
const INTERVAL_MS = 60_000;

declare global {
  var __classJobs: ReturnType<typeof setInterval> | undefined;
}

const rto = () => ({ name: env().RTO_NAME, code: env().RTO_CODE });

/**
 * Starts the class jobs in this process (once; dev reloads keep the one timer). Every worker of
 * every server runs them: the claims in the database make each mail go once.
 */
export function startClassJobs(): void {
  // tests that load the server build call the jobs themselves, on their own databases
  if (globalThis.__classJobs || process.env.CLASS_JOBS === "off" || process.env.VITEST) return;
  const tick = () =>
    runClassJobs(getDb(), { mailer: getMailer(), origin: documentOrigin(), rto: rto() }).catch((error: unknown) =>
      logLine({ event: "class-jobs-error", error: String(error) }),
    );
  globalThis.__classJobs = setInterval(tick, INTERVAL_MS);
  globalThis.__classJobs.unref();
  setTimeout(tick, 5_000).unref();
}

/** Tells every learner of a cancelled class; in the background, never throws. */
export function mailClassCancelled(cancelled: CancelledClass, courseId: string): void {
  const mailer = getMailer();
  for (const learner of cancelled.learners) {
    const message = classCancelledEmail({
      to: learner.email,
      fullName: learner.full_name,
      course: cancelled.course_name,
      start: cancelled.start_date,
      end: cancelled.end_date,
      link: `${documentOrigin()}/enroll/${courseId}`,
      rto: rto(),
    });
    void mailer.send(message).catch((error: unknown) => logLine({ event: "mail-error", kind: "class-cancelled", error: String(error) }));
  }
}
