import { strToU8, zipSync, type Zippable } from "fflate";
import type { AuditPack } from "~/models/hrw/hrw-audit-pack.server";
import { HRW_MESSAGES, hrwDate } from "~/schemas/hrw-codes";
import { organisationWallClock } from "~/utils/organisation-calendar";
import { htmlToPdf } from "./browser.server";
import { escapeHtml } from "./certificate-template.server";

/**
 * The audit pack as one zip: the pack's CSVs and a one-page summary PDF of its figures, printed
 * by the same Chromium as the certificates.
 */
export function auditSummaryHtml(pack: AuditPack, organisationName: string, generatedOn: string): string {
  const rows: Array<[string, number]> = [
    ["Assessments", pack.counts.assessments],
    ["Satisfactory (NSA issued or to issue)", pack.counts.satisfactory],
    ["Assessors", pack.counts.assessors],
    ["Regulator notices", pack.counts.notices],
    ["NSAs issued", pack.counts.nsas],
    ["Candidate checks", pack.counts.checks],
    ["Evidence records (part results)", pack.counts.evidence],
  ];
  const due = pack.audit
    ? `<p>The annual independent audit of the period ${escapeHtml(hrwDate(pack.audit.period_from))} to ${escapeHtml(hrwDate(pack.audit.period_to))} is due by ${escapeHtml(hrwDate(pack.audit.due_on))}.</p>`
    : "";
  const none = pack.counts.assessments === 0 ? `<p><strong>${escapeHtml(HRW_MESSAGES.noAssessmentsInYear(pack.state, pack.year))}.</strong></p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>HRW audit pack ${pack.state} ${pack.year}</title>
<style>@page{size:A4;margin:20mm}body{font-family:sans-serif;font-size:11pt;color:#111}h1{font-size:18pt;margin:0 0 4mm}table{border-collapse:collapse;width:100%;margin-top:6mm}td,th{border:1px solid #999;padding:2mm 3mm;text-align:left}td.n{text-align:right}</style></head>
<body><h1>High-risk work audit pack: ${escapeHtml(pack.state)} ${pack.year}</h1>
<p>${escapeHtml(organisationName)}, for ${escapeHtml(pack.regulator)}: assessments dated 1 Jan to 31 Dec ${pack.year}. Generated ${escapeHtml(hrwDate(generatedOn))}.</p>${due}${none}
<table><thead><tr><th scope="col">Record</th><th scope="col">Count</th></tr></thead><tbody>
${rows.map(([label, n]) => `<tr><td>${escapeHtml(label)}</td><td class="n">${n}</td></tr>`).join("\n")}
</tbody></table>
<p>Files: ${Object.keys(pack.files).map(escapeHtml).join(", ")}. Candidate checks list what was checked, by whom and when; identity documents, dates of birth and licence numbers are not included.</p>
</body></html>`;
}

export async function auditPackZip(pack: AuditPack, organisationName: string, now = new Date()): Promise<Uint8Array> {
  const [y, mo, d, h, mi, s] = organisationWallClock(now);
  const today = `${y}-${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const { pdf } = await htmlToPdf(auditSummaryHtml(pack, organisationName, today));
  const mtime = new Date(y, mo - 1, d, h, mi, s);
  const entries: Zippable = {};
  for (const [name, text] of Object.entries(pack.files)) entries[name] = [strToU8(text), { mtime }];
  entries["summary.pdf"] = [new Uint8Array(pdf), { mtime }];
  return zipSync(entries, { level: 6 });
}
