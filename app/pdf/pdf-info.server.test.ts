import { describe, expect, it } from "vitest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { setPdfInfo } from "./pdf-info.server";
import { pdfInfo, pdfText } from "../../tests/support/pdf-fixtures";

/** A one-page PDF with a line of text and the given Title and Producer, as a printer would leave it. */
async function printedPdf(): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = document.addPage([200, 100]);
  page.drawText("Hello there", { x: 20, y: 50, size: 12, font: await document.embedFont(StandardFonts.Helvetica) });
  document.setTitle("Old title");
  document.setProducer("Hand made");
  return Buffer.from(await document.save());
}

describe("setPdfInfo", () => {
  it("sets Author, Title and Subject, keeps the Producer and the page's text", async () => {
    const updated = await setPdfInfo(await printedPdf(), {
      Author: "Summit Crane & Rigging Training",
      Title: "Certificate SCR-2026-00001 — Dogging",
      Subject: "Statement of attainment: CPCCLDG3001 Licence to perform dogging",
    });
    const { fields, warnings } = await pdfInfo(updated);
    expect(warnings).toBe("");
    expect(fields.Author).toBe("Summit Crane & Rigging Training");
    expect(fields.Title).toBe("Certificate SCR-2026-00001 — Dogging");
    expect(fields.Subject).toBe("Statement of attainment: CPCCLDG3001 Licence to perform dogging");
    expect(fields.Producer).toBe("Hand made");
    expect(fields.Pages).toBe("1");
    expect(await pdfText(updated)).toBe("Hello there");
  });

  it("writes any Unicode text, and a second call's values win", async () => {
    const once = await setPdfInfo(await printedPdf(), { Author: "Ünïcode RTO 🏗" });
    const twice = await setPdfInfo(once, { Author: "Second", Creator: "C" });
    expect((await pdfInfo(once)).fields.Author).toBe("Ünïcode RTO 🏗");
    expect((await pdfInfo(twice)).fields).toMatchObject({ Author: "Second", Creator: "C", Title: "Old title" });
  });

  it("refuses bytes that are not a PDF", async () => {
    await expect(setPdfInfo(Buffer.from("not a pdf at all"), { Author: "x" })).rejects.toThrow();
  });
});
