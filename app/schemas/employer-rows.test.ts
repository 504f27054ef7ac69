import { describe, expect, it } from "vitest";
import { workerFormErrors, workerRefusalErrors, workerRowErrors } from "./employer";

describe("worker rows", () => {
  it("an error in a worker's row is keyed to that row's field and names the worker; blank and good rows have none", () => {
    const errors = workerRowErrors({
      worker_name_0: "Ana Ruiz",
      worker_email_0: "ana@example.com",
      worker_name_2: "Ben Ito",
      worker_email_2: "not-an-address",
    });
    expect(Object.keys(errors)).toEqual(["worker_email_2"]);
    expect(errors.worker_email_2).toMatch(/^Worker 3: /);
  });

  it("the group's error becomes each row's own, in the form's order after the fields above the rows", () => {
    const values = { class_id: "", worker_name_0: "", worker_email_0: "x", worker_name_1: "Cy Oh", worker_email_1: "bad" };
    const errors = workerFormErrors({ class_id: "Choose a class", workers: "Invalid email" }, values);
    expect(Object.keys(errors)).toEqual(["class_id", "worker_name_0", "worker_email_0", "worker_email_1"]);
  });

  it("a worker the model refuses is named at that worker's email field (the Nth filled row)", () => {
    const values = {
      worker_name_0: "",
      worker_email_0: "",
      worker_name_1: "Di Po",
      worker_email_1: "di@example.com",
      worker_name_2: "Ed Yu",
      worker_email_2: "ed@example.com",
    };
    expect(workerRefusalErrors({ message: "Refused", field: "workers.1", fieldErrors: {} }, values)).toEqual({ worker_email_2: "Worker 3: Refused" });
    expect(workerRefusalErrors({ message: "Too many", field: "workers", fieldErrors: {} }, values)).toEqual({ workers: "Too many" });
  });
});
