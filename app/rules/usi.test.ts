import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { USI_ALPHABET, isValidUsi, normaliseUsi, usiCheckCharacter, usiFromBody } from "./usi";

// Test vectors published with onCourse's UsiUtilTest, re-checked by hand in the worked example.
const VALID = ["2GF2UGXXV8", "ZTCP6RPU6M", "KLP2ZP6NCW", "G2RN4G89SD", "PCVA64XU3D", "CVPZXK7N9H", "QBK9UZYQNJ", "W2NBT2FW66", "TSXEDK8HVP"];

describe("USI check character", () => {
  it("computes the worked example: body 2GF2UGXXV gives 8", () => {
    expect(usiCheckCharacter("2GF2UGXXV")).toBe("8");
  });

  it.each(VALID)("accepts %s", (usi) => {
    expect(isValidUsi(usi)).toBe(true);
  });

  it("refuses a letter outside the alphabet, a wrong check character and lower case", () => {
    expect(isValidUsi("HGDFSGYHIG")).toBe(false);
    expect(isValidUsi("5U9HD88TA3")).toBe(false);
    expect(isValidUsi("2GF2ugxxv8")).toBe(false);
  });

  it("refuses wrong lengths, 0/1/O/I and anything but the two exemption codes", () => {
    for (const bad of ["", "2GF2UGXXV", "2GF2UGXXV88", "0GF2UGXXV8", "1GF2UGXXV8", "OGF2UGXXV8", "EXEMPT", "indiv", "INDIV ", "２GF2UGXXV8"]) {
      expect(isValidUsi(bad), bad).toBe(false);
    }
    expect(isValidUsi("INDIV")).toBe(true);
    expect(isValidUsi("INTOFF")).toBe(true);
  });

  it("normalises by trimming and upper-casing", () => {
    expect(normaliseUsi("  2gf2ugxxv8 \n")).toBe("2GF2UGXXV8");
    expect(isValidUsi(normaliseUsi(" 2gf2ugxxv8 "))).toBe(true);
  });

  const body = fc.array(fc.constantFrom(...USI_ALPHABET), { minLength: 9, maxLength: 9 }).map((cs) => cs.join(""));

  it("accepts every generated USI and catches any single changed character", () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: USI_ALPHABET.length - 1 }), (b, at, shift) => {
        const usi = usiFromBody(b);
        expect(isValidUsi(usi)).toBe(true);
        const changed = USI_ALPHABET[(USI_ALPHABET.indexOf(usi[at]!) + shift) % USI_ALPHABET.length]!;
        const typo = usi.slice(0, at) + changed + usi.slice(at + 1);
        expect(isValidUsi(typo)).toBe(false);
      }),
      { seed: 17, numRuns: 500 },
    );
  });

  // Like decimal Luhn with 09/90, Luhn mod 32 cannot see the first and last alphabet characters swapped.
  it("catches a swap of two adjacent different characters, except 2 and Z", () => {
    fc.assert(
      fc.property(body, fc.integer({ min: 0, max: 7 }), (b, at) => {
        fc.pre(b[at] !== b[at + 1] && `${b[at]}${b[at + 1]}` !== "2Z" && `${b[at]}${b[at + 1]}` !== "Z2");
        const usi = usiFromBody(b);
        const swapped = usi.slice(0, at) + usi[at + 1] + usi[at] + usi.slice(at + 2);
        expect(isValidUsi(swapped)).toBe(false);
      }),
      { seed: 17, numRuns: 2000 },
    );
  });
});
