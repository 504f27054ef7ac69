/**
 * What each certification document the RTO issues is called: the one home of these words, read
 * by the portal's pages, the PDF and its file name. Under the AQF a unit of competency (or a few)
 * short of a qualification earns a statement of attainment; a whole qualification earns a
 * testamur. A course's national code says which: a qualification's is three letters and five
 * digits (CPC30220), a unit's is longer (CPCCLRG3001, TLILIC0040).
 */
export const CERTIFICATION_DOCUMENTS = {
  statement_of_attainment: { title: "Statement of Attainment", short: "SoA" },
  qualification: { title: "Testamur", short: "Testamur" },
} as const;

export type CertificationKind = keyof typeof CERTIFICATION_DOCUMENTS;

const QUALIFICATION_CODE = /^[A-Z]{3}\d{5}$/;

/** The kind of document a course's national code earns. */
export function certificationKind(nationalCode: string): CertificationKind {
  return QUALIFICATION_CODE.test(nationalCode.trim().toUpperCase()) ? "qualification" : "statement_of_attainment";
}

/** The document's title for a course: "Statement of Attainment" for a unit. */
export function certificationTitle(nationalCode: string): string {
  return CERTIFICATION_DOCUMENTS[certificationKind(nationalCode)].title;
}

/** Letters and digits only, in ASCII, words joined by hyphens: "Zoë O'Brien" is "Zoe-OBrien". */
function asciiWords(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['\u2019]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The downloaded PDF's name, by document, number and learner, in ASCII so every system keeps it
 * (SoA-CR-2026-00012-Jordan-Mitchell.pdf), and the same with the learner's name as written for
 * clients that read RFC 6266's filename*.
 */
export function certificateFileName(input: { nationalCode: string; number: string; learner: string }): { ascii: string; unicode: string } {
  const short = CERTIFICATION_DOCUMENTS[certificationKind(input.nationalCode)].short;
  const number = asciiWords(input.number) || "certificate";
  const ascii = [short, number, asciiWords(input.learner)].filter(Boolean).join("-");
  const learner = input.learner
    .normalize("NFC")
    .trim()
    .replace(/[\s/\\:*?"<>|]+/g, "-");
  const unicode = [short, number, learner].filter(Boolean).join("-");
  return { ascii: `${ascii}.pdf`, unicode: `${unicode}.pdf` };
}

/** An attachment's Content-Disposition with both names (RFC 6266, RFC 8187). */
export function attachmentDisposition(name: { ascii: string; unicode: string }): string {
  const encoded = encodeURIComponent(name.unicode).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${name.ascii}"; filename*=UTF-8''${encoded}`;
}

/** The file name an attachment's Content-Disposition gives (filename* first), or null. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // a malformed escape: fall back to the plain name
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}
