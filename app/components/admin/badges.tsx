import type { AssessmentStatus, EnrollmentStatus, Tier } from "#db/schema";
import { Badge, type BadgeTone } from "~/components/ui";
import { statusLabel, tierLabel } from "~/utils/format";

/** The tier names of the admin dashboard's Tier Completion Breakdown (spec section 2). */
export const TIER_TITLES: Record<Tier, string> = {
  tier_1: "Tier 1 - Basic Operations",
  tier_2: "Tier 2 - Intermediate",
  tier_3: "Tier 3 - Advanced",
};

const TIER_TONES: Record<Tier, BadgeTone> = { tier_1: "blue", tier_2: "purple", tier_3: "navy" };

export function AdminTierBadge({ tier }: { tier: Tier }) {
  return <Badge tone={TIER_TONES[tier] ?? "grey"}>{tierLabel(tier)}</Badge>;
}

const STATUS_TONES: Record<string, BadgeTone> = {
  enrolled: "blue",
  in_progress: "yellow",
  completed: "green",
  withdrawn: "grey",
  passed: "green",
  failed: "red",
  resubmission: "amber",
};

export function AdminStatusBadge({ status }: { status: EnrollmentStatus | AssessmentStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? "blue"}>{statusLabel(status)}</Badge>;
}

export function ActiveBadge({ active }: { active: boolean }) {
  return <Badge tone={active ? "green" : "red"}>{active ? "Active" : "Inactive"}</Badge>;
}
