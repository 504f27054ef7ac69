import crypto from "node:crypto";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DB } from "#db/connection";
import type { Tier } from "#db/schema";
import { newVerificationCode, nextCertificateNumber } from "~/models/certificates/certificate-number.server";
import { makeCourse, makeEnrollment, makeUser } from "./factories";

/** Test helpers for the certificate PDF tests (poppler-utils reads the PDFs). */

const run = promisify(execFile);

/** A student who completed a course and holds its certificate. */
export async function makeCertifiedStudent(
  db: DB,
  options: { fullName?: string; courseName?: string; officialTitle?: string; unitCode?: string; tier?: Tier; issueDate?: string } = {},
) {
  const student = await makeUser(db, { full_name: options.fullName ?? "Jordan Mitchell", role: "student" });
  const course = await makeCourse(db, {
    name: options.courseName ?? "Licence to perform dogging (DG)",
    official_title: options.officialTitle ?? null,
    unit_code: options.unitCode ?? "CPCCLDG3001",
    tier: options.tier ?? "tier_1",
  });
  const enrollment = await makeEnrollment(db, student.id, course.id, { status: "completed", progress: 100 });
  const issued = new Date(options.issueDate ?? "2026-03-14T01:00:00.000Z");
  const id = crypto.randomUUID();
  const number = await nextCertificateNumber(db, issued);
  const code = newVerificationCode();
  await db
    .insertInto("certificates")
    .values({
      id,
      certificate_number: number,
      student_id: student.id,
      course_id: course.id,
      enrollment_id: enrollment.id,
      tier_achieved: options.tier ?? "tier_1",
      issue_date: issued.toISOString(),
      issued_by: null,
      verification_code: code,
      created_at: issued.toISOString(),
    })
    .execute();
  return { student, course, certificate: { id, number, code } };
}

async function withPdfFile<T>(pdf: Buffer, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cert-pdf-"));
  const file = path.join(dir, "certificate.pdf");
  fs.writeFileSync(file, pdf);
  try {
    return await fn(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The PDF's text with runs of whitespace (line breaks included) made single spaces. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const { stdout } = await withPdfFile(pdf, (file) => run("pdftotext", ["-enc", "UTF-8", file, "-"]));
  return stdout.replace(/\s+/g, " ").trim();
}

/** pdfinfo's fields, and whatever it complained about on stderr (empty for a sound file). */
export async function pdfInfo(pdf: Buffer): Promise<{ fields: Record<string, string>; warnings: string }> {
  const { stdout, stderr } = await withPdfFile(pdf, (file) => run("pdfinfo", ["-enc", "UTF-8", file]));
  const fields: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const m = /^([^:]+):\s*(.*)$/.exec(line);
    if (m) fields[m[1]!.trim()] = m[2]!.trim();
  }
  return { fields, warnings: stderr.trim() };
}

/** The base names of the fonts embedded in the PDF (pdffonts), subset prefixes removed. */
export async function pdfFonts(pdf: Buffer): Promise<Array<{ name: string; embedded: boolean }>> {
  const { stdout } = await withPdfFile(pdf, (file) => run("pdffonts", [file]));
  return stdout
    .split("\n")
    .slice(2)
    .filter((line) => line.trim())
    .map((line) => {
      const cols = line.trim().split(/\s+/);
      return { name: cols[0]!.replace(/^[A-Z]{6}\+/, ""), embedded: cols[cols.length - 5] === "yes" };
    });
}
