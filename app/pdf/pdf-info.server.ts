/**
 * Chromium writes a PDF's Title (from <title>) but no Author, Subject or Creator. pdf-lib opens the
 * printed bytes and sets those entries of the document information dictionary; the page content
 * is carried over untouched. `updateMetadata: false` keeps pdf-lib from stamping its own Producer
 * and dates, so the file says who printed it (Chromium) and when.
 */
export type PdfInfoFields = Partial<Record<"Title" | "Author" | "Subject" | "Keywords" | "Creator", string>>;

/** Sets entries of the PDF's document information dictionary; returns new bytes. */
export async function setPdfInfo(pdf: Uint8Array, fields: PdfInfoFields): Promise<Buffer> {
  // pdf-lib is loaded at the first PDF, not at every worker's start
  const { PDFDocument } = await import("pdf-lib");
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  if (fields.Title !== undefined) document.setTitle(fields.Title);
  if (fields.Author !== undefined) document.setAuthor(fields.Author);
  if (fields.Subject !== undefined) document.setSubject(fields.Subject);
  if (fields.Keywords !== undefined) document.setKeywords([fields.Keywords]);
  if (fields.Creator !== undefined) document.setCreator(fields.Creator);
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

/**
 * Writes `text` in large red capitals diagonally across every page (a revoked or replaced
 * certificate), and once more in a line along the top edge, which text extraction and screen
 * readers read in order: drawn into the page content, so it prints and no viewer hides it.
 */
export async function stampAcross(pdf: Uint8Array, text: string): Promise<Buffer> {
  const { degrees, PDFDocument, rgb, StandardFonts } = await import("pdf-lib");
  const document = await PDFDocument.load(pdf, { updateMetadata: false });
  const font = await document.embedFont(StandardFonts.HelveticaBold);
  for (const page of document.getPages()) {
    const { width, height } = page.getSize();
    const angle = Math.atan2(height, width);
    const size = Math.min(72, (Math.hypot(width, height) * 0.8) / font.widthOfTextAtSize(text, 1));
    const textWidth = font.widthOfTextAtSize(text, size);
    // centred on the page: start half the text's length back along the diagonal
    const x = width / 2 - (Math.cos(angle) * textWidth) / 2 + (Math.sin(angle) * size) / 3;
    const y = height / 2 - (Math.sin(angle) * textWidth) / 2 - (Math.cos(angle) * size) / 3;
    page.drawText(text, { x, y, size, font, color: rgb(0.75, 0.07, 0.07), opacity: 0.55, rotate: degrees((angle * 180) / Math.PI) });
    const line = `${text}: this document is no longer valid`;
    const lineSize = 11;
    page.drawText(line, { x: (width - font.widthOfTextAtSize(line, lineSize)) / 2, y: height - 18, size: lineSize, font, color: rgb(0.75, 0.07, 0.07) });
  }
  return Buffer.from(await document.save({ useObjectStreams: false }));
}
