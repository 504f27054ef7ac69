import { PDFDocument } from "pdf-lib";

/**
 * Chromium writes a PDF's Title (from <title>) but no Author, Subject or Creator. pdf-lib opens the
 * printed bytes and sets those entries of the document information dictionary; the page content
 * is carried over untouched. `updateMetadata: false` keeps pdf-lib from stamping its own Producer
 * and dates, so the file says who printed it (Chromium) and when.
 */
export type PdfInfoFields = Partial<Record<"Title" | "Author" | "Subject" | "Keywords" | "Creator", string>>;

/** Sets entries of the PDF's document information dictionary; returns new bytes. */
export async function setPdfInfo(pdf: Uint8Array, fields: PdfInfoFields): Promise<Buffer> {
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  if (fields.Title !== undefined) document.setTitle(fields.Title);
  if (fields.Author !== undefined) document.setAuthor(fields.Author);
  if (fields.Subject !== undefined) document.setSubject(fields.Subject);
  if (fields.Keywords !== undefined) document.setKeywords([fields.Keywords]);
  if (fields.Creator !== undefined) document.setCreator(fields.Creator);
  return Buffer.from(await document.save({ useObjectStreams: false }));
}
