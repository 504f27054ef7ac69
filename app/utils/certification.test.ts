import { describe, expect, it } from "vitest";
import { attachmentDisposition, certificateFileName, certificationKind, certificationTitle, fileNameFromDisposition } from "./certification";

describe("certification words", () => {
  it("calls a unit's document a statement of attainment and a qualification's a testamur", () => {
    expect(certificationKind("CPCCLRG3001")).toBe("statement_of_attainment");
    expect(certificationKind("TLILIC0040")).toBe("statement_of_attainment");
    expect(certificationKind("CPC30220")).toBe("qualification");
    expect(certificationTitle("CPCCLDG3001")).toBe("Statement of Attainment");
  });

  it("names the PDF by document, number and learner, in ASCII, with the name as written for filename*", () => {
    const name = certificateFileName({ nationalCode: "CPCCLDG3001", number: "CR-2026-00012", learner: "Jordan Mitchell" });
    expect(name).toEqual({ ascii: "SoA-CR-2026-00012-Jordan-Mitchell.pdf", unicode: "SoA-CR-2026-00012-Jordan-Mitchell.pdf" });
    const accented = certificateFileName({ nationalCode: "CPCCLDG3001", number: "CR-2026-00013", learner: "Zoë O'Brien-Ngô" });
    expect(accented.ascii).toBe("SoA-CR-2026-00013-Zoe-OBrien-Ngo.pdf");
    expect(attachmentDisposition(accented)).toBe(
      `attachment; filename="SoA-CR-2026-00013-Zoe-OBrien-Ngo.pdf"; filename*=UTF-8''SoA-CR-2026-00013-Zo%C3%AB-O%27Brien-Ng%C3%B4.pdf`,
    );
    // nothing a header or a file system would misread survives
    const hostile = certificateFileName({ nationalCode: "X", number: "CR-1", learner: 'a"b\r\n/..\\c' });
    expect(hostile.ascii).toMatch(/^[A-Za-z0-9-]+\.pdf$/);
    expect(attachmentDisposition(hostile)).not.toMatch(/[\r\n]/);
    // the browser's download (JavaScript on) reads the same name back
    expect(fileNameFromDisposition(attachmentDisposition(accented))).toBe("SoA-CR-2026-00013-Zoë-O'Brien-Ngô.pdf");
    expect(fileNameFromDisposition('attachment; filename="a.pdf"')).toBe("a.pdf");
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});
