import { recognitionAuthenticateInput, type RecognitionAuthenticateInput } from "~/schemas/recognition";

/**
 * A credit transfer's statement as the office checks it before a grant: another RTO's code, the
 * statement's number, how and when it was checked (a day already past), the same unit held.
 */
export const checkedStatement = (): RecognitionAuthenticateInput =>
  recognitionAuthenticateInput.parse({
    issuing_rto_code: "90001",
    document_number: "SOA-778",
    checked_how: "Confirmed with the issuing RTO by phone and against its register",
    checked_on: "2026-12-01",
    equivalence: "same",
  });
