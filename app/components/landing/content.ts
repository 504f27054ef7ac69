/** The landing page's marketing copy: static, not read from the catalogue. */

export const STATS = [
  { value: "500+", label: "Students Trained" },
  { value: "95%", label: "Pass Rate" },
  { value: "15+", label: "Years Experience" },
  { value: "100%", label: "ASQA Compliant" },
] as const;

export const FEATURES = [
  {
    key: "tiers",
    title: "Three-Tier Certification",
    text: "A clear path from your first dogging ticket to advanced rigging and tower cranes, each tier building on the last.",
  },
  {
    key: "trainers",
    title: "Expert Trainers",
    text: "Learn from licensed riggers and crane operators with decades on major construction, port and mining sites.",
  },
  {
    key: "learning",
    title: "Comprehensive Learning",
    text: "Classroom theory, load calculations and hours of supervised practical work on real cranes and real gear.",
  },
  {
    key: "compliance",
    title: "ASQA Compliance",
    text: "Nationally recognised training that meets the standards of ASQA, the national vocational training regulator.",
  },
] as const;

export interface MarketingTier {
  tier: "tier_1" | "tier_2" | "tier_3";
  label: string;
  title: string;
  hours: number;
  price: string;
  summary: string;
  features: string[];
  featured?: boolean;
}

export const MARKETING_TIERS: MarketingTier[] = [
  {
    tier: "tier_1",
    label: "Tier 1",
    title: "Basic Operations",
    hours: 40,
    price: "$1,200",
    summary: "Your entry into high-risk work: slinging, signalling and basic rigging.",
    features: [
      "Dogging (DG) and basic rigging (RB)",
      "Load estimation and slinging techniques",
      "Hand, whistle and radio signals",
      "Pre-use inspection of lifting gear",
    ],
  },
  {
    tier: "tier_2",
    label: "Tier 2",
    title: "Intermediate",
    hours: 60,
    price: "$1,800",
    summary: "Step up to cranes and complex rigging on live construction sites.",
    features: ["Intermediate rigging (RI)", "Slewing mobile cranes up to 20 tonnes (C2)", "Lift planning and site set-up", "Tilt-up panels and hoists"],
    featured: true,
  },
  {
    tier: "tier_3",
    label: "Tier 3",
    title: "Advanced",
    hours: 80,
    price: "$2,500",
    summary: "The top of the trade: tower cranes and advanced rigging.",
    features: ["Advanced rigging (RA)", "Tower crane operation (CT)", "Multi-crane and critical lifts", "Suspended scaffolds and gin poles"],
  },
];
