import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildNatFiles, type NatClient, type NatCollection } from "./files";
import { NAT_FILES, NAT_LAYOUTS, natDate, natFile, natRecord, toAscii, type NatFileName, type NatType } from "./nat-files";

/**
 * The ten layouts against the national standard's field tables, transcribed here on their
 * own: [start, end, length, type] of every field, in order, with the record width.
 */
const STANDARD: Record<NatFileName, { width: number; fields: Array<[number, number, number, NatType]> }> = {
  NAT00010: {
    width: 448,
    fields: [
      [1, 10, 10, "A"],
      [11, 110, 100, "A"],
      [111, 112, 2, "N"],
      [113, 162, 50, "A"],
      [163, 212, 50, "A"],
      [213, 262, 50, "A"],
      [263, 266, 4, "A"],
      [267, 268, 2, "A"],
      [269, 328, 60, "A"],
      [329, 348, 20, "A"],
      [349, 368, 20, "A"],
      [369, 448, 80, "A"],
    ],
  },
  NAT00020: {
    width: 180,
    fields: [
      [1, 10, 10, "A"],
      [11, 20, 10, "A"],
      [21, 120, 100, "A"],
      [121, 124, 4, "A"],
      [125, 126, 2, "A"],
      [127, 176, 50, "A"],
      [177, 180, 4, "A"],
    ],
  },
  NAT00030: {
    width: 130,
    fields: [
      [1, 10, 10, "A"],
      [11, 110, 100, "A"],
      [111, 114, 4, "N"],
      [115, 116, 2, "A"],
      [117, 119, 3, "A"],
      [120, 123, 4, "A"],
      [124, 129, 6, "A"],
      [130, 130, 1, "A"],
    ],
  },
  NAT00060: {
    width: 123,
    fields: [
      [1, 12, 12, "A"],
      [13, 112, 100, "A"],
      [113, 118, 6, "A"],
      [119, 119, 1, "A"],
      [120, 123, 4, "N"],
    ],
  },
  NAT00080: {
    width: 347,
    fields: [
      [1, 10, 10, "A"],
      [11, 70, 60, "A"],
      [71, 72, 2, "A"],
      [73, 73, 1, "A"],
      [74, 81, 8, "D"],
      [82, 85, 4, "A"],
      [86, 86, 1, "A"],
      [87, 90, 4, "A"],
      [91, 92, 2, "A"],
      [93, 96, 4, "A"],
      [97, 97, 1, "A"],
      [98, 98, 1, "A"],
      [99, 99, 1, "A"],
      [100, 149, 50, "A"],
      [150, 159, 10, "A"],
      [160, 161, 2, "A"],
      [162, 211, 50, "A"],
      [212, 241, 30, "A"],
      [242, 256, 15, "A"],
      [257, 326, 70, "A"],
      [327, 327, 1, "A"],
      [328, 338, 11, "A"],
      [339, 347, 9, "A"],
    ],
  },
  NAT00085: {
    width: 557,
    fields: [
      [1, 10, 10, "A"],
      [11, 14, 4, "A"],
      [15, 54, 40, "A"],
      [55, 94, 40, "A"],
      [95, 144, 50, "A"],
      [145, 174, 30, "A"],
      [175, 189, 15, "A"],
      [190, 259, 70, "A"],
      [260, 281, 22, "A"],
      [282, 331, 50, "A"],
      [332, 335, 4, "A"],
      [336, 337, 2, "A"],
      [338, 357, 20, "A"],
      [358, 377, 20, "A"],
      [378, 397, 20, "A"],
      [398, 477, 80, "A"],
      [478, 557, 80, "A"],
    ],
  },
  NAT00090: {
    width: 12,
    fields: [
      [1, 10, 10, "A"],
      [11, 12, 2, "A"],
    ],
  },
  NAT00100: {
    width: 13,
    fields: [
      [1, 10, 10, "A"],
      [11, 13, 3, "A"],
    ],
  },
  NAT00120: {
    width: 158,
    fields: [
      [1, 10, 10, "A"],
      [11, 20, 10, "A"],
      [21, 30, 10, "A"],
      [31, 42, 12, "A"],
      [43, 52, 10, "A"],
      [53, 60, 8, "D"],
      [61, 68, 8, "D"],
      [69, 71, 3, "A"],
      [72, 73, 2, "N"],
      [74, 75, 2, "A"],
      [76, 76, 1, "A"],
      [77, 86, 10, "A"],
      [87, 96, 10, "A"],
      [97, 98, 2, "A"],
      [99, 99, 1, "A"],
      [100, 109, 10, "A"],
      [110, 111, 2, "A"],
      [112, 114, 3, "A"],
      [115, 117, 3, "A"],
      [118, 122, 5, "N"],
      [123, 124, 2, "A"],
      [125, 136, 12, "A"],
      [137, 139, 3, "A"],
      [140, 143, 4, "N"],
      [144, 153, 10, "A"],
      [154, 157, 4, "N"],
      [158, 158, 1, "A"],
    ],
  },
  NAT00130: {
    width: 72,
    fields: [
      [1, 10, 10, "A"],
      [11, 20, 10, "A"],
      [21, 30, 10, "A"],
      [31, 38, 8, "D"],
      [39, 39, 1, "A"],
      [40, 47, 8, "D"],
      [48, 72, 25, "A"],
    ],
  },
};

/** A value of the right kind for a field, long enough to fill it. */
function sample(type: NatType, width: number, i: number): string | number {
  if (type === "N") return i % 10;
  if (type === "D") return "2025-03-07";
  return String.fromCharCode(65 + (i % 26)).repeat(Math.max(1, width - 1));
}

describe("each layout matches the standard's field table (golden records)", () => {
  for (const file of NAT_FILES) {
    it(`${file}: positions, widths and types; padding and justification of every field`, () => {
      const layout = NAT_LAYOUTS[file];
      const standard = STANDARD[file];
      expect(layout.width).toBe(standard.width);
      expect(layout.fields.map((f) => [f.start, f.start + f.width - 1, f.width, f.type])).toEqual(standard.fields);

      const values = Object.fromEntries(layout.fields.map((f, i) => [f.name, sample(f.type, f.width, i)]));
      const { line, problems } = natRecord(layout, values);
      expect(problems).toEqual([]);
      expect(line).toHaveLength(standard.width);
      expect(natFile([line, line])).toBe(`${line}\r\n${line}\r\n`);
      for (const [i, f] of layout.fields.entries()) {
        const cell = line.slice(f.start - 1, f.start - 1 + f.width);
        if (f.stateOnly) expect(cell, f.name).toBe(" ".repeat(f.width));
        else if (f.type === "N") expect(cell, f.name).toBe(String(i % 10).padStart(f.width, "0"));
        else if (f.type === "D") expect(cell, f.name).toBe("07032025");
        // left-justified, space-filled (a one-character field is all value)
        else expect(cell, f.name).toBe(String(sample("A", f.width, i)).padEnd(f.width, " "));
      }
      // nothing given: blank, or `@` where the standard allows "not stated"
      const empty = natRecord(layout, {}).line;
      for (const f of layout.fields) {
        expect(empty.slice(f.start - 1, f.start - 1 + f.width), f.name).toBe((f.notStated ? "@" : " ").repeat(f.width));
      }
    });
  }

  it("a layout's table names only its own fields", () => {
    expect(() => natRecord(NAT_LAYOUTS.NAT00090, { Postcode: "2000" })).toThrow(/has no field "Postcode"/);
  });
});

describe("values the fields cannot carry as given", () => {
  it("cuts where the standard allows it and reports the rest; the record keeps its width", () => {
    const long = "x".repeat(150);
    const cut = natRecord(NAT_LAYOUTS.NAT00060, { "Subject identifier": "TLILIC0040", "Subject name": long, "Nominal hours": 36 });
    expect(cut.problems).toEqual([]);
    expect(cut.line.slice(12, 112)).toBe("x".repeat(100));
    const reported = natRecord(NAT_LAYOUTS.NAT00080, { "Address street name": long });
    expect(reported.line).toHaveLength(347);
    expect(reported.problems).toEqual([{ field: "Address street name", message: "Address street name is longer than 70 characters" }]);
    const hours = natRecord(NAT_LAYOUTS.NAT00060, { "Nominal hours": 12345 });
    expect(hours.line.slice(119)).toBe("9999");
    expect(hours.problems[0]!.message).toMatch(/more than 4 digits/);
  });

  it("writes dates as DDMMYYYY from dates and instants", () => {
    expect(natDate("2025-12-01")).toBe("01122025");
    // an instant is dated on the organisation's calendar: 23:10 UTC on 28 February is 10:10 on 1 March in Sydney
    expect(natDate("2025-02-28T23:10:00.000Z")).toBe("01032025");
    expect(natDate("2025-02-28T09:10:00.000Z")).toBe("28022025");
    expect(natDate("not a date")).toBeNull();
  });
});

describe("ASCII spelling of names and addresses", () => {
  it("drops accents and spells letters that do not decompose, never losing a letter", () => {
    expect(toAscii("José Müller-Lüdenscheidt").text).toBe("Jose Muller-Ludenscheidt");
    expect(toAscii("Søren Ærøskøbing").text).toBe("Soren AEroskobing");
    expect(toAscii("Straße Łódź Œuvre ﬁnch").text).toBe("Strasse Lodz OEuvre finch");
    expect(toAscii("Zoë O\u2019Brien\nunit 3").text).toBe("Zoe O'Brien unit 3");
    expect(toAscii("Nguyễn Thị Đào").text).toBe("Nguyen Thi Dao");
    expect(toAscii("Plain").lossy).toBe(false);
  });

  it("writes printable ASCII as it is, runs of spaces folded, exactly as the full spelling does", () => {
    expect(toAscii("  Unit  3,   12 Smith St ")).toEqual({ text: " Unit 3, 12 Smith St ", lossy: false });
    // a trailing combining accent sends the same text through the full spelling, which drops it
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x7e]{0,40}$/), (text) => {
        expect(toAscii(text)).toEqual(toAscii(`${text}\u0301`));
        expect(toAscii(text).text).not.toMatch(/ {2}/);
      }),
    );
  });

  it("marks a character with no ASCII spelling, and the record still has its width", () => {
    expect(toAscii("李小龙")).toEqual({ text: "???", lossy: true });
    const { line, problems } = natRecord(NAT_LAYOUTS.NAT00085, { "Client family name": "李" });
    expect(line).toHaveLength(557);
    expect(problems[0]!.message).toMatch(/no ASCII spelling/);
  });
});

/** Any student: any name and address text, any answers (valid or not), any dates. */
const anyText = fc.oneof(fc.string({ unit: "grapheme", maxLength: 120 }), fc.string({ unit: "binary", maxLength: 120 }), fc.constant(""));
const anyCode = fc.option(fc.string({ maxLength: 6 }), { nil: null });
const anyClient: fc.Arbitrary<NatClient> = fc.record({
  id: fc.uuid(),
  student_number: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
  full_name: anyText,
  email: anyText,
  phone: fc.option(anyText, { nil: null }),
  date_of_birth: fc.option(
    fc.date({ min: new Date("1900-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    { nil: null },
  ),
  usi: anyCode,
  sex: anyCode,
  address_building: fc.option(anyText, { nil: null }),
  address_unit: fc.option(anyText, { nil: null }),
  address_street_number: fc.option(anyText, { nil: null }),
  address_street_name: fc.option(anyText, { nil: null }),
  suburb: fc.option(anyText, { nil: null }),
  postcode: anyCode,
  state: anyCode,
  country_of_birth: anyCode,
  language_at_home: anyCode,
  indigenous_status: anyCode,
  labour_force_status: anyCode,
  highest_school_level: anyCode,
  at_school: anyCode,
  disability: fc.constantFrom("Y", "N", null),
  disability_types: fc.array(fc.string({ maxLength: 3 }), { maxLength: 4 }),
  prior_education: fc.constantFrom("Y", "N", null),
  prior_education_types: fc.array(fc.string({ maxLength: 4 }), { maxLength: 4 }),
  survey_contact_status: anyCode,
});

describe("property: any student of any name and address gives records of the exact widths", () => {
  it("in every file, as printable ASCII ended by CRLF", () => {
    fc.assert(
      fc.property(fc.array(anyClient, { minLength: 1, maxLength: 4 }), anyText, (clients, locationName) => {
        const collection: NatCollection = {
          year: 2025,
          organisation: { code: "45678", name: "Summit Crane & Rigging Training" },
          locations: [{ id: "l1", identifier: "YARD", name: locationName, suburb: locationName, postcode: "2304", state: "01", country: "1101" }],
          units: [{ id: "u1", code: "TLILIC0040", official_title: locationName, field_of_education: "030717", vet_flag: true, nominal_hours: 36 }],
          clients,
          activities: clients.map((cl, i) => ({
            enrollment_id: `e${i}`,
            client_id: cl.id,
            unit_id: "u1",
            location_id: "l1",
            status: "completed" as const,
            latest_assessment_status: "passed" as const,
            enrollment_date: "2025-02-03T00:00:00.000Z",
            planned_start_date: "2025-02-03",
            planned_end_date: "2025-02-08",
            completion_date: "2025-02-10T00:00:00.000Z",
            withdrawn_at: null,
          })),
          programs: [],
          completions: [],
        };
        const { files } = buildNatFiles(collection);
        for (const file of NAT_FILES) {
          const text = files[file];
          expect(text === "" || text.endsWith("\r\n")).toBe(true);
          expect(/^[\x20-\x7e\r\n]*$/.test(text), file).toBe(true);
          const lines = text.split("\r\n").slice(0, -1);
          for (const line of lines) expect(line, file).toHaveLength(NAT_LAYOUTS[file].width);
        }
        expect(files.NAT00080.split("\r\n").length - 1).toBe(new Set(clients.map((c) => c.id)).size);
      }),
      { numRuns: 150 },
    );
  });
});
