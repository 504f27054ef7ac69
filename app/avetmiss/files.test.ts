import { describe, expect, it } from "vitest";
import { defaultPlannedDates } from "~/rules/enrollment-rules";
import { activityDates, buildNatFiles, nameForEncryption, outcomeOf, readinessPage, type NatActivity, type NatCollection, type ReadinessIssue } from "./files";

/** A run of spaces: only the long blank stretches are written this way; every value is spelled out. */
const b = (n: number) => " ".repeat(n);
const file = (...lines: string[]) => lines.map((l) => `${l}\r\n`).join("");

/** A client who stated nothing. */
const NOTHING_STATED = {
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

/** A small organisation whose year is known field by field. */
const FIXTURE: NatCollection = {
  year: 2025,
  organisation: { code: "90210", name: "Fixture Cranes Pty Ltd" },
  locations: [
    { id: "L1", identifier: "YARD1", name: "Fixture Yard", suburb: "Mayfield West", postcode: "2304", state: "01", country: "1101" },
    { id: "L2", identifier: "UNUSED", name: "Never used", suburb: null, postcode: null, state: null, country: "1101" },
  ],
  units: [
    {
      id: "U1",
      code: "TLILIC0040",
      official_title: "Licence to operate a non-slewing mobile crane",
      field_of_education: "030717",
      vet_flag: true,
      nominal_hours: 36,
    },
    { id: "U2", code: "CPCCLDG3001", official_title: "Licence to perform dogging", field_of_education: null, vet_flag: true, nominal_hours: 40 },
  ],
  clients: [
    { ...NOTHING_STATED, id: "C2", student_number: "S000002", full_name: "Mia Nguyen", email: "mia@example.com", phone: "02 4960 1234" },
    {
      id: "C1",
      student_number: "S000001",
      full_name: "José Álvarez García",
      email: "jose@example.com",
      phone: "0412 345 678",
      date_of_birth: "1990-05-06",
      usi: "ABCDEFGH2J",
      sex: "M",
      address_building: null,
      address_unit: "3",
      address_street_number: "22",
      address_street_name: "Station Rd",
      suburb: "Parramatta",
      postcode: "2150",
      state: "01",
      country_of_birth: "1101",
      language_at_home: "1201",
      indigenous_status: "4",
      labour_force_status: "01",
      highest_school_level: "12",
      at_school: "N",
      disability: "Y",
      disability_types: ["12", "17"],
      prior_education: "Y",
      prior_education_types: ["514"],
      survey_contact_status: "A",
    },
    // no activity this year: not reported
    { ...emptyClient("C3", "S000003", "Not This Year") },
  ],
  activities: [
    activity("A3", "C2", "U2", "in_progress", "2025-11-20T00:00:00.000Z"),
    activity("A1", "C1", "U1", "completed", "2025-03-03T00:00:00.000Z", { completion_date: "2025-03-10T09:00:00.000Z", latest_assessment_status: "passed" }),
    activity("A2", "C2", "U1", "withdrawn", "2025-04-01T00:00:00.000Z", { withdrawn_at: "2025-04-15T10:00:00.000Z", latest_assessment_status: "failed" }),
    activity("A4", "C1", "U2", "enrolled", "2025-12-01T00:00:00.000Z"),
  ],
  programs: [],
  completions: [],
};

function emptyClient(id: string, number: string, name: string) {
  return { ...NOTHING_STATED, id, student_number: number, full_name: name, email: `${id}@example.com` };
}

function activity(id: string, client: string, unit: string, status: NatActivity["status"], start: string, extra: Partial<NatActivity> = {}): NatActivity {
  return {
    enrollment_id: id,
    client_id: client,
    unit_id: unit,
    location_id: "L1",
    status,
    latest_assessment_status: null,
    enrollment_date: start,
    // planned as the migration plans an enrolment with no class: five days for these units
    planned_start_date: start.slice(0, 10),
    planned_end_date: defaultPlannedDates(start, 36).end,
    completion_date: null,
    withdrawn_at: null,
    ...extra,
  };
}

describe("the fixture organisation's NAT files, written out by hand", () => {
  // "today" fixed after the year, as when the report is lodged
  const { files, counts, issues } = buildNatFiles(FIXTURE, "2026-02-10");

  it("NAT00010: the organisation, state-only block blank", () => {
    expect(files.NAT00010).toBe(file("90210     " + "Fixture Cranes Pty Ltd" + b(78) + b(338)));
  });

  it("NAT00020: only the locations the year's activity used", () => {
    expect(files.NAT00020).toBe(file("90210     " + "YARD1     " + "Fixture Yard" + b(88) + "2304" + "01" + "Mayfield West" + b(37) + "1101"));
  });

  it("NAT00030 and NAT00130: empty while no qualification is delivered", () => {
    expect(files.NAT00030).toBe("");
    expect(files.NAT00130).toBe("");
  });

  it("NAT00060: each unit with its field of education, VET flag and nominal hours", () => {
    expect(files.NAT00060).toBe(
      file(
        "TLILIC0040  " + "Licence to operate a non-slewing mobile crane" + b(55) + "030717" + "Y" + "0036",
        "CPCCLDG3001 " + "Licence to perform dogging" + b(74) + b(6) + "Y" + "0040",
      ),
    );
  });

  it("NAT00080: each client once, names transliterated, not stated as @", () => {
    expect(files.NAT00080).toBe(
      file(
        "S000001   " +
          "Garcia, Jose Alvarez" +
          b(40) +
          "12" +
          "M" +
          "06051990" +
          "2150" +
          "4" +
          "1201" +
          "01" +
          "1101" +
          "Y" +
          "Y" +
          "N" +
          "Parramatta" +
          b(40) +
          "ABCDEFGH2J" +
          "01" +
          b(50) +
          "3" +
          b(29) +
          "22" +
          b(13) +
          "Station Rd" +
          b(60) +
          "A" +
          b(20),
        "S000002   " +
          "Nguyen, Mia" +
          b(49) +
          "@@" +
          "@" +
          "@@@@@@@@" +
          "@@@@" +
          "@" +
          "@@@@" +
          "@@" +
          "@@@@" +
          "@" +
          "@" +
          "@" +
          // not stated: suburb and street as NOT SPECIFIED, state @@, survey status available (A)
          "NOT SPECIFIED" +
          b(37) +
          b(10) +
          "@@" +
          b(50) +
          b(30) +
          "NOT SPECIFIED" +
          b(2) +
          "NOT SPECIFIED" +
          b(57) +
          "A" +
          b(20),
      ),
    );
  });

  it("NAT00085: a contact record for every client", () => {
    expect(files.NAT00085).toBe(
      file(
        "S000001   " +
          b(4) +
          "Jose" +
          b(36) +
          "Garcia" +
          b(34) +
          b(50) +
          "3" +
          b(29) +
          "22" +
          b(13) +
          "Station Rd" +
          b(60) +
          b(22) +
          "Parramatta" +
          b(40) +
          "2150" +
          "01" +
          b(20) +
          b(20) +
          "0412345678" +
          b(10) +
          "jose@example.com" +
          b(64) +
          b(80),
        "S000002   " +
          b(4) +
          "Mia" +
          b(37) +
          "Nguyen" +
          b(34) +
          b(50) +
          b(30) +
          "NOT SPECIFIED" +
          b(2) +
          "NOT SPECIFIED" +
          b(57) +
          b(22) +
          "NOT SPECIFIED" +
          b(37) +
          "@@@@" +
          "@@" +
          "0249601234" +
          b(10) +
          b(20) +
          b(20) +
          "mia@example.com" +
          b(65) +
          b(80),
      ),
    );
  });

  it("NAT00090 and NAT00100: only for the client who answered Yes", () => {
    expect(files.NAT00090).toBe(file("S000001   12", "S000001   17"));
    expect(files.NAT00100).toBe(file("S000001   514"));
  });

  it("NAT00120: every enrolment, unit-only, with its outcome and dates", () => {
    const tail = "20" + "8" + b(10) + b(10) + "@@" + "N" + b(10) + b(2) + b(46) + "I";
    expect(files.NAT00120).toBe(
      file(
        "90210     YARD1     S000001   TLILIC0040  " + b(10) + "03032025" + "10032025" + "YNN" + "20" + tail,
        "90210     YARD1     S000002   TLILIC0040  " + b(10) + "01042025" + "15042025" + "YNN" + "30" + tail,
        "90210     YARD1     S000002   CPCCLDG3001 " + b(10) + "20112025" + "25112025" + "YNN" + "70" + tail,
        "90210     YARD1     S000001   CPCCLDG3001 " + b(10) + "01122025" + "06122025" + "YNN" + "85" + tail,
      ),
    );
  });

  it("counts the records and lists what NCVER would reject, with where to fix it", () => {
    expect(counts).toEqual({
      NAT00010: 1,
      NAT00020: 1,
      NAT00030: 0,
      NAT00060: 2,
      NAT00080: 2,
      NAT00085: 2,
      NAT00090: 2,
      NAT00100: 1,
      NAT00120: 4,
      NAT00130: 0,
    });
    const U2 = "/admin/courses/U2/edit";
    const C2 = "/admin/students/C2/edit";
    const mia = { record: "Mia Nguyen (S000002)", key: "S000002", href: C2 };
    expect(issues).toEqual([
      {
        file: "NAT00060",
        record: "Unit CPCCLDG3001",
        key: "CPCCLDG3001",
        field: "Subject field of education identifier",
        problem: "No field of education code",
        href: U2,
      },
      { file: "NAT00080", ...mia, field: "Date of birth", problem: "No date of birth" },
      { file: "NAT00080", ...mia, field: "Postcode", problem: "No postcode" },
      { file: "NAT00080", ...mia, field: "Unique student identifier", problem: "No USI" },
      {
        file: "NAT00120",
        record: "Mia Nguyen (S000002): CPCCLDG3001",
        key: "S000002 CPCCLDG3001",
        field: "Activity end date",
        problem: "Still in progress but planned to end within the year: record its outcome, or set the date it will really end",
        href: "/admin/enrollments/A3",
      },
      {
        file: "NAT00120",
        record: "José Álvarez García (S000001): CPCCLDG3001",
        key: "S000001 CPCCLDG3001",
        field: "Activity start date",
        problem: "Not started, but its planned start has passed: record that it started (or its outcome), or set the date it will really start",
        href: "/admin/enrollments/A4",
      },
    ]);
  });
});

describe("a fixture program (the writers stand ready for qualifications)", () => {
  it("NAT00030 and NAT00130 records", () => {
    const { files } = buildNatFiles({
      ...FIXTURE,
      programs: [{ identifier: "TLI31216", name: "Certificate III in Mobile Crane Operations", nominal_hours: 560 }],
      completions: [
        { program_identifier: "TLI31216", client_id: "C1", completed_on: "2025-06-30", parchment_issue_date: "2025-07-02", parchment_number: "SCR-2025-00042" },
      ],
    });
    expect(files.NAT00030).toBe(file("TLI31216  " + "Certificate III in Mobile Crane Operations" + b(58) + "0560" + b(16)));
    expect(files.NAT00130).toBe(file("90210     " + "TLI31216  " + "S000001   " + "30062025" + "Y" + "02072025" + "SCR-2025-00042" + b(11)));
  });
});

describe("a year with no activity", () => {
  it("gives the organisation's record and empty files", () => {
    const { files, counts, issues } = buildNatFiles({ ...FIXTURE, year: 2019, activities: [] });
    expect(counts.NAT00010).toBe(1);
    for (const name of ["NAT00020", "NAT00030", "NAT00060", "NAT00080", "NAT00085", "NAT00090", "NAT00100", "NAT00120", "NAT00130"] as const) {
      expect(files[name], name).toBe("");
    }
    expect(issues).toEqual([]);
  });
});

describe("outcome and activity rules", () => {
  const base = { latest_assessment_status: null, completion_date: null, withdrawn_at: null } as const;
  it("20 completed, 30 withdrawn after a failed final assessment, 40 otherwise withdrawn, 70 continuing, 85 not started", () => {
    expect(outcomeOf({ ...base, status: "completed", completion_date: "2025-05-01" }, 2025)).toBe("20");
    expect(outcomeOf({ ...base, status: "withdrawn", latest_assessment_status: "failed", withdrawn_at: "2025-05-01" }, 2025)).toBe("30");
    expect(outcomeOf({ ...base, status: "withdrawn", latest_assessment_status: "passed", withdrawn_at: "2025-05-01" }, 2025)).toBe("40");
    expect(outcomeOf({ ...base, status: "withdrawn", withdrawn_at: "2025-05-01" }, 2025)).toBe("40");
    expect(outcomeOf({ ...base, status: "in_progress" }, 2025)).toBe("70");
    expect(outcomeOf({ ...base, status: "enrolled" }, 2025)).toBe("85");
    // finished only after the collection year: still continuing in that year's report
    expect(outcomeOf({ ...base, status: "completed", completion_date: "2026-01-10" }, 2025)).toBe("70");
  });

  it("the end date is never before the start", () => {
    const a = activity("X", "C1", "U1", "completed", "2025-06-10T00:00:00.000Z", { completion_date: "2025-06-01T00:00:00.000Z" });
    expect(activityDates(a)).toEqual({ start: "2025-06-10", end: "2025-06-10" });
  });

  it("names for encryption are 'Family, Given names'", () => {
    expect(nameForEncryption("Jordan Lee Mitchell")).toBe("Mitchell, Jordan Lee");
    // a single name is both the family and the given name, as the standard asks
    expect(nameForEncryption("  Cher ")).toBe("Cher, Cher");
  });
});

describe("the readiness list as a page", () => {
  // three thousand students with two problems each, and one unit
  const issues: ReadinessIssue[] = [
    {
      file: "NAT00060",
      record: "Unit TLILIC0040",
      key: "TLILIC0040",
      field: "Subject field of education identifier",
      problem: "No field of education code",
      href: "/admin/courses/U/edit",
    },
    ...Array.from({ length: 3000 }, (_, i) => {
      const record = `Student ${i} (S${String(i).padStart(6, "0")})`;
      return [
        { file: "NAT00080" as const, record, key: record, field: "Date of birth", problem: "No date of birth", href: `/admin/students/${i}/edit` },
        { file: "NAT00080" as const, record, key: record, field: "Postcode", problem: "No postcode", href: `/admin/students/${i}/edit` },
      ];
    }).flat(),
  ];

  it("summarises by kind of problem, most common first, and shows one page of records", () => {
    const view = readinessPage(issues, { find: "", page: 1 });
    expect(view.total).toBe(6001);
    expect(view.groups).toEqual([
      { file: "NAT00080", problem: "No date of birth", count: 3000 },
      { file: "NAT00080", problem: "No postcode", count: 3000 },
      { file: "NAT00060", problem: "No field of education code", count: 1 },
    ]);
    expect(view.issues).toHaveLength(50);
    expect(view.issues[0]!.record).toBe("Unit TLILIC0040");
    expect(view.pageCount).toBe(121);
    expect(view.matching).toBe(6001);
  });

  it("finds a record by any part of its name or number, case aside", () => {
    const view = readinessPage(issues, { find: "s002999", page: 1 });
    expect(view.matching).toBe(2);
    expect(view.issues.map((i) => i.problem)).toEqual(["No date of birth", "No postcode"]);
    expect(readinessPage(issues, { find: "tlilic", page: 1 }).issues).toEqual([issues[0]]);
    expect(readinessPage(issues, { find: "nobody", page: 1 })).toMatchObject({ matching: 0, issues: [], page: 1, pageCount: 1 });
  });

  it("a page past the end shows the last page", () => {
    const view = readinessPage(issues, { find: "", page: 999 });
    expect(view.page).toBe(121);
    expect(view.issues.at(-1)).toEqual(issues.at(-1));
  });
});
