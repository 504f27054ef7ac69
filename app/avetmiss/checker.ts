import { COUNTRIES, LANGUAGES } from "~/schemas/avetmiss-codes";
import { NAT_FILES, NAT_LAYOUTS, natRecord, type NatFileName, type NatValue } from "./nat-files";
import { AUSTRALIAN_PHONE, INTERNATIONAL_PHONE } from "~/schemas/avetmiss-phone";
import { organisationDate } from "~/utils/organisation-calendar";

/**
 * The one checker of what NCVER's validation refuses (docs/decisions/009-avetmiss-report.md). The export runs
 * every record it writes through it, and the readiness list is what it finds: the two cannot
 * disagree, because the list is made while the files are written, from the same values.
 *
 * A rule looks at one record's values as the file will carry them (not-stated forms applied),
 * or at what the export knows of it beyond them (a USI another learner holds, say: its facts).
 * Adding a rule is adding an entry to RECORD_RULES or FACT_RULES; nothing else changes. No rule
 * reads more than one record, so the export checks a record as it writes it and holds no file.
 */

/** One record the export writes: where it goes, whose it is, where it is fixed, and its values by field. */
export interface NatOutRecord {
  file: NatFileName;
  /** how the page names it: "Mia Nguyen (S000002)", "Unit TLILIC0040", "Location YARD1" */
  record: string;
  /** the identifier NCVER sees: student number, unit code, location identifier (with the unit for an activity) */
  key: string;
  /** the page that fixes it */
  href: string;
  values: Record<string, NatValue>;
  /** what the checker must know that the file does not carry */
  facts?: { usiClaimed?: boolean; recognitionUnauthenticated?: boolean; recognitionUnassessed?: boolean };
}

/** A record NCVER's validation would reject, the field at fault, the rule in plain words and where to fix it. */
export interface ReadinessIssue {
  file: NatFileName;
  record: string;
  key: string;
  field: string;
  problem: string;
  href: string;
}

export interface CheckContext {
  year: number;
  /** today on the organisation's calendar, YYYY-MM-DD: an activity cannot have finished in the future */
  today: string;
}

interface RecordRule {
  file: NatFileName;
  field: string;
  problem: string;
  /** true when the record breaks the rule */
  breaks: (v: Record<string, NatValue>, ctx: CheckContext) => boolean;
}

/**
 * A rule on what the checker knows of a record beyond its values (its facts): listed after
 * every record's own problems, one rule at a time, so the readiness list gathers them.
 */
interface FactRule {
  file: NatFileName;
  field: string;
  problem: string;
  breaks: (r: NatOutRecord) => boolean;
}

const str = (v: NatValue) => (v === null || v === undefined ? "" : String(v).trim());
const blank = (v: NatValue) => str(v) === "";
/** The date a value the writer formats stands for (an instant dated on the organisation's calendar, as natDate does). */
const isoDay = (v: NatValue) => organisationDate(str(v));

const COUNTRY_CODES = new Set(COUNTRIES.map((c) => c.code));
const LANGUAGE_CODES = new Set(LANGUAGES.map((c) => c.code));

/**
 * The state an Australian postcode belongs to (two-digit state identifier), or null when the
 * postcode is not one. Ranges of Australia Post's allocation; 2540 (Jervis Bay), 2899 (Norfolk
 * Island), 6798 and 6799 (Christmas and Cocos Islands) may also be "other territories" (09).
 */
export function stateOfPostcode(postcode: string): string | null {
  if (!/^\d{4}$/.test(postcode)) return null;
  const n = Number(postcode);
  const within = (a: number, b: number) => n >= a && n <= b;
  if (within(200, 299) || within(2600, 2618) || within(2900, 2920)) return "08";
  if (within(800, 999)) return "07";
  if (within(1000, 2599) || within(2619, 2899) || within(2921, 2999)) return "01";
  if (within(3000, 3999) || within(8000, 8999)) return "02";
  if (within(4000, 4999) || within(9000, 9999)) return "03";
  if (within(5000, 5999)) return "04";
  if (within(6000, 6999)) return "05";
  if (within(7000, 7999)) return "06";
  return null;
}

const TERRITORY_POSTCODES = new Set(["2540", "2899", "6798", "6799"]);

/**
 * Whether a postcode and a state may stand together: OSPC only with 99 (overseas) and 99 only
 * with OSPC; an Australian postcode with its own state (or 09 for the external territories'
 * postcodes). A postcode not stated (@@@@) or unknown (0000) goes with any state.
 */
export function postcodeFitsState(postcode: string, state: string): boolean {
  if (postcode === "" || postcode === "@@@@" || postcode === "0000") return state !== "99" || postcode !== "0000";
  if (postcode === "OSPC") return state === "99";
  if (state === "99") return false;
  if (state === "" || state === "@@") return true;
  if (state === "09") return TERRITORY_POSTCODES.has(postcode);
  return stateOfPostcode(postcode) === state;
}

/** Whether a client's record gives an overseas address (OSPC, state 99): their phone may be a number abroad. */
const overseas = (v: Record<string, NatValue>) => str(v.Postcode) === "OSPC" || str(v["State identifier"]) === "99";

const EXEMPT_USI = new Set(["INDIV", "INTOFF"]);
const USI_SHAPE = /^[2-9A-HJ-NP-Z]{10}$/;

const RECORD_RULES: RecordRule[] = [
  // NAT00020: where training was delivered is an Australian place NCVER can map
  { file: "NAT00020", field: "Postcode", problem: "No postcode", breaks: (v) => blank(v.Postcode) },
  { file: "NAT00020", field: "State identifier", problem: "No state", breaks: (v) => blank(v["State identifier"]) },
  {
    file: "NAT00020",
    field: "Address location - suburb, locality or town",
    problem: "No suburb, locality or town",
    breaks: (v) => blank(v["Address location - suburb, locality or town"]),
  },
  {
    file: "NAT00020",
    field: "State identifier",
    problem: "The postcode and the state disagree",
    breaks: (v) => !blank(v.Postcode) && !blank(v["State identifier"]) && !postcodeFitsState(str(v.Postcode), str(v["State identifier"])),
  },
  {
    file: "NAT00020",
    field: "Country identifier",
    problem: "The country is not a code of the ABS classification",
    breaks: (v) => !COUNTRY_CODES.has(str(v["Country identifier"])),
  },

  // NAT00060: the unit as the national register knows it
  {
    file: "NAT00060",
    field: "Subject name",
    problem: "No official title (the unit's title on the national register)",
    breaks: (v) => blank(v["Subject name"]),
  },
  {
    file: "NAT00060",
    field: "Subject field of education identifier",
    problem: "No field of education code",
    breaks: (v) => blank(v["Subject field of education identifier"]),
  },
  {
    file: "NAT00060",
    field: "Subject field of education identifier",
    problem: "The field of education code is not six digits",
    breaks: (v) => !blank(v["Subject field of education identifier"]) && !/^\d{6}$/.test(str(v["Subject field of education identifier"])),
  },

  // NAT00080: the client
  { file: "NAT00080", field: "Client identifier", problem: "No student number", breaks: (v) => blank(v["Client identifier"]) },
  { file: "NAT00080", field: "Date of birth", problem: "No date of birth", breaks: (v) => blank(v["Date of birth"]) },
  { file: "NAT00080", field: "Postcode", problem: "No postcode", breaks: (v) => blank(v.Postcode) },
  { file: "NAT00080", field: "Unique student identifier", problem: "No USI", breaks: (v) => blank(v["Unique student identifier"]) },
  {
    file: "NAT00080",
    field: "Unique student identifier",
    problem: "The USI is not ten letters and digits (or INDIV / INTOFF for an exemption)",
    breaks: (v) => {
      const usi = str(v["Unique student identifier"]);
      return usi !== "" && !EXEMPT_USI.has(usi) && !USI_SHAPE.test(usi);
    },
  },
  {
    file: "NAT00080",
    field: "State identifier",
    problem: "The postcode and the state disagree (OSPC goes with Overseas)",
    breaks: (v) => !postcodeFitsState(str(v.Postcode), str(v["State identifier"])),
  },
  {
    file: "NAT00080",
    field: "Country identifier",
    problem: "The country of birth is not a code of the ABS classification",
    breaks: (v) => str(v["Country identifier"]) !== "" && !COUNTRY_CODES.has(str(v["Country identifier"])),
  },
  {
    file: "NAT00080",
    field: "Language identifier",
    problem: "The main language is not a code of the ABS classification",
    breaks: (v) => str(v["Language identifier"]) !== "" && !LANGUAGE_CODES.has(str(v["Language identifier"])),
  },
  {
    file: "NAT00080",
    field: "Name for encryption",
    problem: "No name",
    breaks: (v) => blank(v["Name for encryption"]) || /^,/.test(str(v["Name for encryption"])),
  },

  // NAT00085: contact details
  ...(["Telephone number [home]", "Telephone number [work]", "Telephone number [mobile]"] as const).map((field): RecordRule => ({
    file: "NAT00085",
    field,
    problem:
      "An Australian phone number has ten digits (02 4960 1234, 0412 345 678); a number abroad, with its country code (+64 21 123 4567), is for a learner whose address is overseas",
    breaks: (v) => !blank(v[field]) && !AUSTRALIAN_PHONE.test(str(v[field])) && !(overseas(v) && INTERNATIONAL_PHONE.test(str(v[field]))),
  })),
  {
    file: "NAT00085",
    field: "State identifier",
    problem: "The postcode and the state disagree (OSPC goes with Overseas)",
    breaks: (v) => !postcodeFitsState(str(v.Postcode), str(v["State identifier"])),
  },

  // NAT00120: the activity's dates fit its outcome
  {
    file: "NAT00120",
    field: "Training organisation delivery location identifier",
    problem: "No delivery location",
    breaks: (v) => blank(v["Training organisation delivery location identifier"]),
  },
  { file: "NAT00120", field: "Activity start date", problem: "No planned start date", breaks: (v) => blank(v["Activity start date"]) },
  { file: "NAT00120", field: "Activity end date", problem: "No planned end date", breaks: (v) => blank(v["Activity end date"]) },
  {
    file: "NAT00120",
    field: "Activity end date",
    problem: "The activity ends before it starts",
    breaks: (v) => !blank(v["Activity start date"]) && !blank(v["Activity end date"]) && isoDay(v["Activity end date"]) < isoDay(v["Activity start date"]),
  },
  {
    file: "NAT00120",
    field: "Activity end date",
    problem: "Still in progress but planned to end within the year: record its outcome, or set the date it will really end",
    breaks: (v, ctx) => str(v["Outcome identifier - national"]) === "70" && isoDay(v["Activity end date"]) <= `${ctx.year}-12-31`,
  },
  {
    // 85 says the activity has not started yet, which is true while its planned start is still
    // ahead; only a start already past contradicts it. Checked again when the report is lodged
    // after the year, a start that has passed by then is listed.
    file: "NAT00120",
    field: "Activity start date",
    problem: "Not started, but its planned start has passed: record that it started (or its outcome), or set the date it will really start",
    breaks: (v, ctx) => str(v["Outcome identifier - national"]) === "85" && isoDay(v["Activity start date"]) < ctx.today,
  },
  {
    file: "NAT00120",
    field: "Activity end date",
    problem:
      "Ends after the collection year with a final outcome: only a continuing activity (70), or one not yet started (85), may end after 31 December; correct the planned start or the outcome",
    breaks: (v, ctx) => !["70", "85"].includes(str(v["Outcome identifier - national"])) && isoDay(v["Activity end date"]) > `${ctx.year}-12-31`,
  },
  {
    file: "NAT00120",
    field: "Activity end date",
    problem: "Ended before the collection year: it belongs to an earlier year's report; record its real dates",
    breaks: (v, ctx) => !blank(v["Activity end date"]) && isoDay(v["Activity end date"]) < `${ctx.year}-01-01`,
  },
  {
    file: "NAT00120",
    field: "Activity end date",
    problem: "A finished activity dated in the future",
    breaks: (v, ctx) => ["20", "30", "40"].includes(str(v["Outcome identifier - national"])) && isoDay(v["Activity end date"]) > ctx.today,
  },
];

/** Rules on a record's facts. The register of USIs shared by two learners belongs here. */
const FACT_RULES: FactRule[] = [
  {
    // the grant stands on the other RTO's document: without the record of its check it cannot be shown to an auditor
    file: "NAT00120",
    field: "Outcome identifier - national",
    problem: "A credit transfer (60) without its authentication record: record the issuing RTO, the document number and how and when it was checked",
    breaks: (r) => Boolean(r.facts?.recognitionUnauthenticated),
  },
  {
    file: "NAT00120",
    field: "Outcome identifier - national",
    problem: "An RPL decision (51 or 52) without an assessor: record the credentialed assessor who decided it",
    breaks: (r) => Boolean(r.facts?.recognitionUnassessed),
  },
  {
    file: "NAT00080",
    field: "Unique student identifier",
    problem: "The USI this learner gave is recorded for another person: check both with the USI Registry and record the right USI on each",
    breaks: (r) => Boolean(r.facts?.usiClaimed),
  },
];

const RULES_OF_FILE = new Map<NatFileName, RecordRule[]>(NAT_FILES.map((f) => [f, RECORD_RULES.filter((r) => r.file === f)]));

/** One kind of readiness problem and how many records have it. */
export interface ReadinessGroup {
  file: NatFileName;
  problem: string;
  count: number;
}

/** The summary's order: most common first, then by file and problem. */
export const byCount = (a: ReadinessGroup, b: ReadinessGroup) => b.count - a.count || a.file.localeCompare(b.file) || a.problem.localeCompare(b.problem);

/** Where a checker's issues go as found (rank 0 for a record's own, 1 and up for each fact rule in turn). */
export type IssueSink = (issue: ReadinessIssue, rank: number) => void;

/**
 * The checker of a report written a record at a time: each record's line, and every rule it
 * breaks (a value the file cannot carry as given, or a rule of NCVER's) as one readiness issue
 * each, counted by kind. The export of a large organisation runs its records through one of
 * these a batch at a time and never holds them all: its issues are kept ("keep"), only counted
 * ("count": the download needs the lines alone), or handed to a sink (the runner's check
 * writes them to the database as it goes).
 */
export class NatChecker {
  /** kept issues by rank */
  private readonly kept: ReadinessIssue[][] = [[], ...FACT_RULES.map(() => [])];
  private readonly kinds = new Map<string, ReadinessGroup>();
  readonly counts = Object.fromEntries(NAT_FILES.map((f) => [f, 0])) as Record<NatFileName, number>;
  issueCount = 0;

  constructor(
    private readonly ctx: CheckContext,
    private readonly sink: IssueSink | "keep" | "count" = "keep",
  ) {}

  private issue(rank: number, r: NatOutRecord, field: string, problem: string) {
    this.issueCount++;
    if (this.sink === "count") return;
    const kind = `${r.file}\u0000${problem}`;
    const group = this.kinds.get(kind);
    if (group) group.count++;
    else this.kinds.set(kind, { file: r.file, problem, count: 1 });
    const issue = { file: r.file, record: r.record, key: r.key, field, problem, href: r.href };
    if (this.sink === "keep") this.kept[rank]!.push(issue);
    else this.sink(issue, rank);
  }

  /** The record's line in its file, its problems noted. */
  check(r: NatOutRecord): string {
    const { line, problems } = natRecord(NAT_LAYOUTS[r.file], r.values);
    this.counts[r.file]++;
    for (const rule of RULES_OF_FILE.get(r.file)!) if (rule.breaks(r.values, this.ctx)) this.issue(0, r, rule.field, rule.problem);
    for (const p of problems) this.issue(0, r, p.field, p.message);
    FACT_RULES.forEach((rule, i) => {
      if (rule.file === r.file && rule.breaks(r)) this.issue(i + 1, r, rule.field, rule.problem);
    });
    return line;
  }

  /**
   * Every issue kept: each record's own by file (in NAT_FILES order, whatever order the
   * records came in) and within a file in record order, then each fact rule's in turn.
   */
  issues(): ReadinessIssue[] {
    const place = (i: ReadinessIssue) => NAT_FILES.indexOf(i.file);
    const [own, ...facts] = this.kept;
    return [...own!.sort((a, b) => place(a) - place(b)), ...facts.flat()];
  }

  /** The issues found by file and kind, most common first. */
  groups(): ReadinessGroup[] {
    return [...this.kinds.values()].sort(byCount);
  }
}

/** Every record, written and checked: the lines of each file and every issue (see NatChecker). */
export function checkAndWrite(records: readonly NatOutRecord[], ctx: CheckContext): { lines: Record<NatFileName, string[]>; issues: ReadinessIssue[] } {
  const lines = Object.fromEntries(NAT_FILES.map((f) => [f, [] as string[]])) as Record<NatFileName, string[]>;
  const checker = new NatChecker(ctx);
  for (const r of records) lines[r.file].push(checker.check(r));
  return { lines, issues: checker.issues() };
}
