import { z } from "zod";
import { filterChoice, filteredListQuery, filterText } from "./list-filters";
import { MAIL_STATES, MAIL_TEMPLATES } from "./mail-text";

/**
 * The Mail page's filters, the same for /admin/mail and GET /api/admin/mail: state, recipient
 * (a user id, or part of a name or email), template and the days it was queued (on the
 * organisation's calendar, inclusive).
 */
export const mailListQuery = filteredListQuery(
  {
    state: filterChoice("state", MAIL_STATES),
    recipient: filterText("recipient", 254).describe("A user id, or part of the recipient's name or email"),
    template: filterChoice("template", MAIL_TEMPLATES),
  },
  { from: "First day queued, YYYY-MM-DD (organisation's calendar)", to: "Last day queued, YYYY-MM-DD (organisation's calendar)" },
);
/** The boxes of the Mail page's filter form. */
export const MAIL_FILTERS = ["state", "recipient", "template", "from", "to"] as const;
export type MailListQuery = z.infer<typeof mailListQuery>;

/** The Mail page's "Send again" button. */
export const mailResendSchema = z.object({
  intent: z.literal("resend", { message: "Unknown action" }),
  id: z.string({ message: "Unknown message" }).uuid("Unknown message"),
});
