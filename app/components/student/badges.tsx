import type { EnrollmentStatus, Tier } from "#db/schema";
import { Badge, type BadgeTone } from "~/components/ui";
import { statusLabel, tierLabel } from "~/utils/format";

const TIER_TONES: Record<Tier, BadgeTone> = { tier_1: "amber", tier_2: "blue", tier_3: "navy" };
const STATUS_TONES: Record<EnrollmentStatus, BadgeTone> = {
  enrolled: "purple",
  in_progress: "yellow",
  completed: "green",
  withdrawn: "grey",
};

export function TierBadge({ tier }: { tier: Tier }) {
  return <Badge tone={TIER_TONES[tier] ?? "grey"} className="shrink-0 whitespace-nowrap">{tierLabel(tier)}</Badge>;
}

export function EnrollmentStatusBadge({ status }: { status: EnrollmentStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? "grey"} className="shrink-0 whitespace-nowrap">{statusLabel(status)}</Badge>;
}
