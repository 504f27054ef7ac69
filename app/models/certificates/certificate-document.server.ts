import type { Selectable } from "kysely";
import type { DB } from "#db/connection";
import type { CertificateDocumentsTable, Tier } from "#db/schema";
import { certificateUnitTitle } from "./certificate.server";

/** What a certificate's document prints: never the student's id, USI or date of birth. */
export interface CertificateDocumentRecord {
  id: string;
  certificate_number: string;
  tier_achieved: Tier;
  issue_date: string;
  verification_code: string;
  learner_full_name: string;
  /** where the learner is told of it (never printed) */
  learner_email: string;
  /** the unit's official title (certificateUnitTitle) */
  unit_title: string;
  unit_code: string;
  /** set once an administrator revoked it */
  revoked_at: string | null;
  /** the number of the certificate that replaced it, once reissued */
  replaced_by_number: string | null;
}

/**
 * Everything the certificate document needs, by certificate id. No access rule here: callers
 * first check the viewer with getCertificateForViewer (or are the issuing code itself).
 */
export async function getCertificateDocumentRecord(db: DB, id: string): Promise<CertificateDocumentRecord | null> {
  const row = await documentRecordQuery(db).where("certificates.id", "=", id).executeTakeFirst();
  return row ?? null;
}

/** Keeps a certificate's rendered PDF (replacing an earlier render of it). */
export async function storeCertificateDocument(db: DB, certificateId: string, document: StoredCertificateDocument): Promise<void> {
  await db
    .insertInto("certificate_documents")
    .values({ certificate_id: certificateId, ...document })
    .onConflict((oc) => oc.column("certificate_id").doUpdateSet(document))
    .execute();
}

/** A certificate's PDF as stored, with the version it was rendered for. */
export type StoredCertificateDocument = Omit<Selectable<CertificateDocumentsTable>, "certificate_id">;

/**
 * The document record and the stored PDF (null when none is stored yet) in one query: a
 * download reads both every time. Null for an unknown certificate.
 */
export async function getCertificateDocumentWithStored(
  db: DB,
  id: string,
): Promise<{ record: CertificateDocumentRecord; stored: StoredCertificateDocument | null } | null> {
  const row = await documentRecordQuery(db)
    .leftJoin("certificate_documents as d", "d.certificate_id", "certificates.id")
    .select(["d.template_version", "d.pdf", "d.byte_length", "d.rendered_at"])
    .where("certificates.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  const { template_version, pdf, byte_length, rendered_at, ...record } = row;
  const stored = template_version !== null && pdf !== null && byte_length !== null && rendered_at !== null;
  return { record, stored: stored ? { template_version, pdf, byte_length, rendered_at } : null };
}

function documentRecordQuery(db: DB) {
  return db
    .selectFrom("certificates")
    .innerJoin("courses", "courses.id", "certificates.course_id")
    .innerJoin("users", "users.id", "certificates.student_id")
    .select([
      "certificates.id",
      "certificates.certificate_number",
      "certificates.tier_achieved",
      "certificates.issue_date",
      "certificates.verification_code",
      "users.full_name as learner_full_name",
      "users.email as learner_email",
      certificateUnitTitle.as("unit_title"),
      "courses.unit_code",
      "certificates.revoked_at",
      (eb) =>
        eb
          .selectFrom("certificates as successor")
          .select("successor.certificate_number")
          .whereRef("successor.replaces_id", "=", "certificates.id")
          .limit(1)
          .as("replaced_by_number"),
    ]);
}
