/**
 * The words of employers and their group bookings (docs/decisions/032-employers-and-group-bookings.md),
 * free of zod and server code so pages can import them: one home for each message, shared by
 * the forms, the /api and the tests.
 */
export const ABN_INVALID = "Enter a valid ABN: 11 digits whose check digits add up";
export const ABN_TAKEN = "An employer with this ABN is already listed";
export const EMPLOYER_SAVED = "Employer saved";
export const EMPLOYER_CREATED = "Employer added";
export const EMPLOYER_USER_INVITED = "Invitation sent: the link works for 7 days";
export const INVITATION_DAYS = 7;
export const INVITATION_UNKNOWN = "This invitation link is not valid. Ask for a new one.";
export const INVITATION_EXPIRED = "This invitation has expired. Ask for a new one.";
export const INVITATION_USED =
  "This invitation has already been answered. If you accepted it, sign in; if you declined it, ask your employer about another class.";
export const INVITATION_OTHER_ACCOUNT = "This invitation is for another account: sign out and open the link again.";
export const EMPLOYER_PASSWORD_SET = "Your password is set. Sign in, then set up two-step sign-in from Account security.";
export const SEATS_BOOKED = (seats: number) => `${seats} ${seats === 1 ? "seat" : "seats"} booked`;
export const WORKERS_ADDED = "Workers added: each has been sent an invitation";
export const TOO_MANY_WORKERS = (seats: number) => `This booking holds ${seats} ${seats === 1 ? "seat" : "seats"}: name no more workers than that`;
export const WORKER_TWICE = "This worker is already named on this booking";
/**
 * Naming an address that belongs to any account other than a learner's (an employer's user of
 * any organisation, a trainer, an administrator): one wording for all of them, so an employer
 * cannot learn from it which addresses are another organisation's employer accounts.
 */
export const WORKER_EMAIL_REFUSED = "This email cannot be booked as a worker: name the worker's own email";
export const BOOKING_RELEASED = "The unfilled seats of this booking were released: no more workers can be named";
export const WORKER_ACCEPTED = "You are enrolled in the class";
export const WORKER_DECLINED = (employer: string) => `You declined the seat: ${employer} can see that and may name someone else in it`;
export const WORKER_DECLINED_BEFORE = "This worker declined a seat on this booking: name someone else";
export const CONSENT_SAVED = "Your choice about sharing results is saved";
export const CONSENT_REQUIRED = "Choose whether to share your results with your employer";
export const CONSENT_MISSING = "Not shared: the worker has not agreed to share their results with you.";
export const RELEASE_DAYS_BEFORE_START = 7;

/** A worker's answer about sharing results, in the employer's words. */
export const CONSENT_LABELS = { yes: "Shares results", no: "Does not share results", unanswered: "Not answered yet" } as const;
export type ConsentState = keyof typeof CONSENT_LABELS;

/** Where a worker named on a booking stands. */
export const WORKER_STATE_LABELS = { invited: "Invited", declined: "Declined", enrolled: "Enrolled", completed: "Completed", withdrawn: "Withdrawn" } as const;
export type WorkerState = keyof typeof WORKER_STATE_LABELS;
