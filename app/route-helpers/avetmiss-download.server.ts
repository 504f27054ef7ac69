import { getDb } from "~/db.server";
import { organisation } from "~/env.server";
import { avetmissZipStream, natFileStream, openYearReport } from "~/avetmiss/export.server";
import { noActivityMessage } from "~/schemas/avetmiss-exports-text";
import type { NatFileName } from "~/avetmiss/nat-files";
import { avetmissYearQuery } from "~/schemas/page-queries";
import { DomainError } from "~/utils/errors";
import { parseWith } from "~/utils/validation";
import { fileNotFound, fileRefusal } from "./file-refusal.server";

/**
 * The AVETMISS downloads as HTTP answers, shared by the reports page's links and
 * GET /api/admin/avetmiss (the same model, the same bytes). Every answer is private: it
 * carries learners' personal details.
 */

/** The `year` of the query string, or the message for one that is not four digits. */
export function reportYear(url: URL): { year: number; error: null } | { year: null; error: string } {
  const parsed = parseWith(avetmissYearQuery, { year: url.searchParams.get("year") ?? undefined });
  return parsed.success ? { year: parsed.data.year, error: null } : { year: null, error: parsed.message };
}

/** A year with nothing to report: a clear answer instead of files holding NAT00010 alone. */
function nothingToReport(year: number, api: boolean): Response {
  const message = noActivityMessage(year);
  // the /api answers it as every refusal, { detail } (apiRoute turns a DomainError into one)
  if (api) throw new DomainError(404, message);
  return fileNotFound(message);
}

/** avetmiss-YYYY.zip with the ten NAT files; a 404 with its reason for a year with no activity. */
export async function avetmissZipResponse(year: number, api = false): Promise<Response> {
  const report = await openYearReport(getDb(), year, organisation());
  if (!report.active) return nothingToReport(year, api);
  // streamed: no Content-Length, the files are written and compressed as they are sent
  return new Response(avetmissZipStream(report), {
    status: 200,
    headers: { "Content-Type": "application/zip", "Content-Disposition": `attachment; filename="avetmiss-${year}.zip"`, "Cache-Control": "no-store" },
  });
}

/** One NAT file as NAT000NN.txt (ASCII, CRLF line ends). */
export async function natFileResponse(year: number, file: NatFileName): Promise<Response> {
  const report = await openYearReport(getDb(), year, organisation());
  if (!report.active) return nothingToReport(year, false);
  // streamed as it is written: no Content-Length
  return new Response(natFileStream(report, file), {
    status: 200,
    headers: { "Content-Type": "text/plain; charset=us-ascii", "Content-Disposition": `attachment; filename="${file}.txt"`, "Cache-Control": "no-store" },
  });
}

/** A page-side download refused for its year: a short readable answer, never a 5xx. */
export function badYear(message: string): Response {
  return fileRefusal(message, 400);
}
