import fs from "node:fs";
import path from "node:path";
import type { DB } from "#db/connection";
import { loadSharp, uploadDirectory, type SpooledFile } from "~/files/intake.server";
import type { FileStore } from "~/files/store.server";
import { addLearnerDocument } from "~/models/learner-document.server";

/**
 * A one-page PDF saying `text`, made here so the demo needs no file of its own: the objects,
 * then the cross-reference table with each object's byte offset, as a reader expects.
 */
export function demoPdf(text: string): Buffer {
  const content = `BT /F1 16 Tf 72 770 Td (${text.replace(/[()\\]/g, "")}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** A small photo-like JPEG (a card's colours), made with the same library that cleans uploads. */
export async function demoJpeg(): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp({ create: { width: 86, height: 54, channels: 3, background: { r: 214, g: 222, b: 235 } } })
    .jpeg()
    .toBuffer();
}

/**
 * The demo student's two documents, uploaded by the office on their Student Profile the day after
 * they joined, through the same function as the page's form (addLearnerDocument): typed from
 * their bytes, stored once in the file store, recorded and audited.
 */
export async function seedDemoDocuments(db: DB, store: FileStore, input: { adminId: string; studentId: string; at: Date }): Promise<void> {
  const dir = uploadDirectory();
  try {
    const documents = [
      {
        name: "white-card.pdf",
        bytes: demoPdf("General construction induction card (White Card) - demo"),
        description: "General construction induction (White Card)",
      },
      { name: "photo-id.jpg", bytes: await demoJpeg(), description: "Driver licence, front" },
    ];
    for (const d of documents) {
      const file = path.join(dir, d.name);
      fs.writeFileSync(file, d.bytes, { mode: 0o600 });
      const spooled: SpooledFile = { field: "file", name: d.name, path: file, size: d.bytes.length };
      await addLearnerDocument(db, {
        studentId: input.studentId,
        document: { description: d.description },
        upload: { store, files: [spooled], dir },
        actor: input.adminId,
        now: input.at,
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
