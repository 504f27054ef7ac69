import { sql } from "kysely";
import type { DB } from "#db/connection";
import { likePattern } from "#db/dialect";
import type { CourseRow, Tier } from "#db/schema";
import type { GstTreatment } from "#db/schema-finance";
import { prerequisitesOf, type LicenceClass } from "~/schemas/hrw-codes";

/** A course as screens and the /api see it: price in dollars, lists as arrays, is_active boolean. */
export interface Course {
  id: string;
  unit_code: string;
  name: string;
  description: string;
  tier: Tier;
  duration_hours: number;
  price: number;
  /** the fee per unit for recognition of prior learning, dollars with cents; 0: none */
  rpl_fee: number;
  is_active: boolean;
  prerequisites: string[];
  learning_outcomes: string[];
  assessment_criteria: string[];
  /** 6-digit ASCED field of education code (AVETMISS); null until recorded */
  field_of_education: string | null;
  /** the unit's title on the national register (NAT00060's subject name); null until recorded */
  official_title: string | null;
  /** vocational education and training (the NAT VET flag) */
  vet_flag: boolean;
  /** how its invoices charge GST (docs/decisions/033-invoices.md) */
  gst_treatment: GstTreatment;
  /** the high-risk work licence class the course leads to; null: none */
  licence_class: LicenceClass | null;
  /** licence classes a candidate must hold first (the class's defaults unless the course names its own) */
  licence_prerequisites: LicenceClass[];
  /** an enrolment is confirmed only after the learner's pre-enrolment review */
  review_required: boolean;
  /** days a learner waits before taking the review again */
  review_retake_days: number;
  created_at: string;
  updated_at: string;
}

function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}

export function toCourse(row: CourseRow): Course {
  return {
    id: row.id,
    unit_code: row.unit_code,
    name: row.name,
    description: row.description,
    tier: row.tier,
    duration_hours: Number(row.duration_hours),
    price: row.price_cents / 100,
    rpl_fee: Number(row.rpl_fee_cents) / 100,
    is_active: row.is_active === 1,
    prerequisites: parseList(row.prerequisites),
    learning_outcomes: parseList(row.learning_outcomes),
    assessment_criteria: parseList(row.assessment_criteria),
    field_of_education: row.field_of_education,
    official_title: row.official_title ?? null,
    vet_flag: row.vet_flag === 1,
    gst_treatment: row.gst_treatment,
    licence_class: (row.licence_class as LicenceClass | null) ?? null,
    licence_prerequisites: prerequisitesOf(row),
    review_required: Number(row.review_required) === 1,
    review_retake_days: Number(row.review_retake_days ?? 1),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** What a course's own page shows of it to anyone (the public course page, the enrolment page). */
export function courseOverview(course: Course) {
  return {
    id: course.id,
    unit_code: course.unit_code,
    name: course.name,
    description: course.description,
    tier: course.tier,
    duration_hours: course.duration_hours,
    price: course.price,
    rpl_fee: course.rpl_fee,
    prerequisites: course.prerequisites,
    learning_outcomes: course.learning_outcomes,
    assessment_criteria: course.assessment_criteria,
  };
}

export interface CourseFilter {
  search?: string | null;
  tier?: Tier | null;
  /** true: only courses open for enrolment (the public catalogue) */
  activeOnly?: boolean;
}

/** The catalogue's page size: a dozen cards fill whole rows of its one-, two- and three-column grid. */
export const CATALOGUE_PAGE_SIZE = 12;

export interface CoursePage {
  courses: Course[];
  total: number;
  page: number;
  pageSize: number;
  pageCount: number;
}

function filteredCourses(db: DB, filter: CourseFilter) {
  let query = db.selectFrom("courses");
  if (filter.activeOnly) query = query.where("is_active", "=", 1);
  if (filter.tier) query = query.where("tier", "=", filter.tier);
  const term = filter.search?.trim();
  if (term) {
    const pattern = likePattern(term);
    // ESCAPE makes the backslashes likePattern puts before % and _ mean "this character".
    query = query.where(
      sql<boolean>`(lower(name) like ${pattern} escape '\\' or lower(description) like ${pattern} escape '\\' or lower(unit_code) like ${pattern} escape '\\')`,
    );
  }
  return query;
}

/** Courses by tier then name, filtered in SQL. */
export async function listCourses(db: DB, filter: CourseFilter = {}): Promise<Course[]> {
  const rows = await filteredCourses(db, filter).selectAll().orderBy("tier").orderBy("name").execute();
  return rows.map(toCourse);
}

/**
 * One page of courses in listCourses' order, counted and paged in SQL (a COUNT and a
 * LIMIT/OFFSET page). A page past the end gives the last page; a nonsense page gives the first.
 */
export async function listCoursesPage(db: DB, filter: CourseFilter = {}, options: { page?: number; pageSize?: number } = {}): Promise<CoursePage> {
  const pageSize = Math.min(100, Math.max(1, Math.floor(options.pageSize ?? CATALOGUE_PAGE_SIZE) || CATALOGUE_PAGE_SIZE));
  const countRow = await filteredCourses(db, filter)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(countRow.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(pageCount, Math.max(1, Math.floor(options.page ?? 1) || 1));
  const rows = await filteredCourses(db, filter)
    .selectAll()
    .orderBy("tier")
    .orderBy("name")
    // Two courses may share a name; the id keeps each on exactly one page.
    .orderBy("id")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return { courses: rows.map(toCourse), total, page, pageSize, pageCount };
}

/** One course, or null; `activeOnly` hides courses closed to enrolment. */
export async function getCourse(db: DB, id: string, options: { activeOnly?: boolean } = {}): Promise<Course | null> {
  let query = db.selectFrom("courses").selectAll().where("id", "=", id);
  if (options.activeOnly) query = query.where("is_active", "=", 1);
  const row = await query.executeTakeFirst();
  return row ? toCourse(row) : null;
}
