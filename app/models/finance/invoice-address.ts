import { LOCATION_STATE_REGULATOR } from "~/schemas/hrw-codes";

/**
 * A buyer's postal address as an invoice keeps it and the accounting export's columns read it:
 * street lines, then the town, the state's abbreviation (NSW, not the AVETMISS code 01) and the
 * postcode each in a field of its own.
 */
export interface PostalAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  region: string | null;
  postcode: string | null;
  country: string | null;
}

const STATE_ABBREVIATIONS = new Set(Object.values(LOCATION_STATE_REGULATOR));

/** The state as its abbreviation: an AVETMISS state code (01…08) becomes NSW…ACT; other territories and overseas (09, 99) name no state; anything else is kept as given. */
export function stateAbbreviation(state: string | null | undefined): string | null {
  if (!state || state === "09" || state === "99") return null;
  return LOCATION_STATE_REGULATOR[state] ?? state;
}

/** "Town NSW 2000" (the last part of an Australian address as people type it). */
const TOWN_STATE_POSTCODE = /^(.*?)[\s,]+([A-Za-z]{2,3})[\s,]+(\d{4})$/;

/**
 * An address typed as free text (lines or commas) split into its fields: a last part reading
 * "Town STATE 0000" gives the town, state and postcode; the parts before it are the street lines
 * (a third and later part joined onto the second, as an invoice keeps two).
 */
export function parseAddress(text: string | null | undefined): PostalAddress {
  const parts = (text ?? "")
    .split(/\r?\n|,/)
    .map((p) => p.trim())
    .filter(Boolean);
  let city: string | null = null;
  let region: string | null = null;
  let postcode: string | null = null;
  const last = parts.at(-1)?.match(TOWN_STATE_POSTCODE);
  if (last && STATE_ABBREVIATIONS.has(last[2].toUpperCase() as never)) {
    parts.pop();
    city = last[1].trim() || null;
    region = last[2].toUpperCase();
    postcode = last[3];
  }
  const [first, ...rest] = parts;
  return { line1: first ?? null, line2: rest.length ? rest.join(", ") : null, city, region, postcode, country: first || city ? "Australia" : null };
}

/**
 * A learner's address from their AVETMISS details (building, unit, street number and name,
 * suburb, state, postcode), or from the address they typed when those are not given.
 */
export function learnerAddress(learner: {
  address: string | null;
  address_building: string | null;
  address_unit: string | null;
  address_street_number: string | null;
  address_street_name: string | null;
  suburb: string | null;
  state: string | null;
  postcode: string | null;
}): PostalAddress {
  const number = [learner.address_unit, learner.address_street_number].filter(Boolean).join("/");
  const street = [number, learner.address_street_name].filter(Boolean).join(" ");
  const typed = parseAddress(learner.address);
  const lines =
    learner.address_building || street
      ? { line1: learner.address_building || street, line2: learner.address_building ? street || null : null }
      : { line1: typed.line1, line2: typed.line2 };
  const city = learner.suburb ?? typed.city;
  const region = stateAbbreviation(learner.state) ?? typed.region;
  const postcode = learner.postcode ?? typed.postcode;
  return { ...lines, city, region, postcode, country: lines.line1 || city ? "Australia" : null };
}
