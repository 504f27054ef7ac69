import type { Tier } from "#db/schema";

/**
 * The demo catalogue: real high-risk-work licence units (Safe Work Australia classes) taught
 * in three tiers. Hours and prices follow the marketing tiers: about 40 h / $1,200,
 * 60 h / $1,800 and 80 h / $2,500.
 */
export interface DemoCourse {
  key: string;
  unit_code: string;
  name: string;
  tier: Tier;
  duration_hours: number;
  /** the unit's title on the national register (training.gov.au), which NAT00060 reports */
  official_title: string;
  /** the unit's 6-digit field of education code (ASCED), as training.gov.au lists it */
  field_of_education: string;
  price: number;
  is_active: boolean;
  description: string;
  prerequisites: string[];
  learning_outcomes: string[];
  assessment_criteria: string[];
}

export const DEMO_COURSES: DemoCourse[] = [
  {
    key: "dogging",
    unit_code: "CPCCLDG3001",
    official_title: "Licence to perform dogging",
    name: "Licence to perform dogging (DG)",
    tier: "tier_1",
    duration_hours: 40,
    field_of_education: "040329",
    price: 1200,
    is_active: true,
    description:
      "Learn to select and inspect lifting gear, sling loads safely and direct a crane operator by hand signal and whistle, out of the operator's view. Leads to the DG high risk work licence.",
    prerequisites: ["General construction induction (White Card)", "Current photo identification", "Adequate English for workplace safety communication"],
    learning_outcomes: [
      "Plan a lift and assess the work area for hazards and exclusion zones",
      "Estimate load weights and centres of gravity",
      "Select, inspect and tag out-of-service lifting gear to AS 1418 and AS 4991",
      "Sling loads using correct hitches and working load limits",
      "Direct crane operations by hand signals, whistle and two-way radio",
      "Shut down the work area and store gear after the lift",
    ],
    assessment_criteria: [
      "Written assessment of load calculations and gear selection (pass mark 100% on critical questions)",
      "Practical assessment: sling and direct three different loads",
      "Hand and whistle signals demonstrated without error",
      "Pre-use inspection of slings, shackles and chains recorded",
    ],
  },
  {
    key: "rigging-basic",
    unit_code: "CPCCLRG3001",
    official_title: "Licence to perform rigging basic level",
    name: "Licence to perform rigging basic level (RB)",
    tier: "tier_1",
    duration_hours: 40,
    field_of_education: "040329",
    price: 1200,
    is_active: true,
    description:
      "The first rigging licence: structural steel erection, hoists, pre-cast concrete, safety nets and static lines, perimeter screens and cantilevered platforms, built on the dogging skills.",
    prerequisites: ["Licence to perform dogging (DG) or enrolled concurrently", "General construction induction (White Card)"],
    learning_outcomes: [
      "Erect structural steel and pre-cast concrete members safely",
      "Install and inspect safety nets and static lines",
      "Rig material hoists and personnel hoists",
      "Install perimeter safety screens and shutters",
      "Apply working load limits to rigging hardware",
    ],
    assessment_criteria: [
      "Written assessment on rigging hardware and load calculations",
      "Practical erection of a steel member with tag lines",
      "Installation and inspection of a static line system",
    ],
  },
  {
    key: "non-slewing",
    unit_code: "TLILIC0040",
    official_title: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)",
    name: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes) (CN)",
    tier: "tier_1",
    duration_hours: 36,
    field_of_education: "030717",
    price: 1150,
    is_active: true,
    description:
      "Operate a non-slewing mobile crane such as a Franna pick-and-carry crane: pre-start checks, load charts, travel with a load and safe shutdown on site.",
    prerequisites: ["Current driver licence (C class or above)", "Current photo identification"],
    learning_outcomes: [
      "Conduct pre-start and operational checks of the crane",
      "Read and apply the manufacturer's load chart",
      "Travel with a suspended load on level and sloping ground",
      "Shut down and secure the crane",
    ],
    assessment_criteria: [
      "Written assessment of load chart calculations",
      "Practical pick-and-carry task within the load chart",
      "Pre-start checklist completed without omission",
    ],
  },
  {
    key: "rigging-intermediate",
    unit_code: "CPCCLRG3002",
    official_title: "Licence to perform rigging intermediate level",
    name: "Licence to perform rigging intermediate level (RI)",
    tier: "tier_2",
    duration_hours: 60,
    field_of_education: "040329",
    price: 1800,
    is_active: true,
    description:
      "Intermediate rigging: cranes, conveyors, dredges and excavators, tilt slabs, hoists with jibs, and demolition, including multiple-crane lifts and flying foxes.",
    prerequisites: ["Licence to perform rigging basic level (RB)", "At least 6 months' logged rigging experience"],
    learning_outcomes: [
      "Rig and erect tilt-up panels with bracing",
      "Plan and perform two-crane (tandem) lifts",
      "Rig hoists with jibs and self-climbing hoists",
      "Erect and dismantle cantilevered crane loading platforms",
      "Rig for demolition of structures",
      "Install flying foxes and cableways",
    ],
    assessment_criteria: [
      "Written lift plan for a tandem lift including load sharing",
      "Practical tilt-panel rigging and bracing",
      "Inspection report of rigging hardware",
      "Oral questioning on demolition sequencing",
    ],
  },
  {
    key: "slewing-20t",
    unit_code: "TLILIC0041",
    official_title: "Licence to operate a slewing mobile crane (up to 20 tonnes)",
    name: "Licence to operate a slewing mobile crane (up to 20 tonnes) (C2)",
    tier: "tier_2",
    duration_hours: 60,
    field_of_education: "030717",
    price: 1800,
    is_active: true,
    description:
      "Set up and operate a slewing mobile crane up to 20 tonnes: outrigger setup and ground bearing, load charts by radius, slewing with a load and working near power lines.",
    prerequisites: ["Licence to perform dogging (DG)", "Current driver licence (C class or above)"],
    learning_outcomes: [
      "Assess ground conditions and set outriggers with pads",
      "Calculate capacity by radius and boom length",
      "Slew, luff and hoist a load smoothly within limits",
      "Maintain clearances from overhead power lines",
      "Respond to instrument warnings and emergencies",
    ],
    assessment_criteria: [
      "Written load chart and ground bearing calculations",
      "Practical lift at two radii with a dogman",
      "Emergency lowering procedure explained and demonstrated",
    ],
  },
  {
    key: "vehicle-loading",
    unit_code: "TLILIC0033",
    official_title: "Licence to operate a vehicle loading crane (capacity 10 metre tonnes and above)",
    name: "Licence to operate a vehicle loading crane (10 metre tonnes and above) (CV)",
    tier: "tier_2",
    duration_hours: 40,
    field_of_education: "030717",
    price: 1400,
    is_active: false,
    description:
      "Operate a truck-mounted knuckle-boom crane of 10 metre tonnes or more. Paused while the vehicle loading crane is replaced; new intakes will be announced.",
    prerequisites: ["Current driver licence (MR class or above)"],
    learning_outcomes: ["Set up the vehicle and stabilisers on site", "Operate the crane within its rated capacity", "Load and unload a vehicle safely"],
    assessment_criteria: ["Written assessment of rated capacity", "Practical load and unload task"],
  },
  {
    key: "rigging-advanced",
    unit_code: "CPCCLRG4001",
    official_title: "Licence to perform rigging advanced level",
    name: "Licence to perform rigging advanced level (RA)",
    tier: "tier_3",
    duration_hours: 80,
    field_of_education: "040329",
    price: 2500,
    is_active: true,
    description:
      "The highest rigging licence: gin poles and shear legs, flying foxes and cable ways, guyed derricks and structures, suspended scaffolds and fabricated hung scaffolds.",
    prerequisites: ["Licence to perform rigging intermediate level (RI)", "At least 12 months' logged intermediate rigging experience"],
    learning_outcomes: [
      "Erect and use gin poles and shear legs",
      "Rig guyed derricks and guyed structures",
      "Install suspended and hung scaffolds",
      "Plan complex lifts with engineered lift studies",
      "Supervise rigging crews and verify their work",
    ],
    assessment_criteria: [
      "Engineered lift study prepared and defended",
      "Practical erection of a gin pole with guys",
      "Suspended scaffold installation inspected against AS/NZS 1576",
      "Supervisory scenario assessed by two assessors",
    ],
  },
  {
    key: "tower-crane",
    unit_code: "CPCCLTC4001",
    official_title: "Licence to operate a tower crane",
    name: "Licence to operate a tower crane (CT)",
    tier: "tier_3",
    duration_hours: 80,
    field_of_education: "030717",
    price: 2500,
    is_active: true,
    description:
      "Operate hammerhead and luffing tower cranes from the cabin: wind limits, blind lifts with a dogman on radio, anti-collision zoning and end-of-shift weathervaning.",
    prerequisites: ["Licence to perform dogging (DG)", "Medical fitness for work at heights"],
    learning_outcomes: [
      "Carry out cabin pre-start checks and limit tests",
      "Operate within wind speed and load moment limits",
      "Perform blind lifts directed by radio",
      "Apply site zoning and anti-collision systems",
      "Place the crane in free slew at the end of the shift",
    ],
    assessment_criteria: [
      "Written assessment of load moment and wind limits",
      "Practical blind lift to a marked landing zone",
      "Limit and brake tests recorded on the log book",
    ],
  },
];

/**
 * A unit without a licence class, for the demo's recognition (docs/decisions/037): a credit
 * transfer, an RPL granted and one not granted can only be shown on a unit that licensing rules
 * do not keep for the licence assessment. Kept out of DEMO_COURSES so the cohort's random course
 * picks, and every figure they shape, stay as they are; the recognition seed adds it.
 */
export const DEMO_RECOGNITION_COURSE: DemoCourse = {
  key: "whs-construction",
  unit_code: "CPCCWHS2001",
  official_title: "Apply WHS requirements, policies and procedures in the construction industry",
  name: "Apply WHS requirements, policies and procedures in the construction industry",
  tier: "tier_1",
  duration_hours: 20,
  field_of_education: "061301",
  price: 350,
  is_active: true,
  description:
    "Work safely on a construction site under its WHS plan: identify hazards and report them, follow safe work method statements and permits, use PPE and respond to incidents and emergencies.",
  prerequisites: [],
  learning_outcomes: [
    "Identify WHS requirements, policies and procedures that apply on a construction site",
    "Identify hazards and apply risk controls, including safe work method statements",
    "Use personal protective equipment and report unsafe conditions",
    "Follow incident and emergency procedures",
  ],
  assessment_criteria: [
    "Written questions on WHS duties and site procedures",
    "Practical: complete a safe work method statement and a hazard report for a site task",
  ],
};

export interface DemoStudent {
  email: string;
  full_name: string;
  phone: string | null;
  is_active: boolean;
  months_ago: number;
  date_of_birth: string | null;
  address: string | null;
  /** AVETMISS sex code */
  sex: "M" | "F";
}

/** Other students of the demo organisation, joined over the past year. */
export const DEMO_STUDENTS: DemoStudent[] = [
  {
    email: "liam.oconnor@example.com",
    full_name: "Liam O'Connor",
    phone: "0412 345 678",
    is_active: true,
    months_ago: 11,
    date_of_birth: "1994-03-12",
    address: "14 Wharf St, Newcastle NSW 2300",
    sex: "M",
  },
  {
    email: "mia.nguyen@example.com",
    full_name: "Mia Nguyen",
    phone: "0423 456 789",
    is_active: true,
    months_ago: 10,
    date_of_birth: "1998-07-25",
    address: "3/22 Station Rd, Parramatta NSW 2150",
    sex: "F",
  },
  {
    email: "jack.williams@example.com",
    full_name: "Jack Williams",
    phone: null,
    is_active: true,
    months_ago: 9,
    date_of_birth: "1990-11-02",
    address: "88 Industrial Ave, Wollongong NSW 2500",
    sex: "M",
  },
  {
    email: "olivia.brown@example.com",
    full_name: "Olivia Brown",
    phone: "0434 567 890",
    is_active: true,
    months_ago: 8,
    date_of_birth: null,
    address: null,
    sex: "F",
  },
  {
    email: "noah.singh@example.com",
    full_name: "Noah Singh",
    phone: "0445 678 901",
    is_active: true,
    months_ago: 7,
    date_of_birth: "2001-01-19",
    address: "5 Crane Cl, Blacktown NSW 2148",
    sex: "M",
  },
  {
    email: "ava.kowalski@example.com",
    full_name: "Ava Kowalski",
    phone: "0456 789 012",
    is_active: true,
    months_ago: 6,
    date_of_birth: "1996-05-30",
    address: "27 Harbour Dr, Port Kembla NSW 2505",
    sex: "F",
  },
  {
    email: "ethan.papadopoulos@example.com",
    full_name: "Ethan Papadopoulos",
    phone: "0467 890 123",
    is_active: true,
    months_ago: 5,
    date_of_birth: "1988-09-14",
    address: "101 King St, Sydney NSW 2000",
    sex: "M",
  },
  {
    email: "chloe.tanaka@example.com",
    full_name: "Chloe Tanaka",
    phone: "0478 901 234",
    is_active: true,
    months_ago: 4,
    date_of_birth: "1999-12-08",
    address: "9 Gantry Way, Botany NSW 2019",
    sex: "F",
  },
  {
    email: "lucas.martin@example.com",
    full_name: "Lucas Martin",
    phone: "0489 012 345",
    is_active: false,
    months_ago: 4,
    date_of_birth: "1992-04-21",
    address: "60 Quarry Rd, Penrith NSW 2750",
    sex: "M",
  },
  {
    email: "isla.fraser@example.com",
    full_name: "Isla Fraser",
    phone: "0490 123 456",
    is_active: true,
    months_ago: 3,
    date_of_birth: "2000-08-17",
    address: "12 Dock St, Balmain NSW 2041",
    sex: "F",
  },
  {
    email: "mason.ali@example.com",
    full_name: "Mason Ali",
    phone: "0401 234 567",
    is_active: true,
    months_ago: 2,
    date_of_birth: "1995-02-03",
    address: "7 Rivet Pl, Smithfield NSW 2164",
    sex: "M",
  },
  {
    email: "zoe.robinson@example.com",
    full_name: "Zoe Robinson",
    phone: "0413 579 246",
    is_active: true,
    months_ago: 1,
    date_of_birth: "1997-10-26",
    address: "31 Hoist Ln, Gosford NSW 2250",
    sex: "F",
  },
  {
    email: "harry.campbell@example.com",
    full_name: "Harry Campbell",
    phone: "0424 680 135",
    is_active: true,
    months_ago: 0,
    date_of_birth: "2002-06-11",
    address: "2 Boom St, Liverpool NSW 2170",
    sex: "M",
  },
];

export const DEMO_PASSWORD = "password123";

/** The organisation's delivery locations; the first is every enrolment's default. */
export const DEMO_LOCATIONS = [
  { identifier: "NEWYARD", name: "Summit Training Yard, Mayfield West", suburb: "Mayfield West", postcode: "2304", state: "01", country: "1101" },
  { identifier: "SYDYARD", name: "Summit Training Yard, Wetherill Park", suburb: "Wetherill Park", postcode: "2164", state: "01", country: "1101" },
] as const;

/**
 * A demo learner's AVETMISS details: the street address parts read from their one-line
 * address ("3/22 Station Rd, Parramatta NSW 2150"), and typical answers for a crane and
 * rigging learner. A learner without an address has no address parts (the readiness list
 * then shows them).
 */
export function demoAvetmissDetails(options: { sex: "M" | "F"; address: string | null; priorEducation?: string[] }) {
  const match = options.address ? /^(?:(\d+)\/)?(\d+) (.+), (.+) NSW (\d{4})$/.exec(options.address) : null;
  return {
    sex: options.sex,
    address_unit: match?.[1] ?? null,
    address_street_number: match?.[2] ?? null,
    address_street_name: match?.[3] ?? null,
    suburb: match?.[4] ?? null,
    postcode: match?.[5] ?? null,
    state: match ? "01" : null,
    country_of_birth: "1101",
    language_at_home: "1201",
    indigenous_status: "4",
    labour_force_status: "01",
    highest_school_level: "10",
    at_school: "N",
    disability: "N",
    prior_education: options.priorEducation?.length ? "Y" : "N",
    prior_education_types: options.priorEducation?.length ? JSON.stringify(options.priorEducation) : null,
    survey_contact_status: "A",
  };
}
