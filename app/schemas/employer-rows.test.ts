import { describe, expect, it } from "vitest";
import { workerRowErrors } from "./employer";

describe("worker rows", () => {
  it("an error in a worker's row is keyed to that row's field and names the worker; blank and good rows have none", () => {
    const errors = workerRowErrors({ worker_name_0: "Ana Ruiz", worker_email_0: "ana@example.com", worker_name_2: "Ben Ito", worker_email_2: "not-an-address" }, 3);
    expect(Object.keys(errors)).toEqual(["worker_email_2"]);
    expect(errors.worker_email_2).toMatch(/^Worker 3: /);
  });
});
