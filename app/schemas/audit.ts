import type { z } from "zod";
import { AUDIT_ACTION_NAMES } from "~/rules/audit-actions";
import { filterChoice, filteredListQuery, filterText } from "./list-filters";

/**
 * The audit trail's filters, the same for /admin/audit, its CSV download and GET
 * /api/admin/audit: who (a user id or email, as actor or as the person concerned), what
 * (one action), about what (a subject id) and between which days (inclusive, on the
 * organisation's calendar: a day runs from its local midnight to the next).
 */
export const auditQuery = filteredListQuery(
  {
    person: filterText("person", 254).describe("A user id or email: entries they caused or that concern them"),
    action: filterChoice("action", AUDIT_ACTION_NAMES),
    subject: filterText("subject", 100).describe("The id of what the entry is about: a user, certificate or course id, or an AVETMISS year"),
  },
  {
    from: "First day, YYYY-MM-DD, on the RTO's calendar (Australia/Sydney by default)",
    to: "Last day, YYYY-MM-DD, on the RTO's calendar (Australia/Sydney by default)",
  },
);
export type AuditQuery = z.infer<typeof auditQuery>;
/** The boxes of the audit trail's filter form. */
export const AUDIT_FILTERS = ["person", "action", "subject", "from", "to"] as const;
