import type { AssessmentStatus, EnrollmentStatus, Tier } from "#db/schema";
import { Badge, type BadgeTone } from "~/components/ui";
import { statusLabel, tierLabel } from "~/utils/format";

/** Same colours as the student portal, so a status reads the same everywhere. */
const TIER_TONES: Record<Tier, BadgeTone> = { tier_1: "amber", tier_2: "blue", tier_3: "navy" };
const ENROLLMENT_TONES: Record<EnrollmentStatus, BadgeTone> = {
  enrolled: "purple",
  in_progress: "yellow",
  completed: "green",
  withdrawn: "grey",
};
const ASSESSMENT_TONES: Record<AssessmentStatus, BadgeTone> = {
  passed: "green",
  failed: "red",
  in_progress: "blue",
  resubmission: "amber",
};

export function TierBadge({ tier }: { tier: Tier }) {
  return <Badge tone={TIER_TONES[tier] ?? "grey"} className="whitespace-nowrap">{tierLabel(tier)}</Badge>;
}

export function EnrollmentStatusBadge({ status }: { status: EnrollmentStatus }) {
  return <Badge tone={ENROLLMENT_TONES[status] ?? "grey"} className="whitespace-nowrap">{statusLabel(status)}</Badge>;
}

/** The status of an assessment, or "Not assessed" when none is recorded. */
export function AssessmentStatusBadge({ status }: { status: AssessmentStatus | null }) {
  if (!status) return <Badge tone="grey" className="whitespace-nowrap">Not assessed</Badge>;
  return <Badge tone={ASSESSMENT_TONES[status] ?? "grey"} className="whitespace-nowrap">{statusLabel(status)}</Badge>;
}
