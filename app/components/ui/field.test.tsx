import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SelectField } from "./field";

const options = [
  { value: "tier_1", label: "Tier 1" },
  { value: "tier_2", label: "Tier 2" },
];

describe("SelectField", () => {
  it("says a list that always has a choice is required to assistive technology only (HTML allows `required` on a list that starts empty)", () => {
    const html = renderToStaticMarkup(<SelectField label="Tier" name="tier" required defaultValue="tier_1" options={options} />);
    expect(html).not.toMatch(/<select[^>]* required/);
    expect(html).toMatch(/<select[^>]* aria-required="true"/);
  });

  it("keeps `required` on a list that starts empty", () => {
    const withPlaceholder = renderToStaticMarkup(<SelectField label="Tier" name="tier" required placeholder="Choose the tier" options={options} />);
    expect(withPlaceholder).toMatch(/<select[^>]* required=""/);
    expect(withPlaceholder).toMatch(/<option value="">Choose the tier<\/option>/);
    const emptyFirst = renderToStaticMarkup(<SelectField label="Tier" name="tier" required options={[{ value: "", label: "Choose the tier" }, ...options]} />);
    expect(emptyFirst).toMatch(/<select[^>]* required=""/);
  });
});
