import { describe, expect, it } from "vitest";
import { parseFlatDictionary, pdfTextString, setPdfInfo } from "./pdf-info.server";
import { pdfInfo, pdfText } from "./test-fixtures";

/** A small, valid one-page PDF with a classic xref table, optionally with an Info dictionary. */
function minimalPdf(info?: string): Buffer {
  const objects = [
    "<</Type /Catalog /Pages 2 0 R>>",
    "<</Type /Pages /Kids [3 0 R] /Count 1>>",
    "<</Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources <</Font <</F1 5 0 R>>>>>>",
    "<</Length 44>>\nstream\nBT /F1 12 Tf 20 50 Td (Hello there) Tj ET\nendstream",
    "<</Type /Font /Subtype /Type1 /BaseFont /Helvetica>>",
  ];
  if (info) objects.push(info);
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<</Size ${objects.length + 1} /Root 1 0 R${info ? ` /Info ${objects.length} 0 R` : ""}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** Every xref section's entries point at the object they name, and every /Prev at an xref. */
function checkXrefChain(pdf: Buffer) {
  const text = pdf.toString("latin1");
  let at = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  let sections = 0;
  for (;;) {
    expect(text.startsWith("xref", at)).toBe(true);
    sections += 1;
    const lines = text.slice(at).split("\n");
    let i = 1;
    while (/^\d+ \d+$/.test(lines[i]!)) {
      const [first, count] = lines[i]!.split(" ").map(Number) as [number, number];
      for (let k = 0; k < count; k++) {
        const entry = lines[i + 1 + k]!;
        expect(entry.length + 1, "xref entries are 20 bytes").toBe(20);
        if (entry.endsWith("n ")) expect(text.startsWith(`${first + k} `, Number(entry.slice(0, 10)))).toBe(true);
      }
      i += 1 + count;
    }
    const prev = /\/Prev (\d+)/.exec(text.slice(text.indexOf("trailer", at), text.indexOf("startxref", at)));
    if (!prev) return sections;
    at = Number(prev[1]);
  }
}

describe("pdfTextString", () => {
  it("encodes any text as UTF-16BE hex with a byte-order mark", () => {
    expect(pdfTextString("A&")).toBe("<FEFF00410026>");
    expect(pdfTextString("Zoë (x)")).toBe("<FEFF005A006F00EB0020002800780029>");
    expect(pdfTextString("🏗")).toBe("<FEFFD83CDFD7>");
  });
});

describe("parseFlatDictionary", () => {
  it("reads literal strings with escapes and nested brackets, hex strings, names and references", () => {
    const dict = parseFlatDictionary(
      "<</Title (A \\(quoted\\) and (nested (deep)) title) /Author <FEFF0041> /Root 13 0 R /Trapped /False /ID [<AB> <CD>]\n/Size 18>>",
    );
    expect(Object.fromEntries(dict)).toEqual({
      Title: "(A \\(quoted\\) and (nested (deep)) title)",
      Author: "<FEFF0041>",
      Root: "13 0 R",
      Trapped: "/False",
      ID: "[<AB> <CD>]",
      Size: "18",
    });
  });

  it("refuses what is not a dictionary", () => {
    expect(() => parseFlatDictionary("(just a string)")).toThrow();
    expect(() => parseFlatDictionary("<</Title (never closed")).toThrow();
  });
});

describe("setPdfInfo", () => {
  it("adds an Author while keeping the existing entries, as a sound incremental update", async () => {
    const original = minimalPdf("<</Title (Old title) /Producer (Hand made) /CreationDate (D:20260101000000Z)>>");
    const updated = setPdfInfo(original, { Author: "Summit Crane & Rigging Training", Title: "Certificate SCR-2026-00001 — Dogging" });
    expect(updated.subarray(0, original.length).equals(original), "the original bytes are untouched").toBe(true);
    expect(checkXrefChain(updated)).toBe(2);
    const { fields, warnings } = await pdfInfo(updated);
    expect(warnings).toBe("");
    expect(fields.Author).toBe("Summit Crane & Rigging Training");
    expect(fields.Title).toBe("Certificate SCR-2026-00001 — Dogging");
    expect(fields.Producer).toBe("Hand made");
    expect(await pdfText(updated)).toBe("Hello there");
  });

  it("creates an Info dictionary when there is none", async () => {
    const updated = setPdfInfo(minimalPdf(), { Author: "Ünïcode RTO" });
    expect(checkXrefChain(updated)).toBe(2);
    const { fields, warnings } = await pdfInfo(updated);
    expect(warnings).toBe("");
    expect(fields.Author).toBe("Ünïcode RTO");
    expect(fields.Pages).toBe("1");
  });

  it("can be applied again: the last update wins", async () => {
    const twice = setPdfInfo(setPdfInfo(minimalPdf("<</Producer (P)>>"), { Author: "First" }), { Author: "Second", Subject: "S" });
    expect(checkXrefChain(twice)).toBe(3);
    const { fields, warnings } = await pdfInfo(twice);
    expect(warnings).toBe("");
    expect(fields).toMatchObject({ Author: "Second", Subject: "S", Producer: "P" });
  });

  it("refuses a file it cannot update rather than corrupting it", () => {
    expect(() => setPdfInfo(Buffer.from("%PDF-1.7\nnot really\n"), { Author: "x" })).toThrow(/startxref/);
    const xrefStream = Buffer.from("%PDF-1.5\n1 0 obj\n<</Type /XRef>>\nendobj\nstartxref\n9\n%%EOF\n", "latin1");
    expect(() => setPdfInfo(xrefStream, { Author: "x" })).toThrow(/cross-reference stream/);
  });
});
