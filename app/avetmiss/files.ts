import type { AssessmentStatus, DeliveryLocationRow, EnrollmentStatus, UserRow } from "#db/schema";
import type { AvetmissDetails } from "~/models/avetmiss-details.server";
import { byCount, checkAndWrite, stateOfPostcode, type CheckContext, type NatOutRecord, type ReadinessGroup, type ReadinessIssue } from "./checker";
import { NAT_FILES, natFile, type NatFileName } from "./nat-files";
import { reportedPhone } from "~/schemas/avetmiss-phone";
import { organisationDate, organisationToday } from "~/utils/organisation-calendar";

export type { ReadinessGroup, ReadinessIssue };

/**
 * A year's training activity as the ten NAT files of the AVETMISS report, and what NCVER's
 * validation would reject in it. Pure: app/models/avetmiss.server.ts reads the collection
 * from the database; the tests build one by hand.
 *
 * The rules of a high-risk-work RTO: every enrolment is a unit-only enrolment (program blank,
 * commencing program `8`), fee-for-service (funding `20`), delivered at the training yard
 * (delivery mode `YNN`, predominant mode `I`); study reason is not asked (`@@`).
 */

export interface NatOrganisation {
  code: string;
  name: string;
}

export type NatLocation = Omit<DeliveryLocationRow, "created_at" | "updated_at">;

export interface NatUnit {
  id: string;
  code: string;
  /** the unit's title on the national register (NAT00060), not the catalogue's course name */
  official_title: string | null;
  field_of_education: string | null;
  vet_flag: boolean;
  nominal_hours: number;
}

/** A learner: their AVETMISS details and what else the client files carry. */
export interface NatClient extends AvetmissDetails, Pick<UserRow, "id" | "student_number" | "full_name" | "email" | "phone" | "date_of_birth" | "usi"> {
  /** a USI the learner gave that another person holds (the office must settle it); null for none */
  usi_claimed?: string | null;
}

/** One enrolment: a client studying a unit at a location. */
export interface NatActivity {
  enrollment_id: string;
  client_id: string;
  unit_id: string;
  /** null only while the organisation has no delivery location at all */
  location_id: string | null;
  status: EnrollmentStatus;
  latest_assessment_status: AssessmentStatus | null;
  enrollment_date: string;
  /** the planned activity dates (YYYY-MM-DD) */
  planned_start_date: string;
  planned_end_date: string;
  completion_date: string | null;
  /** when a withdrawn enrolment was withdrawn (its last change); instants are dated on the organisation's calendar */
  withdrawn_at: string | null;
  /** the enrolment's decided credit transfer or RPL, if any (models/recognition/recognition.server.ts) */
  recognition?: NatRecognition | null;
}

/** A credit transfer (60) or RPL (51 granted, 52 not granted) decision on an enrolment's unit. */
export interface NatRecognition {
  outcome: "51" | "52" | "60";
  /** days on the organisation's calendar (YYYY-MM-DD) */
  applied_on: string;
  decided_on: string;
  /** a credit transfer's authentication (issuing RTO, document, when checked) is on record */
  authenticated: boolean;
  /** an RPL decision names its assessor */
  assessed: boolean;
}

/**
 * The recognition an activity reports, if any: a grant (51, 60) always; an RPL not granted (52)
 * while the learner has not since finished the unit by training (then the training's outcome,
 * with its own delivery mode, is the record).
 */
export function reportedRecognition(a: Pick<NatActivity, "status" | "recognition">): NatRecognition | null {
  const r = a.recognition;
  if (!r) return null;
  if (r.outcome === "52" && (a.status === "completed" || a.status === "withdrawn")) return null;
  return r;
}

/** A qualification or skill set (NAT00030); the portal issues none yet, the writers stand ready. */
export interface NatProgram {
  identifier: string;
  name: string;
  nominal_hours: number;
}

export interface NatProgramCompletion {
  program_identifier: string;
  client_id: string;
  completed_on: string;
  parchment_issue_date: string | null;
  parchment_number: string | null;
}

export interface NatCollection {
  year: number;
  organisation: NatOrganisation;
  locations: NatLocation[];
  units: NatUnit[];
  clients: NatClient[];
  activities: NatActivity[];
  programs: NatProgram[];
  completions: NatProgramCompletion[];
}

export interface NatExport {
  files: Record<NatFileName, string>;
  counts: Record<NatFileName, number>;
  issues: ReadinessIssue[];
}

/** Family name and given names: the last word is the family name (the portal keeps one full name). */
export function splitName(fullName: string): { family: string; given: string } {
  const words = fullName.trim().split(/\s+/).filter(Boolean);
  // a learner known by one name: the standard asks for it as both family and given name
  if (words.length <= 1) return { family: words[0] ?? "", given: words[0] ?? "" };
  return { family: words[words.length - 1]!, given: words.slice(0, -1).join(" ") };
}

/** The standard's name for encryption: "Family, Given names" (a single name as both). */
export function nameForEncryption(fullName: string): string {
  const { family, given } = splitName(fullName);
  return `${family}, ${given}`;
}

/** The year of a date or instant on the organisation's calendar (a completion at 09:00 on 1 January in Sydney is that year's). */
const yearOf = (iso: string) => Number(organisationDate(iso).slice(0, 4));

/**
 * The national outcome of an enrolment for the collection year: 20 completed (competent),
 * 30 withdrawn after a failed final assessment, 40 withdrawn otherwise, 70 continuing
 * (in progress, or finished only after the year), 85 enrolled and not yet started.
 */
export function outcomeOf(
  a: Pick<NatActivity, "status" | "latest_assessment_status" | "completion_date" | "withdrawn_at" | "recognition">,
  year: number,
): string {
  const recognised = reportedRecognition(a);
  if (recognised) return recognised.outcome;
  if (a.status === "completed") return a.completion_date && yearOf(a.completion_date) > year ? "70" : "20";
  if (a.status === "withdrawn") {
    if (a.withdrawn_at && yearOf(a.withdrawn_at) > year) return "70";
    return a.latest_assessment_status === "failed" ? "30" : "40";
  }
  return a.status === "in_progress" ? "70" : "85";
}

/**
 * Activity dates: the planned start; the end the completion or withdrawal date, or else the
 * planned end; never before the start (a completion recorded before the planned start ends
 * the activity the day it started). A completion or withdrawal is an instant, dated on the
 * organisation's calendar: one at 01:15 on 28 November in Sydney ends on the 28th.
 */
export function activityDates(
  a: Pick<NatActivity, "status" | "planned_start_date" | "planned_end_date" | "completion_date" | "withdrawn_at" | "recognition">,
): { start: string; end: string } {
  // a credit transfer is dated the day it was granted; an RPL runs from its application to its decision
  const recognised = reportedRecognition(a);
  if (recognised) return { start: recognised.outcome === "60" ? recognised.decided_on : recognised.applied_on, end: recognised.decided_on };
  const start = organisationDate(a.planned_start_date);
  const finished = a.status === "completed" ? a.completion_date : a.status === "withdrawn" ? a.withdrawn_at : null;
  const end = organisationDate(finished ?? a.planned_end_date);
  return { start, end: end < start ? start : end };
}

/**
 * Whether a collection year reports an activity: its dates (as the file carries them) meet
 * the year, whenever the record was made. One more kind belongs to a year: an enrolment made
 * in it for training that starts after it, reported as not yet started (85).
 */
export function reportedInYear(
  a: Pick<NatActivity, "status" | "enrollment_date" | "planned_start_date" | "planned_end_date" | "completion_date" | "withdrawn_at" | "recognition">,
  year: number,
): boolean {
  const { start, end } = activityDates(a);
  const first = `${year}-01-01`;
  const last = `${year}-12-31`;
  if (start <= last && end >= first) return true;
  return a.status === "enrolled" && start > last && yearOf(a.enrollment_date) === year;
}

/**
 * A phone number as the files want it (see phone.ts): an Australian number with its leading 0,
 * a mobile (04…) apart from a landline; a number abroad in the home field.
 */
export function phoneFields(phone: string | null): { home: string | null; mobile: string | null } {
  const written = reportedPhone(phone);
  if (!written) return { home: null, mobile: null };
  return /^04/.test(written) ? { home: null, mobile: written } : { home: written, mobile: null };
}

/** Written where the standard wants a value and the learner gave none (suburb, street). */
export const NOT_SPECIFIED = "NOT SPECIFIED";

const editStudent = (c: Pick<NatClient, "id">) => `/admin/students/${c.id}/edit`;
const editUnit = (u: NatUnit) => `/admin/courses/${u.id}/edit`;
const editLocation = (l: NatLocation) => `/admin/locations/${l.id}`;
const editEnrollment = (a: NatActivity) => `/admin/enrollments/${a.enrollment_id}`;
const clientName = (c: NatActivityClient) => `${c.full_name} (${c.student_number ?? "no student number"})`;

/** The learner's state: as given, else the one their postcode belongs to (an overseas postcode is 99). */
function clientState(c: NatClient): string | null {
  if (c.state) return c.state;
  if (c.postcode === "OSPC") return "99";
  return c.postcode ? stateOfPostcode(c.postcode) : null;
}

/**
 * Survey contact status as given, else from what is known: an overseas address (O), a learner
 * under 15 at the end of the year (M), otherwise available (A). It has no not-stated form.
 */
function surveyStatus(c: NatClient, year: number): string {
  if (c.survey_contact_status) return c.survey_contact_status;
  if (c.postcode === "OSPC" || c.state === "99") return "O";
  if (c.date_of_birth && Number(c.date_of_birth.slice(0, 4)) > year - 15) return "M";
  return "A";
}

/** NAT00010: the organisation, the first record of every report. */
export function organisationRecord(organisation: NatOrganisation): NatOutRecord {
  return {
    file: "NAT00010",
    record: organisation.name,
    key: organisation.code,
    href: "/admin/reports",
    values: { "Training organisation identifier": organisation.code, "Training organisation name": organisation.name },
  };
}

/** NAT00020: a delivery location the year's activity names. */
export function locationRecord(l: NatLocation, org: string): NatOutRecord {
  return {
    file: "NAT00020",
    record: `Location ${l.identifier}`,
    key: l.identifier,
    href: editLocation(l),
    values: {
      "Training organisation identifier": org,
      "Training organisation delivery location identifier": l.identifier,
      "Training organisation delivery location name": l.name,
      Postcode: l.postcode,
      "State identifier": l.state,
      "Address location - suburb, locality or town": l.suburb,
      "Country identifier": l.country,
    },
  };
}

/** NAT00030: a program. */
export function programRecord(p: NatProgram): NatOutRecord {
  return {
    file: "NAT00030",
    record: `Program ${p.identifier}`,
    key: p.identifier,
    href: "/admin/reports",
    values: { "Program identifier": p.identifier, "Program name": p.name, "Nominal hours": p.nominal_hours },
  };
}

/** NAT00060: a unit the year's activity names. */
export function unitRecord(u: NatUnit): NatOutRecord {
  return {
    file: "NAT00060",
    record: `Unit ${u.code}`,
    key: u.code,
    href: editUnit(u),
    values: {
      "Subject identifier": u.code,
      "Subject name": u.official_title,
      "Subject field of education identifier": u.field_of_education,
      "VET flag": u.vet_flag ? "Y" : "N",
      "Nominal hours": u.nominal_hours,
    },
  };
}

/**
 * A reported client's records in file order: NAT00080 and NAT00085 always, NAT00090 and
 * NAT00100 for each disability and prior achievement of a client who answered Yes.
 */
export function clientRecords(cl: NatClient, year: number): NatOutRecord[] {
  const out: NatOutRecord[] = [];
  const record = clientName(cl);
  const href = editStudent(cl);
  const key = cl.student_number ?? "";
  const id = cl.student_number;
  const { family, given } = splitName(cl.full_name);
  const state = clientState(cl);
  out.push({
    file: "NAT00080",
    record,
    key,
    href,
    values: {
      "Client identifier": id,
      "Name for encryption": nameForEncryption(cl.full_name),
      "Highest school level completed identifier": cl.highest_school_level,
      Sex: cl.sex,
      "Date of birth": cl.date_of_birth,
      Postcode: cl.postcode,
      "Indigenous status identifier": cl.indigenous_status,
      "Language identifier": cl.language_at_home,
      "Labour force status identifier": cl.labour_force_status,
      "Country identifier": cl.country_of_birth,
      "Disability flag": cl.disability,
      "Prior educational achievement flag": cl.prior_education,
      "At school flag": cl.at_school,
      "Address location - suburb, locality or town": cl.suburb ?? NOT_SPECIFIED,
      "Unique student identifier": cl.usi,
      "State identifier": state,
      "Address building/property name": cl.address_building,
      "Address flat/unit details": cl.address_unit,
      "Address street number": cl.address_street_number ?? NOT_SPECIFIED,
      "Address street name": cl.address_street_name ?? NOT_SPECIFIED,
      "Survey contact status": surveyStatus(cl, year),
    },
    facts: { usiClaimed: Boolean(cl.usi_claimed) },
  });
  const phone = phoneFields(cl.phone);
  out.push({
    file: "NAT00085",
    record,
    key,
    href,
    values: {
      "Client identifier": id,
      "Client first given name": given.split(" ")[0] ?? "",
      "Client family name": family,
      "Address building/property name": cl.address_building,
      "Address flat/unit details": cl.address_unit,
      "Address street number": cl.address_street_number ?? NOT_SPECIFIED,
      "Address street name": cl.address_street_name ?? NOT_SPECIFIED,
      "Address location - suburb, locality or town": cl.suburb ?? NOT_SPECIFIED,
      Postcode: cl.postcode,
      "State identifier": state,
      "Telephone number [home]": phone.home,
      "Telephone number [mobile]": phone.mobile,
      "Email address": cl.email,
    },
  });
  if (cl.disability === "Y") {
    for (const type of cl.disability_types)
      out.push({ file: "NAT00090", record, key, href, values: { "Client identifier": id, "Disability type identifier": type } });
  }
  if (cl.prior_education === "Y") {
    for (const type of cl.prior_education_types) {
      out.push({ file: "NAT00100", record, key, href, values: { "Client identifier": id, "Prior educational achievement identifier": type } });
    }
  }
  return out;
}

/** What an activity's record shows of its client: the name and student number. */
export type NatActivityClient = Pick<NatClient, "full_name" | "student_number">;

/** NAT00120: one enrolment's activity in the collection year. */
export function activityRecord(
  a: NatActivity,
  client: NatActivityClient,
  unit: NatUnit,
  location: NatLocation | undefined,
  year: number,
  org: string,
): NatOutRecord {
  const { start, end } = activityDates(a);
  const recognised = reportedRecognition(a);
  return {
    file: "NAT00120",
    record: `${clientName(client)}: ${unit.code}`,
    key: `${client.student_number ?? ""} ${unit.code}`,
    href: recognised ? "/admin/recognition" : editEnrollment(a),
    facts: recognised
      ? {
          recognitionUnauthenticated: recognised.outcome === "60" && !recognised.authenticated,
          recognitionUnassessed: recognised.outcome !== "60" && !recognised.assessed,
        }
      : undefined,
    values: {
      "Training organisation identifier": org,
      "Training organisation delivery location identifier": location?.identifier,
      "Client identifier": client.student_number,
      "Subject identifier": unit.code,
      "Program identifier": null,
      "Activity start date": start,
      "Activity end date": end,
      // credit transfer and RPL are not delivered: not applicable (NNN, predominant N)
      "Delivery mode identifier": recognised ? "NNN" : "YNN",
      "Outcome identifier - national": outcomeOf(a, year),
      "Funding source - national": "20",
      "Commencing program identifier": "8",
      "Study reason identifier": null,
      "VET in schools flag": "N",
      "Predominant delivery mode": recognised ? "N" : "I",
    },
  };
}

/** NAT00130: a program completed. */
export function completionRecord(p: NatProgramCompletion, client: NatActivityClient & { id: string }, org: string): NatOutRecord {
  return {
    file: "NAT00130",
    record: clientName(client),
    key: client.student_number ?? "",
    href: editStudent(client),
    values: {
      "Training organisation identifier": org,
      "Program identifier": p.program_identifier,
      "Client identifier": client.student_number,
      "Date program completed": p.completed_on,
      "Issued flag": p.parchment_issue_date ? "Y" : "N",
      "Parchment issue date": p.parchment_issue_date,
      "Parchment number": p.parchment_number,
    },
  };
}

/**
 * The order the files carry clients in: by student number, a learner without one first. The
 * database reads them in the same order (export.server.ts), byte by byte.
 */
export const byStudentNumber = (a: NatActivityClient, b: NatActivityClient) => {
  const x = a.student_number ?? "";
  const y = b.student_number ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
};

/** The order the activity file carries enrolments in: by enrolment instant, then id. */
export const byEnrollment = (a: Pick<NatActivity, "enrollment_date" | "enrollment_id">, b: Pick<NatActivity, "enrollment_date" | "enrollment_id">) =>
  a.enrollment_date < b.enrollment_date
    ? -1
    : a.enrollment_date > b.enrollment_date
      ? 1
      : a.enrollment_id < b.enrollment_id
        ? -1
        : a.enrollment_id > b.enrollment_id
          ? 1
          : 0;

/**
 * The order the report's records come in, and the zip's entries: the activities first (their walk learns
 * whom the other files name: export.server.ts). A reader of the zip finds each file by its name.
 */
export const REPORT_ORDER: readonly NatFileName[] = [
  "NAT00010",
  "NAT00120",
  "NAT00020",
  "NAT00030",
  "NAT00060",
  "NAT00080",
  "NAT00085",
  "NAT00090",
  "NAT00100",
  "NAT00130",
];

/**
 * Every record the ten files carry for a collection held in memory, in REPORT_ORDER, with its
 * values as the file will hold them (not-stated forms applied). Only what the year's activity
 * references is reported: the locations, units and clients of its enrolments (and of program
 * completions); every client has a NAT00085 record; NAT00090 and NAT00100 only for clients who
 * answered Yes. The database's export writes the same records a batch at a time
 * (export.server.ts).
 */
export function natRecords(c: NatCollection): NatOutRecord[] {
  const org = c.organisation.code;
  const locations = new Map(c.locations.map((l) => [l.id, l]));
  const units = new Map(c.units.map((u) => [u.id, u]));
  const clients = new Map(c.clients.map((cl) => [cl.id, cl]));
  const used = { locations: new Set<string>(), units: new Set<string>(), clients: new Set<string>() };
  const activities = [...c.activities].sort(byEnrollment);
  for (const a of activities) {
    if (a.location_id) used.locations.add(a.location_id);
    used.units.add(a.unit_id);
    used.clients.add(a.client_id);
  }
  for (const p of c.completions) used.clients.add(p.client_id);

  const perClient = c.clients
    .filter((x) => used.clients.has(x.id))
    .sort(byStudentNumber)
    .map((cl) => clientRecords(cl, c.year));
  const ofFile = (file: NatFileName) => perClient.flatMap((records) => records.filter((r) => r.file === file));
  return [
    organisationRecord(c.organisation),
    ...activities.map((a) =>
      activityRecord(a, clients.get(a.client_id)!, units.get(a.unit_id)!, a.location_id ? locations.get(a.location_id) : undefined, c.year, org),
    ),
    ...c.locations.filter((x) => used.locations.has(x.id)).map((l) => locationRecord(l, org)),
    ...c.programs.map(programRecord),
    ...c.units.filter((x) => used.units.has(x.id)).map(unitRecord),
    ...ofFile("NAT00080"),
    ...ofFile("NAT00085"),
    ...ofFile("NAT00090"),
    ...ofFile("NAT00100"),
    ...c.completions.map((p) => completionRecord(p, clients.get(p.client_id)!, org)),
  ];
}

/** Whether the year has anything to report: a collection with no training activity is not lodged as a lone NAT00010. */
export const hasActivity = (c: Pick<NatCollection, "activities" | "completions">) => c.activities.length > 0 || c.completions.length > 0;

/**
 * The ten files for a collection and what NCVER's validation would reject in them: both come
 * from one pass of the checker over the records the files carry.
 */
export function buildNatFiles(c: NatCollection, today = organisationToday()): NatExport {
  const ctx: CheckContext = { year: c.year, today };
  const { lines, issues } = checkAndWrite(natRecords(c), ctx);
  const files = Object.fromEntries(NAT_FILES.map((f) => [f, natFile(lines[f])])) as Record<NatFileName, string>;
  const counts = Object.fromEntries(NAT_FILES.map((f) => [f, lines[f].length])) as Record<NatFileName, number>;
  return { files, counts, issues };
}

export interface ReadinessPage {
  /** Every problem, across all records. */
  total: number;
  /** Problems grouped by file and kind, most common first: short however many records there are. */
  groups: ReadinessGroup[];
  /** How many problems the search matched (all of them without one). */
  matching: number;
  page: number;
  pageCount: number;
  pageSize: number;
  issues: ReadinessIssue[];
}

export const READINESS_PAGE_SIZE = 50;

/**
 * The readiness list as the reports page shows it: a summary by kind of problem, and one page
 * of the problems whose record (a name, student number, unit code or location) contains
 * `find`. A large organisation can have a problem on every one of thousands of students, and
 * the page must stay small.
 */
export function readinessPage(issues: ReadinessIssue[], options: { find: string; page: number }, pageSize = READINESS_PAGE_SIZE): ReadinessPage {
  const byKind = new Map<string, ReadinessGroup>();
  for (const issue of issues) {
    const key = `${issue.file}\u0000${issue.problem}`;
    const group = byKind.get(key);
    if (group) group.count += 1;
    else byKind.set(key, { file: issue.file, problem: issue.problem, count: 1 });
  }
  const groups = [...byKind.values()].sort(byCount);
  const needle = options.find.toLocaleLowerCase("en-AU");
  const matched = needle ? issues.filter((i) => i.record.toLocaleLowerCase("en-AU").includes(needle)) : issues;
  const pageCount = Math.max(1, Math.ceil(matched.length / pageSize));
  const page = Math.min(Math.max(1, options.page), pageCount);
  return {
    total: issues.length,
    groups,
    matching: matched.length,
    page,
    pageCount,
    pageSize,
    issues: matched.slice((page - 1) * pageSize, page * pageSize),
  };
}
