import type { AssessmentStatus, EnrollmentStatus, Tier } from "#db/schema";
import { Badge, type BadgeTone } from "~/components/ui";
import { statusLabel, tierLabel } from "~/utils/format";

/**
 * Tier and status badges, one set for every portal so a status reads (and looks) the same to a
 * student, a trainer and an administrator.
 */

/** The tier names of the admin dashboard's Tier Completion Breakdown. */
export const TIER_TITLES: Record<Tier, string> = {
  tier_1: "Tier 1 - Basic Operations",
  tier_2: "Tier 2 - Intermediate",
  tier_3: "Tier 3 - Advanced",
};

const TIER_TONES: Record<Tier, BadgeTone> = { tier_1: "amber", tier_2: "blue", tier_3: "navy" };
const STATUS_TONES: Record<EnrollmentStatus | AssessmentStatus, BadgeTone> = {
  enrolled: "purple",
  in_progress: "yellow",
  completed: "green",
  withdrawn: "grey",
  passed: "green",
  failed: "red",
  resubmission: "amber",
};

export function TierBadge({ tier }: { tier: Tier }) {
  return (
    <Badge tone={TIER_TONES[tier] ?? "grey"} className="shrink-0 whitespace-nowrap">
      {tierLabel(tier)}
    </Badge>
  );
}

/** An enrollment's or an assessment's status. */
export function StatusBadge({ status }: { status: EnrollmentStatus | AssessmentStatus }) {
  return (
    <Badge tone={STATUS_TONES[status] ?? "grey"} className="shrink-0 whitespace-nowrap">
      {statusLabel(status)}
    </Badge>
  );
}

/** The status of an assessment, or "Not assessed" when none is recorded. */
export function AssessmentStatusBadge({ status }: { status: AssessmentStatus | null }) {
  if (!status)
    return (
      <Badge tone="grey" className="whitespace-nowrap">
        Not assessed
      </Badge>
    );
  return <StatusBadge status={status} />;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? "green" : "red"}>{active ? "Active" : "Inactive"}</Badge>;
}
