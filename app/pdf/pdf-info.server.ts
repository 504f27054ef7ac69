/**
 * Chromium writes a PDF's Title (from <title>) but no Author. This adds entries to the
 * document information dictionary with a PDF incremental update: the original bytes stay as
 * they are and a new Info object, a one-entry cross-reference section and a trailer pointing
 * back to the previous one are appended (ISO 32000-1, 7.5.6). Only classic cross-reference
 * tables are handled, which is what Chromium (Skia) writes.
 */

export type PdfInfoFields = Partial<Record<"Title" | "Author" | "Subject" | "Keywords" | "Creator", string>>;

/** A PDF text string: UTF-16BE with a byte-order mark, hex-encoded, so any character is safe. */
export function pdfTextString(value: string): string {
  let hex = "FEFF";
  for (let i = 0; i < value.length; i++) hex += value.charCodeAt(i).toString(16).padStart(4, "0").toUpperCase();
  return `<${hex}>`;
}

/** The entries of a flat dictionary (`<< /Key value ... >>`), each value kept as its source text. */
export function parseFlatDictionary(source: string): Map<string, string> {
  const entries = new Map<string, string>();
  const start = source.indexOf("<<");
  if (start < 0) throw new Error("No dictionary");
  let i = start + 2;
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i]!)) i++;
  };
  const readValue = (): string => {
    const from = i;
    const c = source[i];
    if (c === "(") {
      let depth = 0;
      for (; i < source.length; i++) {
        const ch = source[i];
        if (ch === "\\") i++;
        else if (ch === "(") depth++;
        else if (ch === ")" && --depth === 0) break;
      }
      i++;
    } else if (c === "<" && source[i + 1] !== "<") {
      i = source.indexOf(">", i) + 1;
    } else if (c === "/") {
      i++;
      while (i < source.length && !/[\s/<>()[\]]/.test(source[i]!)) i++;
    } else {
      // numbers, booleans, references ("12 0 R"), arrays: up to the next key or the end
      while (i < source.length && source[i] !== "/" && !source.startsWith(">>", i)) {
        if (source[i] === "[") i = source.indexOf("]", i);
        i++;
      }
    }
    if (i <= from) throw new Error("Unreadable dictionary value");
    return source.slice(from, i).trim();
  };
  for (;;) {
    skipSpace();
    if (i >= source.length) throw new Error("Unterminated dictionary");
    if (source.startsWith(">>", i)) return entries;
    if (source[i] !== "/") throw new Error(`Unexpected ${JSON.stringify(source[i])} in dictionary`);
    const keyStart = ++i;
    while (i < source.length && !/[\s/<>()[\]]/.test(source[i]!)) i++;
    const key = source.slice(keyStart, i);
    skipSpace();
    entries.set(key, readValue());
  }
}

/** Sets entries of the PDF's document information dictionary; returns new bytes. */
export function setPdfInfo(pdf: Buffer, fields: PdfInfoFields): Buffer {
  const text = pdf.toString("latin1");
  const tail = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(text.slice(-256));
  if (!tail) throw new Error("PDF has no startxref");
  const prevXref = Number(tail[1]);
  if (!text.startsWith("xref", prevXref)) throw new Error("PDF uses a cross-reference stream, which is not supported");
  const trailerAt = text.indexOf("trailer", prevXref);
  if (trailerAt < 0) throw new Error("PDF has no trailer");
  const trailer = parseFlatDictionary(text.slice(trailerAt + "trailer".length));
  const size = Number(trailer.get("Size"));
  const root = trailer.get("Root");
  if (!Number.isInteger(size) || !root) throw new Error("PDF trailer lacks Size or Root");

  let objectNumber = size;
  let generation = 0;
  let info = new Map<string, string>();
  const infoRef = /^(\d+)\s+(\d+)\s+R$/.exec(trailer.get("Info") ?? "");
  if (infoRef) {
    objectNumber = Number(infoRef[1]);
    generation = Number(infoRef[2]);
    const header = new RegExp(`(?:^|[\\r\\n\\s])${objectNumber}\\s+${generation}\\s+obj\\b`, "g");
    let at = -1;
    for (const m of text.matchAll(header)) at = m.index! + m[0].length;
    if (at < 0) throw new Error("PDF Info object not found");
    info = parseFlatDictionary(text.slice(at, text.indexOf("endobj", at)));
  }
  for (const [key, value] of Object.entries(fields)) {
    if (value !== undefined) info.set(key, pdfTextString(value));
  }

  const separator = text.endsWith("\n") ? "" : "\n";
  const objectOffset = pdf.length + separator.length;
  const body = [...info].map(([k, v]) => `/${k} ${v}`).join("\n");
  const object = `${objectNumber} ${generation} obj\n<<${body}>>\nendobj\n`;
  const xrefOffset = objectOffset + Buffer.byteLength(object, "latin1");
  const newSize = Math.max(size, objectNumber + 1);
  const id = trailer.has("ID") ? ` /ID ${trailer.get("ID")}` : "";
  const update =
    separator +
    object +
    `xref\n${objectNumber} 1\n${String(objectOffset).padStart(10, "0")} ${String(generation).padStart(5, "0")} n \n` +
    `trailer\n<</Size ${newSize} /Root ${root} /Info ${objectNumber} ${generation} R /Prev ${prevXref}${id}>>\n` +
    `startxref\n${xrefOffset}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(update, "latin1")]);
}
