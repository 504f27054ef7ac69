import { describe, expect, it } from "vitest";
import { workerCount, workerFlags } from "./serve.mjs";

describe("npm start's workers", () => {
  it("get 16 MB young-generation semi-spaces and a 160 MB old generation unless NODE_OPTIONS or the command line sets a size", () => {
    const both = ["--max-semi-space-size=16", "--max-old-space-size=160"];
    expect(workerFlags("", [])).toEqual(both);
    expect(workerFlags("", ["--enable-source-maps"])).toEqual(["--enable-source-maps", ...both]);
    expect(workerFlags("--max-semi-space-size=8", [])).toEqual(["--max-old-space-size=160"]);
    expect(workerFlags("", ["--max-semi-space-size=32"])).toEqual(["--max-semi-space-size=32", "--max-old-space-size=160"]);
    expect(workerFlags("--max-old-space-size=512", [])).toEqual(["--max-semi-space-size=16"]);
    expect(workerFlags("", ["--max-old-space-size=96"])).toEqual(["--max-old-space-size=96", "--max-semi-space-size=16"]);
  });

  it("number WEB_CONCURRENCY, or the cores, and refuse anything else with a sentence", () => {
    expect(workerCount(undefined, 4)).toEqual({ count: 4 });
    expect(workerCount(" 3 ", 4)).toEqual({ count: 3 });
    expect(workerCount("0", 4).error).toMatch(/whole number of workers from 1 to 256/);
    expect(workerCount("two", 4).error).toMatch(/got "two"/);
  });
});
