import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { avetmissShape } from "~/schemas/avetmiss-details";
import { COUNTRIES, LANGUAGES } from "~/schemas/avetmiss-codes";
import { postcodeFitsState } from "./checker";
import { buildNatFiles, type NatActivity, type NatClient, type NatCollection } from "./files";
import { PHONE_INVALID } from "~/schemas/avetmiss-phone";
import { profileSchema } from "~/schemas/profile";
import { studentPatchSchema } from "~/schemas/student";

/**
 * The checker against an independent reading of the files. The layouts below are typed from
 * the national standard's tables (start, width), not imported from the writer, and the rules
 * are written again here from NCVER's validation rules (docs/decisions/009-avetmiss-report.md), so a writer or checker that drifts from
 * either shows up here.
 */
const LAYOUT: Record<string, Array<[field: string, start: number, width: number]>> = {
  NAT00020: [
    ["toid", 1, 10],
    ["location", 11, 10],
    ["name", 21, 100],
    ["postcode", 121, 4],
    ["state", 125, 2],
    ["suburb", 127, 50],
    ["country", 177, 4],
  ],
  NAT00060: [
    ["subject", 1, 12],
    ["name", 13, 100],
    ["foe", 113, 6],
    ["vet", 119, 1],
    ["hours", 120, 4],
  ],
  NAT00080: [
    ["client", 1, 10],
    ["nameForEncryption", 11, 60],
    ["school", 71, 2],
    ["sex", 73, 1],
    ["dob", 74, 8],
    ["postcode", 82, 4],
    ["indigenous", 86, 1],
    ["language", 87, 4],
    ["labour", 91, 2],
    ["country", 93, 4],
    ["disability", 97, 1],
    ["prior", 98, 1],
    ["atSchool", 99, 1],
    ["suburb", 100, 50],
    ["usi", 150, 10],
    ["state", 160, 2],
    ["building", 162, 50],
    ["unit", 212, 30],
    ["streetNumber", 242, 15],
    ["streetName", 257, 70],
    ["survey", 327, 1],
  ],
  NAT00085: [
    ["client", 1, 10],
    ["title", 11, 4],
    ["given", 15, 40],
    ["family", 55, 40],
    ["building", 95, 50],
    ["unit", 145, 30],
    ["streetNumber", 175, 15],
    ["streetName", 190, 70],
    ["box", 260, 22],
    ["suburb", 282, 50],
    ["postcode", 332, 4],
    ["state", 336, 2],
    ["home", 338, 20],
    ["work", 358, 20],
    ["mobile", 378, 20],
    ["email", 398, 80],
    ["email2", 478, 80],
  ],
  NAT00120: [
    ["toid", 1, 10],
    ["location", 11, 10],
    ["client", 21, 10],
    ["subject", 31, 12],
    ["program", 43, 10],
    ["start", 53, 8],
    ["end", 61, 8],
    ["mode", 69, 3],
    ["outcome", 72, 2],
    ["funding", 74, 2],
    ["commencing", 76, 1],
    ["studyReason", 97, 2],
    ["vetInSchools", 99, 1],
    ["predominant", 158, 1],
  ],
};
const WIDTH: Record<string, number> = { NAT00020: 180, NAT00060: 123, NAT00080: 347, NAT00085: 557, NAT00120: 158 };

function parse(file: string, text: string): Array<Record<string, string>> {
  expect(text === "" || text.endsWith("\r\n"), file).toBe(true);
  return text
    .split("\r\n")
    .slice(0, -1)
    .map((line) => {
      expect(line, file).toHaveLength(WIDTH[file]!);
      return Object.fromEntries(LAYOUT[file]!.map(([f, start, width]) => [f, line.slice(start - 1, start - 1 + width).trim()]));
    });
}

/** DDMMYYYY as YYYY-MM-DD. */
const iso = (d: string) => `${d.slice(4)}-${d.slice(2, 4)}-${d.slice(0, 2)}`;
const COUNTRY = new Set(COUNTRIES.map((c) => c.code));
const LANGUAGE = new Set(LANGUAGES.map((c) => c.code));

/** What section 10a says of one parsed record: the rules it breaks (empty when it passes). */
function breaks(file: string, r: Record<string, string>, year: number, today: string): string[] {
  const out: string[] = [];
  const must = (ok: boolean, rule: string) => (ok ? null : out.push(rule));
  if (file === "NAT00080" || file === "NAT00085") {
    for (const f of ["client", "suburb", "postcode", "state", "streetName"]) must(r[f] !== "", `${f} blank`);
    must(postcodeFitsState(r.postcode!, r.state!), "postcode/state");
  }
  if (file === "NAT00080") {
    for (const f of ["nameForEncryption", "dob", "usi", "survey", "streetNumber"]) must(r[f] !== "", `${f} blank`);
    must(r.dob !== "@@@@@@@@", "no date of birth");
    must(r.postcode !== "@@@@", "no postcode");
    must(r.country === "@@@@" || COUNTRY.has(r.country!), "country code");
    must(r.language === "@@@@" || LANGUAGE.has(r.language!), "language code");
    must(/^[^,]+, \S/.test(r.nameForEncryption!), "name for encryption");
  }
  if (file === "NAT00085") {
    // Australian: ten digits; abroad (only for an overseas address): 0011 and an E.164 number
    const overseas = r.postcode === "OSPC" || r.state === "99";
    for (const f of ["home", "work", "mobile"]) must(r[f] === "" || /^0\d{9}$/.test(r[f]!) || (overseas && /^0011[1-9]\d{6,14}$/.test(r[f]!)), `${f} phone`);
  }
  if (file === "NAT00020") {
    for (const f of ["postcode", "state", "suburb"]) must(r[f] !== "", `${f} blank`);
    must(COUNTRY.has(r.country!), "country code");
  }
  if (file === "NAT00060") must(r.name !== "" && /^\d{6}$/.test(r.foe!), "title and field of education");
  if (file === "NAT00120") {
    const start = iso(r.start!);
    const end = iso(r.end!);
    must(r.location !== "", "location blank");
    must(end >= start, "end before start");
    if (r.outcome === "70") must(end > `${year}-12-31`, "70 ends within the year");
    // not started: its planned start is still ahead (today or later)
    if (r.outcome === "85") must(start >= today, "85 whose planned start has passed");
    if (!["70", "85"].includes(r.outcome!)) must(end <= `${year}-12-31`, "final outcome ending after the year");
    must(end >= `${year}-01-01`, "ended before the year");
    if (["20", "30", "40"].includes(r.outcome!)) must(end <= today, "finished in the future");
  }
  return out;
}

const KEY_FIELDS: Record<string, (r: Record<string, string>) => string> = {
  NAT00020: (r) => r.location!,
  NAT00060: (r) => r.subject!,
  NAT00080: (r) => r.client!,
  NAT00085: (r) => r.client!,
  NAT00120: (r) => `${r.client} ${r.subject}`,
};

/** Every record either passes every rule or is on the readiness list; never neither. */
function expectEveryRecordPassesOrIsListed(c: NatCollection, today: string) {
  const { files, issues } = buildNatFiles(c, today);
  const listed = new Set(issues.map((i) => `${i.file}|${i.key}`));
  for (const file of Object.keys(LAYOUT)) {
    for (const r of parse(file, files[file as keyof typeof files])) {
      const broken = breaks(file, r, c.year, today);
      if (broken.length)
        expect(listed.has(`${file}|${KEY_FIELDS[file]!(r)}`), `${file} ${KEY_FIELDS[file]!(r)} breaks ${broken.join(", ")} but is not listed`).toBe(true);
    }
  }
  return { files, issues };
}

const NONE = {
  phone: null,
  date_of_birth: null,
  usi: null,
  sex: null,
  address_building: null,
  address_unit: null,
  address_street_number: null,
  address_street_name: null,
  suburb: null,
  postcode: null,
  state: null,
  country_of_birth: null,
  language_at_home: null,
  indigenous_status: null,
  labour_force_status: null,
  highest_school_level: null,
  at_school: null,
  disability: null,
  disability_types: [] as string[],
  prior_education: null,
  prior_education_types: [] as string[],
  survey_contact_status: null,
};

const client = (n: number, name: string, extra: Partial<NatClient> = {}): NatClient => ({
  ...NONE,
  id: `C${n}`,
  student_number: `S${String(n).padStart(6, "0")}`,
  full_name: name,
  email: `c${n}@example.com`,
  date_of_birth: "1990-01-01",
  usi: "2GF2UGXXV8",
  postcode: "2304",
  ...extra,
});

const activity = (id: string, clientId: string, status: NatActivity["status"], start: string, end: string, extra: Partial<NatActivity> = {}): NatActivity => ({
  enrollment_id: id,
  client_id: clientId,
  unit_id: "U1",
  location_id: "L1",
  status,
  latest_assessment_status: null,
  enrollment_date: `${start}T08:00:00.000Z`,
  planned_start_date: start,
  planned_end_date: end,
  completion_date: null,
  withdrawn_at: null,
  ...extra,
});

/**
 * A complete past year: every outcome, a learner with a single name, one living overseas, one
 * who gave no details beyond what reporting needs (name, date of birth, postcode, USI).
 */
const COMPLETE: NatCollection = {
  year: 2025,
  organisation: { code: "90210", name: "Fixture Cranes Pty Ltd" },
  locations: [{ id: "L1", identifier: "YARD1", name: "Fixture Yard", suburb: "Mayfield West", postcode: "2304", state: "01", country: "1101" }],
  units: [
    {
      id: "U1",
      code: "TLILIC0040",
      official_title: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)",
      field_of_education: "030717",
      vet_flag: true,
      nominal_hours: 36,
    },
  ],
  clients: [
    client(1, "Jordan Lee Mitchell", {
      sex: "M",
      phone: "+61 412 345 678",
      address_street_number: "42",
      address_street_name: "Harbour Rd",
      suburb: "Newcastle",
      state: "01",
      postcode: "2300",
      country_of_birth: "1101",
      language_at_home: "1201",
      indigenous_status: "4",
      labour_force_status: "01",
      highest_school_level: "12",
      at_school: "N",
      disability: "N",
      prior_education: "N",
      survey_contact_status: "A",
    }),
    client(2, "Madonna", { phone: "02 4960 1234", suburb: "Canberra", postcode: "2600", state: "08" }),
    client(3, "Aroha Ngata", {
      postcode: "OSPC",
      state: "99",
      suburb: "Auckland",
      country_of_birth: "1201",
      language_at_home: "9304",
      usi: "INTOFF",
      phone: "+64 9 300 1234",
    }),
    client(4, "Sam Nobody"),
  ],
  activities: [
    activity("A1", "C1", "completed", "2025-03-03", "2025-03-08", { completion_date: "2025-03-07T09:00:00.000Z", latest_assessment_status: "passed" }),
    activity("A2", "C2", "withdrawn", "2025-04-01", "2025-04-06", { withdrawn_at: "2025-04-03T10:00:00.000Z", latest_assessment_status: "failed" }),
    activity("A3", "C3", "withdrawn", "2025-05-01", "2025-05-06", { withdrawn_at: "2025-05-02T10:00:00.000Z" }),
    activity("A4", "C4", "in_progress", "2025-11-20", "2026-01-20"),
    activity("A5", "C1", "enrolled", "2026-03-02", "2026-03-07"),
  ],
  programs: [],
  completions: [],
};

describe("a complete past year", () => {
  const today = "2026-02-10";
  const { files, issues } = expectEveryRecordPassesOrIsListed(COMPLETE, today);

  it("has nothing on the readiness list", () => {
    expect(issues).toEqual([]);
  });

  it("puts every field where the layout says", () => {
    const clients = parse("NAT00080", files.NAT00080);
    expect(clients.map((r) => [r.client, r.nameForEncryption, r.postcode, r.state, r.survey])).toEqual([
      ["S000001", "Mitchell, Jordan Lee", "2300", "01", "A"],
      ["S000002", "Madonna, Madonna", "2600", "08", "A"],
      ["S000003", "Ngata, Aroha", "OSPC", "99", "O"],
      ["S000004", "Nobody, Sam", "2304", "01", "A"],
    ]);
    const nobody = clients[3]!;
    expect([nobody.sex, nobody.school, nobody.indigenous, nobody.language, nobody.country, nobody.suburb, nobody.streetNumber, nobody.streetName]).toEqual([
      "@",
      "@@",
      "@",
      "@@@@",
      "@@@@",
      "NOT SPECIFIED",
      "NOT SPECIFIED",
      "NOT SPECIFIED",
    ]);
    expect(clients[2]!.usi).toBe("INTOFF");
    const contacts = parse("NAT00085", files.NAT00085);
    expect(contacts.map((r) => [r.given, r.family, r.home, r.mobile])).toEqual([
      ["Jordan", "Mitchell", "", "0412345678"],
      ["Madonna", "Madonna", "0249601234", ""],
      // a number abroad, for a learner living overseas: dialled from Australia, digits only
      ["Aroha", "Ngata", "00116493001234", ""],
      ["Sam", "Nobody", "", ""],
    ]);
    expect(parse("NAT00060", files.NAT00060)).toEqual([
      { subject: "TLILIC0040", name: "Licence to operate a non-slewing mobile crane (greater than 3 tonnes capacity)", foe: "030717", vet: "Y", hours: "0036" },
    ]);
    expect(parse("NAT00020", files.NAT00020)[0]).toMatchObject({ location: "YARD1", postcode: "2304", state: "01", suburb: "Mayfield West", country: "1101" });
    expect(
      parse("NAT00120", files.NAT00120).map((r) => [r.client, r.start, r.end, r.outcome, r.mode, r.funding, r.commencing, r.studyReason, r.predominant]),
    ).toEqual([
      ["S000001", "03032025", "07032025", "20", "YNN", "20", "8", "@@", "I"],
      ["S000002", "01042025", "03042025", "30", "YNN", "20", "8", "@@", "I"],
      ["S000003", "01052025", "02052025", "40", "YNN", "20", "8", "@@", "I"],
      ["S000004", "20112025", "20012026", "70", "YNN", "20", "8", "@@", "I"],
      ["S000001", "02032026", "07032026", "85", "YNN", "20", "8", "@@", "I"],
    ]);
  });
});

describe("edge data the validator refuses is on the list", () => {
  const today = "2026-02-10";
  const check = (c: Partial<NatClient>) =>
    buildNatFiles({ ...COMPLETE, clients: [client(1, "Edge Case", c)], activities: [COMPLETE.activities[0]!] }, today).issues.map(
      (i) => `${i.file} ${i.field}`,
    );

  it("a USI the learner gave that another person holds (kept aside for the office)", () => {
    const problems = (c: Partial<NatClient>) =>
      buildNatFiles({ ...COMPLETE, clients: [client(1, "Edge Case", c)], activities: [COMPLETE.activities[0]!] }, today).issues.map((i) => i.problem);
    expect(problems({ usi: null, usi_claimed: "2GF2UGXXV8" })).toEqual(expect.arrayContaining([expect.stringMatching(/recorded for another person/)]));
    expect(problems({ usi: "2GF2UGXXV8", usi_claimed: null })).toEqual([]);
  });

  it("postcode and state that disagree", () => {
    expect(check({ postcode: "OSPC", state: "01" })).toContain("NAT00080 State identifier");
    expect(check({ postcode: "2600", state: "01" })).toContain("NAT00080 State identifier");
    expect(check({ postcode: "2600", state: "08" })).toEqual([]);
  });

  it("a phone that is not ten digits; an international mobile is written as an Australian one", () => {
    expect(check({ phone: "4960 123" })).toContain("NAT00085 Telephone number [home]");
    expect(check({ phone: "61412345678" })).toEqual([]);
  });

  it("a number abroad passes for a learner living overseas, and is listed for one living in Australia", () => {
    const overseas = { postcode: "OSPC", state: "99", suburb: "Auckland", phone: "+64 21 123 4567" };
    const { files, issues } = buildNatFiles({ ...COMPLETE, clients: [client(1, "Aroha Ngata", overseas)], activities: [COMPLETE.activities[0]!] }, today);
    expect(issues).toEqual([]);
    expect(parse("NAT00085", files.NAT00085)[0]).toMatchObject({ home: "001164211234567", mobile: "" });
    expect(check({ ...overseas, phone: "0011 64 21 123 4567" })).toEqual([]);
    expect(check({ phone: "+64 21 123 4567" })).toEqual(["NAT00085 Telephone number [home]"]);
    expect(check({ ...overseas, phone: "+0 12" })).toEqual(["NAT00085 Telephone number [home]"]);
  });

  it("the profile and staff forms take what the report can carry, and say what they cannot", () => {
    const message = (v: unknown) => {
      const r = profileSchema.safeParse({ phone: v, address: "" });
      return r.success ? null : r.error.issues[0]!.message;
    };
    expect(message("+64 21 123 4567")).toBeNull();
    expect(message("+44 20 7946 0958")).toBeNull();
    expect(message("0412 345 678")).toBeNull();
    expect(message("+61 2 4960 1234")).toBeNull();
    expect(message("12345678")).toBe(PHONE_INVALID);
    expect(message("+0 1234 5678")).toBe(PHONE_INVALID);
    expect(message("call me")).toBe("Enter a valid phone number");
    expect(studentPatchSchema.safeParse({ phone: "+64 21 123 4567" }).success).toBe(true);
    expect(studentPatchSchema.safeParse({ phone: "4960 1234" }).error?.issues[0]?.message).toBe(PHONE_INVALID);
  });

  it("codes outside the ABS classifications, in the file and at input", () => {
    expect(check({ language_at_home: "9999" })).toContain("NAT00080 Language identifier");
    expect(check({ country_of_birth: "9999" })).toContain("NAT00080 Country identifier");
    expect(avetmissShape.language_at_home.safeParse("9999").success).toBe(false);
    expect(avetmissShape.country_of_birth.safeParse("9999").success).toBe(false);
    expect(avetmissShape.language_at_home.safeParse("7104").success).toBe(true);
  });

  it("outcomes whose dates do not fit", () => {
    const issues = buildNatFiles(
      {
        ...COMPLETE,
        activities: [activity("B1", "C4", "in_progress", "2025-10-01", "2025-10-06"), activity("B2", "C1", "enrolled", "2025-12-01", "2025-12-06")],
      },
      today,
    ).issues;
    expect(issues.map((i) => [i.key, i.field, i.href])).toEqual(
      [
        ["S000001 TLILIC0040", "Activity start date", "/admin/enrollments/B2"],
        ["S000004 TLILIC0040", "Activity end date", "/admin/enrollments/B1"],
      ]
        .sort((a, b) => (a[2]! < b[2]! ? 1 : -1))
        .reverse(),
    );
  });
});

describe("outcomes and their dates", () => {
  it("an 85 whose planned start has passed is listed; one planned to start later in the year, or in the next, is not", () => {
    const during = "2025-11-28";
    const issues = buildNatFiles(
      {
        ...COMPLETE,
        activities: [
          activity("N1", "C1", "enrolled", "2025-11-20", "2025-11-25"),
          activity("N2", "C2", "enrolled", "2025-12-10", "2025-12-15"),
          activity("N3", "C3", "enrolled", "2026-02-02", "2026-02-06"),
          activity("N4", "C4", "enrolled", during, "2025-12-03"),
        ],
      },
      during,
    ).issues;
    expect(issues.map((i) => [i.href, i.field, i.problem.split(":")[0]])).toEqual([
      ["/admin/enrollments/N1", "Activity start date", "Not started, but its planned start has passed"],
    ]);
  });

  it("after the year, an 85 whose planned start fell in it is listed", () => {
    const issues = buildNatFiles({ ...COMPLETE, activities: [activity("N2", "C2", "enrolled", "2025-12-10", "2025-12-15")] }, "2026-02-10").issues;
    expect(issues.map((i) => [i.href, i.field])).toEqual([["/admin/enrollments/N2", "Activity start date"]]);
  });

  it("a record ending after the year without 70, or before the year, is listed", () => {
    // completed before its planned start (the plan is wrong): a final outcome dated after the year
    const late = activity("F1", "C1", "completed", "2026-01-12", "2026-01-16", {
      completion_date: "2025-12-20T01:00:00.000Z",
      latest_assessment_status: "passed",
    });
    const early = activity("F2", "C2", "completed", "2024-06-03", "2024-06-07", {
      completion_date: "2024-06-07T01:00:00.000Z",
      latest_assessment_status: "passed",
    });
    const issues = buildNatFiles({ ...COMPLETE, activities: [late, early] }, "2026-02-10").issues;
    expect(issues.map((i) => [i.href, i.field, i.problem.split(":")[0]])).toEqual([
      ["/admin/enrollments/F2", "Activity end date", "Ended before the collection year"],
      ["/admin/enrollments/F1", "Activity end date", "Ends after the collection year with a final outcome"],
    ]);
  });
});

describe("every record the writers emit passes every rule or is on the readiness list", () => {
  const date = (from: number, to: number) =>
    fc.integer({ min: from, max: to }).map((d) => new Date(Date.UTC(2024, 0, 1) + d * 864e5).toISOString().slice(0, 10));
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
  const anyClient = fc.record({
    name: fc.constantFrom("Jordan Mitchell", "Madonna", "  ", "Zoë Ångström", "李 明", "Ana María de la Cruz"),
    dob: maybe(fc.constant("1990-05-06")),
    usi: maybe(fc.constantFrom("2GF2UGXXV8", "INDIV", "bad-usi")),
    postcode: maybe(fc.constantFrom("2304", "2600", "0800", "OSPC", "0000", "9999")),
    state: maybe(fc.constantFrom("01", "02", "07", "08", "09", "99")),
    phone: maybe(fc.constantFrom("0412 345 678", "61412345678", "+61 2 4960 1234", "4960 1234", "123")),
    country: maybe(fc.constantFrom("1101", "1201", "9999", "0000")),
    language: maybe(fc.constantFrom("1201", "7104", "9999")),
    suburb: maybe(fc.constantFrom("Newcastle", "x".repeat(60))),
  });
  const anyActivity = fc.record({
    status: fc.constantFrom("enrolled", "in_progress", "completed", "withdrawn") as fc.Arbitrary<NatActivity["status"]>,
    start: date(300, 800),
    length: fc.integer({ min: -5, max: 400 }),
    finishedAfter: fc.integer({ min: -10, max: 400 }),
    failed: fc.boolean(),
  });

  it("holds for generated learners and enrolments", () => {
    fc.assert(
      fc.property(
        fc.array(anyClient, { minLength: 1, maxLength: 5 }),
        fc.array(anyActivity, { minLength: 1, maxLength: 8 }),
        date(500, 1100),
        (cs, as, today) => {
          const clients = cs.map((c, i) =>
            client(i + 1, c.name, {
              date_of_birth: c.dob,
              usi: c.usi,
              postcode: c.postcode,
              state: c.state,
              phone: c.phone,
              country_of_birth: c.country,
              language_at_home: c.language,
              suburb: c.suburb,
            }),
          );
          const add = (d: string, n: number) => new Date(Date.parse(d) + n * 864e5).toISOString();
          const activities = as.map((a, i) =>
            activity(`E${i}`, clients[i % clients.length]!.id, a.status, a.start, add(a.start, a.length).slice(0, 10), {
              latest_assessment_status: a.failed ? "failed" : "passed",
              completion_date: a.status === "completed" ? add(a.start, a.finishedAfter) : null,
              withdrawn_at: a.status === "withdrawn" ? add(a.start, a.finishedAfter) : null,
            }),
          );
          expectEveryRecordPassesOrIsListed({ ...COMPLETE, year: 2025, clients, activities }, today);
        },
      ),
      { numRuns: 300 },
    );
  });
});
