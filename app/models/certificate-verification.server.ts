import type { DB } from "#db/connection";
import { REQUEST_LIMITS, takeRequest } from "~/auth/request-limits.server";
import { normaliseVerificationCode } from "./certificate-number.server";
import { verifyCertificate, type CertificateVerification } from "./certificate.server";

/**
 * Anyone's check of a certificate by its code (the /verify page and GET /api/verify/{code}):
 * under a request limit per client, and the same "not found" for a malformed code as for an unknown
 * one, so an answer never tells how close a guess came.
 */

export const NO_CERTIFICATE = "No certificate found";
export const VERIFY_LIMITED = "Too many verification requests from this address; try again in a few minutes.";

export type VerificationLookup =
  | { kind: "found"; verification: CertificateVerification }
  | { kind: "not-found" }
  | { kind: "limited"; retryAfterSeconds: number };

export async function lookUpVerification(db: DB, input: { code: string; client: string; now?: Date }): Promise<VerificationLookup> {
  const decision = await takeRequest(db, [REQUEST_LIMITS.verification], { client: input.client }, input.now);
  if (!decision.ok) return { kind: "limited", retryAfterSeconds: decision.retryAfterSeconds };
  const code = normaliseVerificationCode(input.code);
  const verification = code ? await verifyCertificate(db, code) : null;
  return verification ? { kind: "found", verification } : { kind: "not-found" };
}
