import { describe, expect, it } from "vitest";
import { workerCount, workerFlags } from "./serve.mjs";

describe("npm start's workers", () => {
  it("get 16 MB young-generation semi-spaces unless NODE_OPTIONS or the command line sets a size", () => {
    expect(workerFlags("", [])).toEqual(["--max-semi-space-size=16"]);
    expect(workerFlags("", ["--enable-source-maps"])).toEqual(["--enable-source-maps", "--max-semi-space-size=16"]);
    expect(workerFlags("--max-semi-space-size=8", [])).toEqual([]);
    expect(workerFlags("", ["--max-semi-space-size=32"])).toEqual(["--max-semi-space-size=32"]);
  });

  it("number WEB_CONCURRENCY, or the cores, and refuse anything else with a sentence", () => {
    expect(workerCount(undefined, 4)).toEqual({ count: 4 });
    expect(workerCount(" 3 ", 4)).toEqual({ count: 3 });
    expect(workerCount("0", 4).error).toMatch(/whole number of workers from 1 to 256/);
    expect(workerCount("two", 4).error).toMatch(/got "two"/);
  });
});
