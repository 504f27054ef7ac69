/**
 * The AVETMISS 8.0 NAT file format: fixed-width ASCII records, one per line, each line ended
 * by CRLF. Each file's layout is a table of fields (name, start, width, type) read straight
 * from the national standard, and one writer turns a record's values into a line of exactly
 * the layout's width: text left-justified and space-filled, numbers right-justified and
 * zero-filled, dates DDMMYYYY, "not stated" as `@` to the field's width where the standard
 * allows it, and the state-only fields left blank (the portal reports to NCVER directly).
 *
 * Pure (its one import is the organisation's calendar, which dates an instant): the export,
 * the readiness list and the tests share it.
 */
import { organisationDate } from "~/utils/organisation-calendar";

export type NatType = "A" | "N" | "D";

export interface NatField {
  readonly name: string;
  /** 1-based position of the first character, as the standard numbers them */
  readonly start: number;
  readonly width: number;
  readonly type: NatType;
  /** a missing value is written as `@` to the width ("not stated") rather than blank */
  readonly notStated?: boolean;
  /** collected by state training authorities only: always blank in a file for NCVER */
  readonly stateOnly?: boolean;
  /** the standard lets an over-long value be cut to the width; otherwise it is a problem to fix */
  readonly truncate?: boolean;
}

export interface NatLayout {
  readonly file: NatFileName;
  readonly width: number;
  readonly fields: readonly NatField[];
}

export const NAT_FILES = ["NAT00010", "NAT00020", "NAT00030", "NAT00060", "NAT00080", "NAT00085", "NAT00090", "NAT00100", "NAT00120", "NAT00130"] as const;
export type NatFileName = (typeof NAT_FILES)[number];

export type NatValue = string | number | null | undefined;

/** Something in a value that the file cannot carry as given (the record is still written at its width). */
export interface NatProblem {
  field: string;
  message: string;
}

type FieldSpec = [name: string, width: number, type: NatType, options?: Pick<NatField, "notStated" | "stateOnly" | "truncate">];

/**
 * A layout from its fields in order; each start follows from the widths before it, and the
 * total must be the standard's record width, so a table that disagrees with the standard
 * cannot load.
 */
function layout(file: NatFileName, width: number, specs: FieldSpec[]): NatLayout {
  let start = 1;
  const fields = specs.map(([name, w, type, options]) => {
    const field: NatField = { name, start, width: w, type, ...options };
    start += w;
    return field;
  });
  if (start - 1 !== width) throw new Error(`${file}: the fields add up to ${start - 1} characters, not ${width}`);
  return { file, width, fields };
}

const S = { stateOnly: true } as const;
const NS = { notStated: true } as const;
const CUT = { truncate: true } as const;

export const NAT00010 = layout("NAT00010", 448, [
  ["Training organisation identifier", 10, "A"],
  ["Training organisation name", 100, "A", CUT],
  ["Training organisation type identifier", 2, "N", S],
  ["Address first line", 50, "A", S],
  ["Address second line", 50, "A", S],
  ["Address location - suburb, locality or town", 50, "A", S],
  ["Postcode", 4, "A", S],
  ["State identifier", 2, "A", S],
  ["Contact name", 60, "A", S],
  ["Telephone number", 20, "A", S],
  ["Facsimile number", 20, "A", S],
  ["Email address", 80, "A", S],
]);

export const NAT00020 = layout("NAT00020", 180, [
  ["Training organisation identifier", 10, "A"],
  ["Training organisation delivery location identifier", 10, "A"],
  ["Training organisation delivery location name", 100, "A", CUT],
  ["Postcode", 4, "A"],
  ["State identifier", 2, "A"],
  ["Address location - suburb, locality or town", 50, "A"],
  ["Country identifier", 4, "A"],
]);

/** NAT00030: fields 4 to 8 belong to NAT00030A (programs not on training.gov.au) and are blank here. */
export const NAT00030 = layout("NAT00030", 130, [
  ["Program identifier", 10, "A"],
  ["Program name", 100, "A", CUT],
  ["Nominal hours", 4, "N"],
  ["Program recognition identifier", 2, "A", S],
  ["Program level of education identifier", 3, "A", S],
  ["Program field of education identifier", 4, "A", S],
  ["ANZSCO identifier", 6, "A", S],
  ["VET flag", 1, "A", S],
]);

export const NAT00060 = layout("NAT00060", 123, [
  ["Subject identifier", 12, "A"],
  ["Subject name", 100, "A", CUT],
  ["Subject field of education identifier", 6, "A"],
  ["VET flag", 1, "A"],
  ["Nominal hours", 4, "N"],
]);

export const NAT00080 = layout("NAT00080", 347, [
  ["Client identifier", 10, "A"],
  ["Name for encryption", 60, "A", CUT],
  ["Highest school level completed identifier", 2, "A", NS],
  ["Sex", 1, "A", NS],
  ["Date of birth", 8, "D", NS],
  ["Postcode", 4, "A", NS],
  ["Indigenous status identifier", 1, "A", NS],
  ["Language identifier", 4, "A", NS],
  ["Labour force status identifier", 2, "A", NS],
  ["Country identifier", 4, "A", NS],
  ["Disability flag", 1, "A", NS],
  ["Prior educational achievement flag", 1, "A", NS],
  ["At school flag", 1, "A", NS],
  ["Address location - suburb, locality or town", 50, "A"],
  ["Unique student identifier", 10, "A"],
  ["State identifier", 2, "A", NS],
  ["Address building/property name", 50, "A"],
  ["Address flat/unit details", 30, "A"],
  ["Address street number", 15, "A"],
  ["Address street name", 70, "A"],
  ["Survey contact status", 1, "A"],
  ["Statistical area level 1 identifier", 11, "A", S],
  ["Statistical area level 2 identifier", 9, "A", S],
]);

export const NAT00085 = layout("NAT00085", 557, [
  ["Client identifier", 10, "A"],
  ["Client title", 4, "A"],
  ["Client first given name", 40, "A"],
  ["Client family name", 40, "A"],
  ["Address building/property name", 50, "A"],
  ["Address flat/unit details", 30, "A"],
  ["Address street number", 15, "A"],
  ["Address street name", 70, "A"],
  ["Address postal delivery box", 22, "A"],
  ["Address location - suburb, locality or town", 50, "A"],
  ["Postcode", 4, "A", NS],
  ["State identifier", 2, "A", NS],
  ["Telephone number [home]", 20, "A"],
  ["Telephone number [work]", 20, "A"],
  ["Telephone number [mobile]", 20, "A"],
  ["Email address", 80, "A"],
  ["Email address [alternative]", 80, "A"],
]);

export const NAT00090 = layout("NAT00090", 12, [
  ["Client identifier", 10, "A"],
  ["Disability type identifier", 2, "A"],
]);

export const NAT00100 = layout("NAT00100", 13, [
  ["Client identifier", 10, "A"],
  ["Prior educational achievement identifier", 3, "A"],
]);

export const NAT00120 = layout("NAT00120", 158, [
  ["Training organisation identifier", 10, "A"],
  ["Training organisation delivery location identifier", 10, "A"],
  ["Client identifier", 10, "A"],
  ["Subject identifier", 12, "A"],
  ["Program identifier", 10, "A"],
  ["Activity start date", 8, "D"],
  ["Activity end date", 8, "D"],
  ["Delivery mode identifier", 3, "A"],
  ["Outcome identifier - national", 2, "N"],
  ["Funding source - national", 2, "A"],
  ["Commencing program identifier", 1, "A"],
  ["Training contract identifier", 10, "A"],
  ["Client identifier - apprenticeships", 10, "A"],
  ["Study reason identifier", 2, "A", NS],
  ["VET in schools flag", 1, "A"],
  ["Specific funding identifier", 10, "A"],
  ["School type identifier", 2, "A"],
  ["Outcome identifier - training organisation", 3, "A", S],
  ["Funding source - state training authority", 3, "A", S],
  ["Client tuition fee", 5, "N", S],
  ["Fee exemption/concession type identifier", 2, "A", S],
  ["Purchasing contract identifier", 12, "A", S],
  ["Purchasing contract schedule identifier", 3, "A", S],
  ["Hours attended", 4, "N", S],
  ["Associated course identifier", 10, "A", S],
  ["Scheduled hours", 4, "N", S],
  // added in 8.0 and required by some states; filled, since it costs nothing and its scope is unsettled
  ["Predominant delivery mode", 1, "A"],
]);

export const NAT00130 = layout("NAT00130", 72, [
  ["Training organisation identifier", 10, "A"],
  ["Program identifier", 10, "A"],
  ["Client identifier", 10, "A"],
  ["Date program completed", 8, "D"],
  ["Issued flag", 1, "A"],
  ["Parchment issue date", 8, "D"],
  ["Parchment number", 25, "A"],
]);

export const NAT_LAYOUTS: Record<NatFileName, NatLayout> = {
  NAT00010,
  NAT00020,
  NAT00030,
  NAT00060,
  NAT00080,
  NAT00085,
  NAT00090,
  NAT00100,
  NAT00120,
  NAT00130,
};

/** Letters that do not decompose into a base letter and marks, spelled as English writes them. */
const SPELLED: Record<string, string> = {
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Ø: "O",
  ø: "o",
  Œ: "OE",
  œ: "oe",
  Ð: "D",
  ð: "d",
  Đ: "D",
  đ: "d",
  Þ: "Th",
  þ: "th",
  Ł: "L",
  ł: "l",
  Ħ: "H",
  ħ: "h",
  ı: "i",
  ŀ: "l",
  Ŀ: "L",
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u02BC": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2026": "...",
};

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text as printable ASCII: accents dropped (José → Jose, Zoë → Zoe), letters that do not
 * decompose spelled out (Søren → Soren, Straße → Strasse), compatibility forms folded
 * (ﬁ → fi), line breaks and other spacing as single spaces. A character with no ASCII
 * spelling (a CJK name, say) becomes `?` and `lossy` says so: the readiness list asks for the
 * name in Latin letters, as on the learner's USI record.
 */
export function toAscii(text: string): { text: string; lossy: boolean } {
  // Nearly every name and address is printable ASCII already: then only runs of spaces fold,
  // and the export (tens of thousands of records) skips the per-character work below.
  if (PRINTABLE_ASCII.test(text)) return { text: text.replace(/ {2,}/g, " "), lossy: false };
  let lossy = false;
  const spelled = [...text].map((c) => SPELLED[c] ?? c).join("");
  const folded = spelled
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\s\p{Cc}]+/gu, " ");
  const out = [...folded]
    .map((c) => {
      const code = c.codePointAt(0)!;
      if (code >= 0x20 && code <= 0x7e) return c;
      lossy = true;
      return "?";
    })
    .join("");
  return { text: out, lossy };
}

/** An ISO 8601 date or instant as DDMMYYYY (an instant on the organisation's calendar); null when it is not one. */
export function natDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(/^\d{4}-\d{2}-\d{2}T/.test(value) ? organisationDate(value) : value);
  if (!match) return null;
  return `${match[3]}${match[2]}${match[1]}`;
}

function renderField(field: NatField, value: NatValue, problems: NatProblem[]): string {
  const blank = " ".repeat(field.width);
  if (field.stateOnly) return blank;
  if (value === null || value === undefined || value === "") return field.notStated ? "@".repeat(field.width) : blank;
  if (field.type === "N") {
    const n = typeof value === "number" ? value : /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (!Number.isFinite(n) || n < 0) {
      problems.push({ field: field.name, message: `${field.name} is not a whole number` });
      return field.notStated ? "@".repeat(field.width) : blank;
    }
    const max = 10 ** field.width - 1;
    const whole = Math.round(n);
    if (whole > max) problems.push({ field: field.name, message: `${field.name} ${whole} is more than ${field.width} digits (written as ${max})` });
    return String(Math.min(whole, max)).padStart(field.width, "0");
  }
  if (field.type === "D") {
    const date = natDate(String(value));
    if (!date) {
      problems.push({ field: field.name, message: `${field.name} is not a date` });
      return field.notStated ? "@".repeat(field.width) : blank;
    }
    return date;
  }
  const { text, lossy } = toAscii(String(value));
  const trimmed = text.trim();
  if (lossy) problems.push({ field: field.name, message: `${field.name} has characters with no ASCII spelling` });
  if (trimmed.length > field.width && !field.truncate) {
    problems.push({ field: field.name, message: `${field.name} is longer than ${field.width} characters` });
  }
  return trimmed.slice(0, field.width).padEnd(field.width, " ");
}

/**
 * One record of a layout from its values by field name (a field not given is blank, or not
 * stated). The line is always exactly the layout's width; what could not be written as given
 * is returned as problems.
 */
export function natRecord(layout: NatLayout, values: Record<string, NatValue>): { line: string; problems: NatProblem[] } {
  const problems: NatProblem[] = [];
  for (const name of Object.keys(values)) {
    if (!layout.fields.some((f) => f.name === name)) throw new Error(`${layout.file} has no field "${name}"`);
  }
  const line = layout.fields.map((f) => renderField(f, values[f.name], problems)).join("");
  if (line.length !== layout.width) throw new Error(`${layout.file} record is ${line.length} characters, not ${layout.width}`);
  return { line, problems };
}

/** A file's text: every record followed by CRLF, the last one too; no records is an empty file. */
export function natFile(lines: readonly string[]): string {
  return lines.map((l) => `${l}\r\n`).join("");
}
